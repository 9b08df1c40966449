/**
 * Record factories for tests: valid defaults for every field, overridden by a Partial.
 * Ids and hashes are random by default so records never collide by accident.
 */
import type {
  AlertRecord,
  CheckStates,
  ExposureResult,
  JobRecord,
  LedgerTransfer,
  ManualCheckRecord,
  RiskRecord,
  RiskRule,
  TransferRecord,
} from "@openkyt/core";

/** The time every factory default is based on: 2024-01-01T00:00:00Z. */
export const BASE_TIME = Date.UTC(2024, 0, 1);

/** A fresh random id. */
export function randomId(): string {
  return globalThis.crypto.randomUUID();
}

/** A random 0x-prefixed 32-byte hex hash (an EVM transaction hash). */
export function randomTxHash(): string {
  return `0x${randomId().replaceAll("-", "")}${randomId().replaceAll("-", "")}`;
}

/** A random lower-case 20-byte EVM address. */
export function randomAddress(): string {
  return `0x${randomId().replaceAll("-", "")}${randomId().replaceAll("-", "").slice(0, 8)}`;
}

/** Every check `checked` at `at`. */
export function checkedStates(at: number): CheckStates {
  return {
    exposure: { state: "checked", at },
    counterparty: { state: "checked", at },
    sanctions: { state: "checked", at },
  };
}

/** A rule: severe for any exposure to sanctions from a 10% share. */
export function makeRule(overrides: Partial<RiskRule> = {}): RiskRule {
  return {
    ruleType: "origin_of_funds",
    ruleSubType: "all",
    entityCategory: "sanctions",
    minValueInFiat: null,
    minValueShare: 0.1,
    riskLevel: "severe",
    ...overrides,
  };
}

/** An exposure: 40% indirect sanctions over two hops, the rest unexplained. */
export function makeExposure(overrides: Partial<ExposureResult> = {}): ExposureResult {
  return {
    direct: null,
    shares: [
      {
        category: "sanctions",
        proximity: "indirect",
        share: 0.4,
        valueInFiat: 1260.1,
        entityNames: ["Lazarus Group"],
        minHops: 2,
        path: ["0x1111111111111111111111111111111111111111", "0x2222222222222222222222222222222222222222"],
      },
      {
        category: "undefined",
        proximity: "indirect",
        share: 0.6,
        valueInFiat: 1890.15,
        entityNames: [],
        minHops: 5,
        path: [],
      },
    ],
    truncated: false,
    edgesRead: 17,
    hops: 5,
    ...overrides,
  };
}

/** A bound, checked incoming ETH transfer of account `acct-1`. */
export function makeTransfer(overrides: Partial<TransferRecord> = {}): TransferRecord {
  return {
    id: randomId(),
    accountId: "acct-1",
    clientId: "client-1",
    attemptId: null,
    registeredAt: BASE_TIME,
    network: "ETH",
    tokenId: "native",
    tokenSymbol: "ETH",
    direction: "incoming",
    txStatus: "bound",
    txHash: randomTxHash(),
    occurredAt: BASE_TIME - 60_000,
    inputAddress: randomAddress(),
    outputAddress: randomAddress(),
    amount: 1.5,
    valueInFiat: 3150.25,
    riskLevel: "none",
    riskScore: 0,
    riskModelId: null,
    riskModelVersion: null,
    checks: checkedStates(BASE_TIME),
    disableAutoCheck: false,
    exposure: null,
    counterparty: null,
    sanctions: null,
    counterpartyName: null,
    counterpartyCategory: null,
    lastError: null,
    updatedAt: BASE_TIME,
    ...overrides,
  };
}

/** A completed single-address manual check of account `acct-1`. */
export function makeManualCheck(overrides: Partial<ManualCheckRecord> = {}): ManualCheckRecord {
  return {
    id: randomId(),
    accountId: "acct-1",
    createdAt: BASE_TIME,
    checkType: "single_address",
    checkStatus: "checked",
    checkedAt: BASE_TIME,
    network: "ETH",
    tokenId: "native",
    tokenSymbol: "ETH",
    txHash: null,
    outputAddress: null,
    direction: null,
    address: randomAddress(),
    txStatus: null,
    occurredAt: null,
    inputAddress: null,
    counterpartyAddress: null,
    amount: null,
    valueInFiat: null,
    riskLevel: "none",
    riskScore: 0,
    riskModelId: null,
    riskModelVersion: null,
    exposure: null,
    counterparty: null,
    sanctions: null,
    lastError: null,
    updatedAt: BASE_TIME,
    ...overrides,
  };
}

/** A severe indirect sanctions risk of a transfer's exposure check. */
export function makeRisk(overrides: Partial<RiskRecord> = {}): RiskRecord {
  return {
    id: randomId(),
    accountId: "acct-1",
    subjectType: "transfer",
    subjectId: randomId(),
    checkKind: "exposure",
    riskType: "origin_of_funds",
    riskLevel: "severe",
    entityCategory: "sanctions",
    entityName: "Lazarus Group",
    proximity: "indirect",
    valueInFiat: 1200.5,
    valueShare: 0.4,
    rule: makeRule(),
    occurredAt: BASE_TIME - 60_000,
    createdAt: BASE_TIME,
    ...overrides,
  };
}

/** An open alert for a severe indirect sanctions risk. */
export function makeAlert(overrides: Partial<AlertRecord> = {}): AlertRecord {
  return {
    id: randomId(),
    accountId: "acct-1",
    transferId: randomId(),
    dedupeKey: "origin_of_funds:sanctions:indirect",
    createdAt: BASE_TIME,
    updatedAt: null,
    riskLevel: "severe",
    riskType: "origin_of_funds",
    riskOccurredAt: BASE_TIME - 60_000,
    alertStatus: "open",
    assignee: null,
    entityCategory: "sanctions",
    proximity: "indirect",
    valueInFiat: 1200.5,
    valueShare: 0.4,
    rule: makeRule(),
    ...overrides,
  };
}

/** A due, unleased bind job. */
export function makeJob(overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    id: randomId(),
    kind: "transfer.bind",
    accountId: "acct-1",
    subjectId: randomId(),
    payload: {},
    runAt: BASE_TIME,
    attempts: 0,
    leaseOwner: null,
    leaseUntil: null,
    lastError: null,
    createdAt: BASE_TIME,
    ...overrides,
  };
}

/** A native ETH ledger transfer between two random addresses. */
export function makeLedgerTransfer(overrides: Partial<LedgerTransfer> = {}): LedgerTransfer {
  return {
    network: "ETH",
    txHash: randomTxHash(),
    logIndex: 0,
    tokenId: "native",
    from: randomAddress(),
    to: randomAddress(),
    amount: 1,
    occurredAt: BASE_TIME,
    block: 19_000_000,
    valueUsd: null,
    ...overrides,
  };
}
