/**
 * The crash run's world: a generated Ethereum ledger (sanctioned addresses, exchanges, mixers,
 * unattributed intermediaries, client addresses) and the transfers to register, some with the
 * outcome they must reach (a sanctioned sender is severe, an exchange is none, an unknown hash
 * ends not_found). Deterministic for a seed.
 */
import type {
  Attribution,
  Engine,
  LedgerTransfer,
  RegisterTransferRequest,
  SanctionsListing,
} from "@openkyt/core";

/** Start of the world: 2024-01-01T00:00:00Z. */
const T0 = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;

/** What a registered transfer must end as: a risk level when bound, or not_found; null: bound, any level. */
export type CrashExpectation = "severe" | "none" | "not_found" | null;

/** One transfer to register (a wire request body) and what it must end as. */
export interface CrashRegistration {
  readonly body: RegisterTransferRequest;
  readonly expect: CrashExpectation;
}

/** Reference data and registrations of a run. */
export interface CrashWorld {
  readonly ledger: ReadonlyArray<LedgerTransfer>;
  readonly attributions: ReadonlyArray<Attribution>;
  readonly sanctions: ReadonlyArray<SanctionsListing>;
  readonly registrations: ReadonlyArray<CrashRegistration>;
}

/** A small seeded generator (mulberry32): the same seed gives the same world. */
function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const address = (group: number, n: number) =>
  `0x${group.toString(16).padStart(2, "0")}${n.toString(16).padStart(38, "0")}`;
const hash = (group: number, n: number) =>
  `0x${group.toString(16).padStart(2, "0")}${n.toString(16).padStart(62, "0")}`;

/** Builds the world of `transfers` registrations. */
export function buildCrashWorld(transfers: number, seed = 1): CrashWorld {
  const random = randomOf(seed);
  const pick = <T>(items: ReadonlyArray<T>): T => items[Math.floor(random() * items.length)] as T;
  const sanctioned = Array.from({ length: 5 }, (_, i) => address(1, i));
  const exchanges = Array.from({ length: 5 }, (_, i) => address(2, i));
  const mixers = Array.from({ length: 3 }, (_, i) => address(3, i));
  const middle = Array.from({ length: 200 }, (_, i) => address(4, i));
  const clients = Array.from({ length: 500 }, (_, i) => address(5, i));
  const sources = [...sanctioned, ...exchanges, ...exchanges, ...mixers];
  const ledger: LedgerTransfer[] = [];
  const row = (txHash: string, from: string, to: string, at: number): LedgerTransfer => ({
    network: "ETH",
    txHash,
    logIndex: 0,
    tokenId: "native",
    from,
    to,
    amount: Math.round((0.1 + random() * 10) * 1000) / 1000,
    occurredAt: at,
    block: null,
    valueUsd: null,
  });
  middle.forEach((to, i) => {
    for (let k = 0; k < 3; k++) ledger.push(row(hash(6, i * 3 + k), pick(sources), to, T0 + (1 + k) * HOUR));
  });
  const registrations: CrashRegistration[] = [];
  for (let i = 0; i < transfers; i++) {
    const at = T0 + 12 * HOUR + i * 1_000;
    const client = pick(clients);
    const kind = i % 20;
    const [from, to, expect]: [string, string, CrashExpectation] =
      kind === 0 || kind === 10
        ? [pick(sanctioned), client, "severe"]
        : kind === 1 || kind === 11
          ? [pick(exchanges), client, "none"]
          : kind === 5
            ? [client, pick(middle), null]
            : [pick(middle), client, kind === 19 ? "not_found" : null];
    const txHash = hash(7, i);
    // An unknown hash is registered but never put on the ledger.
    if (expect !== "not_found") ledger.push(row(txHash, from, to, at));
    const outgoing = kind === 5;
    registrations.push({
      body: {
        client_id: `client-${i % 50}`,
        direction: outgoing ? "outgoing" : "incoming",
        network: "ETH",
        tx_hash: txHash,
        token_id: "native",
        output_address: to,
      },
      expect,
    });
  }
  const entity = (category: string, name: string) => (a: string, i: number) => ({
    network: "ETH",
    address: a,
    entityName: `${name} ${i}`,
    entityCategory: category,
    source: "crash-run",
  });
  return {
    ledger,
    attributions: [...exchanges.map(entity("exchange", "Exchange")), ...mixers.map(entity("mixer", "Mixer"))],
    sanctions: sanctioned.map((a, i) => ({
      network: "ETH",
      address: a,
      listName: "OFAC SDN",
      program: "CYBER2",
      entity: `Sanctioned ${i}`,
      listedAt: null,
      delistedAt: null,
    })),
    registrations,
  };
}

/** Loads the world's reference data (ledger, attributions, sanctions, ETH prices) into an engine's store. */
export async function loadCrashWorld(engine: Engine, world: CrashWorld): Promise<void> {
  await engine.reference.loadLedger(world.ledger);
  await engine.reference.loadAttributions(world.attributions);
  await engine.reference.loadSanctions(world.sanctions);
  const days = [0, 1, 2].map((d) => new Date(T0 + d * 24 * HOUR).toISOString().slice(0, 10));
  await engine.reference.loadPrices(
    days.map((day) => ({ network: "ETH", tokenId: "native", day, usd: 2_000 })),
  );
}
