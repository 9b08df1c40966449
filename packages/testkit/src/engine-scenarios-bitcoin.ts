/**
 * Bitcoin (and Litecoin) end to end in-process: a UTXO ledger loaded into the store, deposits
 * and withdrawals registered, bound to the outputs paying their address and traced through the
 * exact coins spent (haircut by default, FIFO as an engine option); manual checks and attempts.
 */
import { coinsFromSats, type UtxoInput, type UtxoTransaction } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type StoreFactory, useHarness } from "./engine-harness.js";
import { HOUR, T0 } from "./engine-world.js";

/** Valid bech32 addresses of the Bitcoin world (P2WPKH programs of one repeated byte). */
export const B = Object.freeze({
  sanctioned: "bc1qzqgpqyqszqgpqyqszqgpqyqszqgpqyqskhggur",
  ransom1: "bc1qzyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3h8ffkz",
  ransom2: "bc1qzgfpyysjzgfpyysjzgfpyysjzgfpyysjxr0va5",
  exchange: "bc1qzvf3xycnzvf3xycnzvf3xycnzvf3xycn8nwdh4",
  mixer: "bc1qzs2pg9q5zs2pg9q5zs2pg9q5zs2pg9q58rfgsf",
  a: "bc1qz52329g4z52329g4z52329g4z52329g4xngf6g",
  b: "bc1qzctpv9skzctpv9skzctpv9skzctpv9skhhwv37",
  client: "bc1qzut3w9chzut3w9chzut3w9chzut3w9chk80dml",
  hot: "bc1qrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcelaelx",
  payee: "bc1qryv3jxgeryv3jxgeryv3jxgeryv3jxgec0uc48",
  fresh: "bc1qrgdp5xs6rgdp5xs6rgdp5xs6rgdp5xs6ft6a73",
});

/** Litecoin addresses of the world. */
export const L = Object.freeze({
  thief: "ltc1qgfpyysjzgfpyysjzgfpyysjzgfpyysjzsh0dcy",
  user: "ltc1qgdp5xs6rgdp5xs6rgdp5xs6rgdp5xs6r38wvj9",
});

/** BTC price on every day of the world. */
export const BTC_USD = 40_000;

const SAT = 100_000_000;
const txid = (n: number) => n.toString(16).padStart(64, "b");

/** Transaction ids of the Bitcoin world. */
export const BTX = Object.freeze({
  mintSanctioned: txid(1),
  mintExchange: txid(2),
  mintRansom1: txid(3),
  mintRansom2: txid(4),
  sanctionedToA: txid(5),
  exchangeToB: txid(6),
  /** a (4 BTC, from the sanctioned address) + b (6 BTC, from the exchange) -> client 8, fresh 2. */
  deposit: txid(7),
  ransomToHot: txid(8),
  /** hot (3 BTC of ransomware payments) -> client 1 + 1.5 (two outputs), hot 0.5. */
  ransomDeposit: txid(9),
  /** client's 8 BTC -> payee 3, client 5. */
  withdrawal: txid(10),
  /** payee's 3 BTC -> mixer 2.25, fresh 0.75. */
  payeeToMixer: txid(11),
  ltcMint: txid(12),
  ltcDeposit: txid(13),
  /** The sanctioned address and fresh spend together: fresh joins the sanctioned wallet's cluster. */
  coSpend: txid(14),
  /** fresh (1.75 BTC) -> client: a deposit from the sanctioned wallet's cluster. */
  clusterDeposit: txid(15),
});

const at = (hours: number) => T0 + hours * HOUR;
const spend = (tx: string, vout: number, address: string, btc: number): UtxoInput => ({
  prevTxid: tx,
  prevVout: vout,
  address,
  value: Math.round(btc * SAT),
  coinbase: false,
});
const COINBASE: UtxoInput = { prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true };
const tx = (
  id: string,
  hours: number,
  inputs: ReadonlyArray<UtxoInput>,
  outputs: ReadonlyArray<readonly [string, number]>,
  network = "BTC",
): UtxoTransaction => ({
  network,
  txid: id,
  block: 800_000 + hours,
  blockHash: null,
  occurredAt: at(hours),
  position: inputs.some((i) => i.coinbase) ? 0 : 1,
  coinbase: inputs.some((i) => i.coinbase),
  inputs,
  outputs: outputs.map(([address, btc], vout) => ({
    vout,
    address,
    value: Math.round(btc * SAT),
    spentBy: null,
  })),
});

/** The UTXO ledger of the world. */
export const BITCOIN_LEDGER: ReadonlyArray<UtxoTransaction> = Object.freeze([
  tx(BTX.mintSanctioned, 1, [COINBASE], [[B.sanctioned, 5]]),
  tx(BTX.mintExchange, 1, [COINBASE], [[B.exchange, 10]]),
  tx(BTX.mintRansom1, 1, [COINBASE], [[B.ransom1, 2]]),
  tx(BTX.mintRansom2, 1, [COINBASE], [[B.ransom2, 1]]),
  tx(
    BTX.sanctionedToA,
    2,
    [spend(BTX.mintSanctioned, 0, B.sanctioned, 5)],
    [
      [B.a, 4],
      [B.sanctioned, 1],
    ],
  ),
  tx(
    BTX.exchangeToB,
    2,
    [spend(BTX.mintExchange, 0, B.exchange, 10)],
    [
      [B.b, 6],
      [B.exchange, 4],
    ],
  ),
  tx(
    BTX.deposit,
    3,
    [spend(BTX.sanctionedToA, 0, B.a, 4), spend(BTX.exchangeToB, 0, B.b, 6)],
    [
      [B.client, 8],
      [B.fresh, 2],
    ],
  ),
  tx(
    BTX.ransomToHot,
    3,
    [spend(BTX.mintRansom1, 0, B.ransom1, 2), spend(BTX.mintRansom2, 0, B.ransom2, 1)],
    [[B.hot, 3]],
  ),
  tx(
    BTX.ransomDeposit,
    4,
    [spend(BTX.ransomToHot, 0, B.hot, 3)],
    [
      [B.client, 1],
      [B.hot, 0.5],
      [B.client, 1.5],
    ],
  ),
  tx(
    BTX.withdrawal,
    5,
    [spend(BTX.deposit, 0, B.client, 8)],
    [
      [B.payee, 3],
      [B.client, 5],
    ],
  ),
  tx(
    BTX.payeeToMixer,
    6,
    [spend(BTX.withdrawal, 0, B.payee, 3)],
    [
      [B.mixer, 2.25],
      [B.fresh, 0.75],
    ],
  ),
  tx(
    BTX.coSpend,
    7,
    [spend(BTX.sanctionedToA, 1, B.sanctioned, 1), spend(BTX.payeeToMixer, 1, B.fresh, 0.75)],
    [[B.fresh, 1.75]],
  ),
  tx(BTX.clusterDeposit, 8, [spend(BTX.coSpend, 0, B.fresh, 1.75)], [[B.client, 1.75]]),
  tx(BTX.ltcMint, 1, [COINBASE], [[L.thief, 50]], "LTC"),
  tx(BTX.ltcDeposit, 2, [spend(BTX.ltcMint, 0, L.thief, 50)], [[L.user, 49.9]], "LTC"),
]);

/** Registers the suite. */
export function runBitcoinScenarios(factory: StoreFactory): void {
  describe(`engine on Bitcoin (${factory.name})`, () => {
    const h = useHarness(factory);

    /** Loads the Bitcoin world into the running harness's engine. */
    async function loadBitcoin(): Promise<void> {
      const { reference } = h.engine;
      const loaded = await reference.loadUtxoTransactions(BITCOIN_LEDGER);
      expect(loaded.added).toBe(BITCOIN_LEDGER.length);
      await reference.loadAttributions([
        {
          network: "BTC",
          address: B.exchange,
          entityName: "Big Exchange",
          entityCategory: "exchange",
          source: "test",
        },
        {
          network: "BTC",
          address: B.mixer,
          entityName: "Mixer One",
          entityCategory: "mixer",
          source: "test",
        },
        {
          network: "BTC",
          address: B.ransom1,
          entityName: "Locker",
          entityCategory: "ransomware",
          source: "test",
        },
        {
          network: "BTC",
          address: B.ransom2,
          entityName: "Locker",
          entityCategory: "ransomware",
          source: "test",
        },
        {
          network: "LTC",
          address: L.thief,
          entityName: "Thief",
          entityCategory: "stolen_funds",
          source: "test",
        },
      ]);
      await reference.loadSanctions([
        {
          network: "BTC",
          address: B.sanctioned,
          listName: "OFAC SDN",
          program: "CYBER2",
          entity: "Bad Actor",
          listedAt: null,
          delistedAt: null,
        },
      ]);
      const days = [0, 1].map((d) => new Date(T0 + d * 24 * HOUR).toISOString().slice(0, 10));
      await reference.loadPrices(
        days.map((day) => ({ network: "BTC", tokenId: "native", day, usd: BTC_USD })),
      );
    }

    /** Registers a deposit of the world to `output`, runs the engine, and returns the transfer. */
    async function deposit(txHash: string, output: string) {
      const { transfer } = await h.acme.registerTransfer({
        direction: "incoming",
        network: "BTC",
        tx_hash: txHash,
        output_address: output,
      });
      await h.engine.drain();
      return h.acme.getTransfer(transfer.id);
    }

    it("a deposit binds to the outputs paying its address and is traced through the coins spent (haircut)", async () => {
      await loadBitcoin();
      const done = await deposit(BTX.deposit, B.client);
      expect(done).toMatchObject({
        tx_status: "bound",
        amount: 8,
        // The largest input: b's 6 BTC.
        input_address: B.b,
        output_address: B.client,
        value_in_fiat: 8 * BTC_USD,
      });
      const exposure = await h.acme.getTransferExposure(done.id);
      expect(exposure.direct_interaction).toBeNull();
      expect(exposure.input_addresses).toEqual([B.a, B.b]);
      const shares = Object.fromEntries(
        (exposure.indirect_interaction ?? []).map((s) => [s.entity_category, s.value_share]),
      );
      expect(shares.exchange).toBeCloseTo(0.6, 12);
      expect(shares.sanctions).toBeCloseTo(0.4, 12);
      const sanctions = exposure.indirect_interaction?.find((s) => s.entity_category === "sanctions");
      // The path starts at the deposit's own output (hop 0): a's coin is the sender's (hop 1).
      expect(sanctions?.strongest_path).toEqual({
        hops: 2,
        addresses: [B.client, B.a, B.sanctioned],
        tx_hashes: [`${BTX.deposit}:0`, `${BTX.sanctionedToA}:0`, `${BTX.mintSanctioned}:0`],
        coin_values: [8, 4, 5],
      });
      expect(exposure.utxo_rule).toBe("haircut");
      const risks = await h.acme.getTransferRisks(done.id);
      expect(risks.some((r) => r.entity_category === "sanctions" && r.risk_level === "severe")).toBe(true);
    });

    it("FIFO, as an engine option, takes the deposit from the inputs in order", async () => {
      await h.reopen({ tracing: { utxoRule: "fifo" } });
      await loadBitcoin();
      const done = await deposit(BTX.deposit, B.client);
      const exposure = await h.acme.getTransferExposure(done.id);
      const shares = Object.fromEntries(
        (exposure.indirect_interaction ?? []).map((s) => [s.entity_category, s.value_share]),
      );
      // The first 8 BTC of the inputs: a's 4 (sanctioned) and 4 of b's 6 (exchange).
      expect(shares).toEqual({ sanctions: 0.5, exchange: 0.5 });
    });

    it("several outputs paying the address are summed; ransomware payments two hops back", async () => {
      await loadBitcoin();
      const done = await deposit(BTX.ransomDeposit, B.client);
      expect(done).toMatchObject({ tx_status: "bound", amount: 2.5, input_address: B.hot });
      const exposure = await h.acme.getTransferExposure(done.id);
      expect(exposure.indirect_interaction?.map((s) => [s.entity_category, s.value_share])).toEqual([
        ["ransomware", 1],
      ]);
      expect(coinsFromSats(250_000_000)).toBe(done.amount);
      const risks = await h.acme.getTransferRisks(done.id);
      expect(risks.some((r) => r.entity_category === "ransomware")).toBe(true);
    });

    it("a withdrawal binds to the outputs paying the counterparty and is traced forward", async () => {
      await loadBitcoin();
      const { transfer } = await h.acme.registerTransfer({
        direction: "outgoing",
        network: "BTC",
        tx_hash: BTX.withdrawal,
        output_address: B.payee,
      });
      await h.engine.drain();
      const done = await h.acme.getTransfer(transfer.id);
      expect(done).toMatchObject({ tx_status: "bound", amount: 3, input_address: B.client });
      const exposure = await h.acme.getTransferExposure(done.id);
      const shares = Object.fromEntries(
        (exposure.indirect_interaction ?? []).map((s) => [s.entity_category, s.value_share]),
      );
      // The rest went to fresh, which later spent with the sanctioned address: its cluster.
      expect(shares).toEqual({ mixer: 0.75, sanctions: 0.25 });
      const mixer = exposure.indirect_interaction?.find((s) => s.entity_category === "mixer");
      expect(mixer?.strongest_path?.tx_hashes).toEqual([`${BTX.withdrawal}:0`, `${BTX.payeeToMixer}:0`]);
    });

    it("a deposit from a sanctioned wallet's cluster: the label extends to the cluster, and says so", async () => {
      await loadBitcoin();
      const done = await deposit(BTX.clusterDeposit, B.client);
      expect(done).toMatchObject({ tx_status: "bound", amount: 1.75, input_address: B.fresh });
      const exposure = await h.acme.getTransferExposure(done.id);
      expect(exposure.direct_interaction).toMatchObject({
        entity_category: "sanctions",
        entity_name: "Bad Actor",
        attribution: "cluster",
        defining_address: B.sanctioned,
        cluster_size: 2,
        cluster_conflict: false,
      });
      const counterparty = await h.acme.getTransferCounterparty(done.id);
      expect(counterparty).toMatchObject({
        address: B.fresh,
        entity_category: "sanctions",
        attribution: "cluster",
        defining_address: B.sanctioned,
        cluster_size: 2,
      });
      const risks = await h.acme.getTransferRisks(done.id);
      expect(risks.some((r) => r.entity_category === "sanctions" && r.risk_level === "severe")).toBe(true);
    });

    it("with clustering off, labels stay on their addresses", async () => {
      await h.reopen({ clustering: false });
      await loadBitcoin();
      const done = await deposit(BTX.clusterDeposit, B.client);
      const exposure = await h.acme.getTransferExposure(done.id);
      expect(exposure.direct_interaction).toBeNull();
      const sanctions = exposure.indirect_interaction?.find((s) => s.entity_category === "sanctions");
      // By haircut, 1 of coSpend's 1.75 BTC came from the sanctioned address itself.
      expect(sanctions?.value_share).toBeGreaterThanOrEqual(1 / 1.75 - 1e-9);
      expect(sanctions?.value_share).toBeLessThan(1);
      expect(sanctions?.strongest_path).not.toHaveProperty("attribution");
    });

    it("a deposit to an address the transaction does not pay is not bound, with the reason", async () => {
      await loadBitcoin();
      const done = await deposit(BTX.deposit, B.payee);
      expect(done.tx_status).toBe("not_found");
      expect((await h.store.getTransfer(done.id))?.lastError).toContain("pays nothing to");
      // An attempt names its sender: bound, it must be one of the transaction's inputs.
      const attempt = await h.acme.registerAttempt({
        direction: "incoming",
        network: "BTC",
        input_address: B.exchange,
        output_address: B.client,
      });
      await h.acme.bindTransaction(attempt.id, { tx_hash: BTX.deposit });
      await h.engine.drain();
      expect((await h.acme.getTransfer(attempt.id)).tx_status).toBe("not_found");
      expect((await h.store.getTransfer(attempt.id))?.lastError).toContain("is not an input address");
    });

    it("manual transfer and address checks work for BTC and LTC", async () => {
      await loadBitcoin();
      const transferCheck = await h.acme.checkTransfer({
        network: "BTC",
        tx_hash: BTX.deposit,
        output_address: B.client,
        direction: "incoming",
      });
      const outgoingCheck = await h.acme.checkTransfer({
        network: "BTC",
        tx_hash: BTX.withdrawal,
        output_address: B.client,
        direction: "outgoing",
      });
      const addressCheck = await h.acme.checkAddress({ network: "BTC", address: B.a });
      const ltcCheck = await h.acme.checkAddress({ network: "LTC", address: L.user });
      await h.engine.drain();
      const checked = await h.acme.getManualCheck(transferCheck.id);
      expect(checked).toMatchObject({ check_status: "checked", risk_level: "severe" });
      expect(checked.transfer).toMatchObject({ amount: 8, input_address: B.b, output_address: B.client });
      const outgoing = await h.acme.getManualCheck(outgoingCheck.id);
      expect(outgoing.check_status).toBe("checked");
      expect(outgoing.transfer).toMatchObject({ amount: 3, output_address: B.payee });
      // a received 4 BTC, all of it from the sanctioned address: a direct counterparty.
      const a = await h.acme.getManualCheckAddressExposure(addressCheck.id);
      expect(a.exposure).toEqual([expect.objectContaining({ entity_category: "sanctions", value_share: 1 })]);
      expect((await h.acme.getManualCheck(addressCheck.id)).risk_level).toBe("severe");
      const ltc = await h.acme.getManualCheckAddressExposure(ltcCheck.id);
      expect(ltc.exposure).toEqual([
        expect.objectContaining({ entity_category: "stolen_funds", value_share: 1 }),
      ]);
    });

    it("an attempt's counterparty is checked over the UTXO ledger, then the attempt binds", async () => {
      await loadBitcoin();
      const attempt = await h.acme.registerAttempt({
        direction: "incoming",
        network: "BTC",
        input_address: B.a,
        output_address: B.client,
        amount: 8,
      });
      await h.engine.drain();
      const risks = await h.acme.getTransferRisks(attempt.id);
      expect(risks.some((r) => r.entity_category === "sanctions" && r.risk_type.startsWith("attempt_"))).toBe(
        true,
      );
      await h.acme.bindTransaction(attempt.id, { tx_hash: BTX.deposit });
      await h.engine.drain();
      // The registered input address is one of the inputs: kept.
      expect(await h.acme.getTransfer(attempt.id)).toMatchObject({
        tx_status: "bound",
        amount: 8,
        input_address: B.a,
      });
    });
  });
}
