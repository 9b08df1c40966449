/**
 * Report requests for the tests and the benchmark, produced by a real engine over the memory
 * store and the testkit's world (the renderer records every request it renders), plus one
 * request built by hand: a transfer with 200 risks.
 */
import {
  type AccountApi,
  createEngine,
  createMemoryStore,
  type Engine,
  manualClock,
  type ReportRenderer,
  type ReportRequest,
  sequentialIds,
  type TransferReportData,
} from "@openkyt/core";
import { loadWorld, NOW, TX, W } from "../../testkit/src/index.js";
import { createPdfRenderer, type PdfRenderer } from "../src/index.js";

/** The fixed creation date of deterministic renders. */
export const CREATION_DATE = new Date(Date.UTC(2024, 0, 2, 12, 0, 0));

/** A renderer that keeps every request it rendered, with the bytes. */
export interface RecordingRenderer extends PdfRenderer {
  readonly rendered: Array<{ request: ReportRequest; bytes: Uint8Array }>;
}

/** The deterministic PDF renderer, recording what it renders. */
export function recordingRenderer(): RecordingRenderer {
  const inner = createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } });
  const rendered: RecordingRenderer["rendered"] = [];
  return {
    rendered,
    document: inner.document,
    async render(request) {
      const bytes = await inner.render(request);
      rendered.push({ request, bytes });
      return bytes;
    },
  };
}

/** An engine over the world with a deterministic clock and ids, rendering with `renderer`. */
export async function worldEngine(renderer: ReportRenderer): Promise<Engine> {
  const engine = createEngine({
    store: createMemoryStore(),
    clock: manualClock(NOW),
    ids: sequentialIds(),
    reportRenderer: renderer,
  });
  await loadWorld(engine);
  return engine;
}

/**
 * A world engine and the requests of four sample reports it rendered: a transfer, a severe
 * one without risks, an address check and a transfer check.
 */
export async function sampleRequests(): Promise<{ engine: Engine; requests: ReportRequest[] }> {
  const renderer = recordingRenderer();
  const engine = await worldEngine(renderer);
  const s = await registerSamples(engine);
  await s.acme.transferReport(s.deposit);
  await s.acme.transferReport(s.sanctioned, { withRisks: false });
  await s.acme.manualCheckReport(s.addressCheck);
  await s.acme.manualCheckReport(s.transferCheck);
  return { engine, requests: renderer.rendered.map((r) => r.request) };
}

/** Ids of the sample transfers and checks, and the account they belong to. */
export interface Samples {
  readonly acme: AccountApi;
  /** Direct exchange deposit: no risk. */
  readonly exchange: string;
  /** Direct mixer deposit. */
  readonly mixer: string;
  /** 30% sanctions, 70% exchange, both three hops away. */
  readonly deposit: string;
  /** Withdrawal to a listed address: severe, sanctions hit. */
  readonly sanctioned: string;
  /** Registered, not bound yet. */
  readonly pending: string;
  /** Manual check of the deposit's transaction. */
  readonly transferCheck: string;
  /** Manual check of an unidentified address with sanctions exposure. */
  readonly addressCheck: string;
}

/** The transfers and checks of the samples, registered and checked (the pending one stays pending). */
export async function registerSamples(engine: Engine): Promise<Samples> {
  const acme = engine.forAccount("acme");
  const incoming = (tx_hash: string) =>
    acme.registerTransfer({ direction: "incoming", network: "ETH", tx_hash, output_address: W.client });
  const exchange = await incoming(TX.exchangeDeposit);
  const mixer = await incoming(TX.mixerDeposit);
  const deposit = await incoming(TX.deposit);
  const sanctioned = await acme.registerTransfer({
    direction: "outgoing",
    network: "ETH",
    tx_hash: TX.withdrawalToSanctioned,
    output_address: W.sanctioned,
  });
  const transferCheck = await acme.checkTransfer({
    network: "ETH",
    tx_hash: TX.deposit,
    output_address: W.client,
    direction: "incoming",
  });
  const addressCheck = await acme.checkAddress({ network: "ETH", address: W.b });
  await engine.drain();
  const pending = await incoming(TX.unknown);
  return {
    acme,
    exchange: exchange.transfer.id,
    mixer: mixer.transfer.id,
    deposit: deposit.transfer.id,
    sanctioned: sanctioned.transfer.id,
    pending: pending.transfer.id,
    transferCheck: transferCheck.id,
    addressCheck: addressCheck.id,
  };
}

const LEVELS = ["low", "medium", "high", "severe"] as const;
const CATEGORIES = ["mixer", "gambling", "scam", "darknet_market", "stolen_funds", "sanctions", "ransomware"];
const RULE_TYPES = ["origin_of_funds", "address_exposure", "entity"] as const;

/** A transfer report request with `count` risks and alerts, built from a rendered one. */
export function manyRisksRequest(base: ReportRequest, count: number): ReportRequest {
  if (base.data.kind !== "transfer") throw new Error("a transfer report is needed");
  const template = base.data.risks[0];
  const alert = base.data.alerts[0];
  if (template === undefined || alert === undefined)
    throw new Error("the base report needs a risk and an alert");
  const risks = Array.from({ length: count }, (_, i) => {
    const category = CATEGORIES[i % CATEGORIES.length] ?? "mixer";
    return {
      ...template,
      id: `risk-${String(i + 1).padStart(4, "0")}`,
      risk_level: LEVELS[i % LEVELS.length] ?? "low",
      entity_category: category,
      entity_name:
        i % 5 === 0 ? `Entity ${i + 1}, with a long name that wraps in its cell` : `Entity ${i + 1}`,
      value_share: ((i % 97) + 1) / 100,
      value_in_fiat: (i + 1) * 123.45,
      rule: {
        ...template.rule,
        rule_type: RULE_TYPES[i % RULE_TYPES.length] ?? "entity",
        entity_category: category,
        min_value_in_fiat: i % 2 === 0 ? null : 100,
        min_value_share: i % 3 === 0 ? null : 0.05,
      },
    };
  });
  const alerts = risks.slice(0, 40).map((r, i) => ({
    ...alert,
    id: `alert-${String(i + 1).padStart(4, "0")}`,
    risk_level: r.risk_level,
    alert_status: (["open", "in_progress", "awaiting_response", "done"] as const)[i % 4] ?? "open",
  }));
  const data: TransferReportData = { ...base.data, risks, alerts };
  return { ...base, data, reportId: "00000000-0000-4000-8000-000000000200" };
}
