/**
 * Node JSON to UTXO transactions: Bitcoin Core's `getblock <hash> 3` and Esplora's transaction
 * objects. A recorded answer in each documented shape; then block 300,025 written as each
 * format's answer (values as Core prints them, decimal BTC with 8 decimals) must give exactly
 * the transactions the raw block and its undo give; then what is refused and why.
 */
import type { UtxoTransaction } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import {
  addressOfScript,
  bitcoinParams,
  decodeCoreBlock,
  esploraTransaction,
  hexOf,
  parseBlock,
  parseJsonKeepingNumbers,
  parsePlainUndo,
  utxoTransactionsOfBlock,
} from "../src/index.js";
import { block300025 } from "./fixture-blocks.js";

const main = bitcoinParams("BTC");
const P2WPKH = "0014751e76e8199196d454941c45d1b3a323f1433bd6";
const P2WPKH_ADDRESS = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const P2PKH = "76a914751e76e8199196d454941c45d1b3a323f1433bd688ac";
const PUBKEY = "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";
const H = (c: string) => c.repeat(64);

/** A `getblock <hash> 3` answer of Bitcoin Core 27, as its RPC help documents the fields. */
const RECORDED_CORE = `{"hash":"${H("b")}","confirmations":3,"height":812345,"version":536870912,"versionHex":"20000000",
"merkleroot":"${H("c")}","time":1697000000,"mediantime":1696999000,"nonce":1,"bits":"17053894","difficulty":57119871304635.31,
"chainwork":"${H("0")}","nTx":2,"previousblockhash":"${H("d")}","strippedsize":300,"size":400,"weight":1300,
"tx":[{"txid":"${H("1")}","hash":"${H("1")}","version":2,"size":100,"vsize":100,"weight":400,"locktime":0,
"vin":[{"coinbase":"03b9650c","txinwitness":["${H("0")}"],"sequence":4294967295}],
"vout":[{"value":6.25012345,"n":0,"scriptPubKey":{"asm":"0 751e76e8199196d454941c45d1b3a323f1433bd6","desc":"addr(${P2WPKH_ADDRESS})#xxxx","hex":"${P2WPKH}","address":"${P2WPKH_ADDRESS}","type":"witness_v0_keyhash"}},
{"value":0.00000000,"n":1,"scriptPubKey":{"asm":"OP_RETURN aa21a9ed","desc":"raw(6a04aa21a9ed)#yyyy","hex":"6a04aa21a9ed","type":"nulldata"}}],"hex":"00"},
{"txid":"${H("2")}","hash":"${H("2")}","version":2,"size":200,"vsize":150,"weight":600,"locktime":0,
"vin":[{"txid":"${H("3")}","vout":1,"scriptSig":{"asm":"","hex":""},"txinwitness":["30","02"],
"prevout":{"generated":false,"height":812000,"value":0.1,"scriptPubKey":{"asm":"0 751e","desc":"addr(${P2WPKH_ADDRESS})","hex":"${P2WPKH}","address":"${P2WPKH_ADDRESS}","type":"witness_v0_keyhash"}},"sequence":4294967293},
{"txid":"${H("4")}","vout":0,"scriptSig":{"asm":"","hex":""},
"prevout":{"generated":true,"height":100,"value":50.00000000,"scriptPubKey":{"asm":"${PUBKEY} OP_CHECKSIG","desc":"pk(${PUBKEY})","hex":"21${PUBKEY}ac","type":"pubkey"}},"sequence":4294967295}],
"vout":[{"value":50.09990000,"n":0,"scriptPubKey":{"asm":"OP_DUP","hex":"${P2PKH}","addresses":["1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH"],"type":"pubkeyhash"}}],
"fee":0.00010000,"hex":"00"}]}`;

/** An Esplora transaction object (GET /tx/:txid), fields as its API documents them. */
const RECORDED_ESPLORA = `{"txid":"${H("2")}","version":2,"locktime":0,"size":200,"weight":600,"fee":10000,
"vin":[{"txid":"${H("3")}","vout":1,"prevout":{"scriptpubkey":"${P2WPKH}","scriptpubkey_asm":"OP_0 OP_PUSHBYTES_20 751e","scriptpubkey_type":"v0_p2wpkh","scriptpubkey_address":"${P2WPKH_ADDRESS}","value":10000000},"scriptsig":"","scriptsig_asm":"","witness":["30","02"],"is_coinbase":false,"sequence":4294967293},
{"txid":"${H("4")}","vout":0,"prevout":{"scriptpubkey":"21${PUBKEY}ac","scriptpubkey_asm":"OP_PUSHBYTES_33 ${PUBKEY} OP_CHECKSIG","scriptpubkey_type":"p2pk","value":5000000000},"scriptsig":"","scriptsig_asm":"","is_coinbase":false,"sequence":4294967295}],
"vout":[{"scriptpubkey":"${P2PKH}","scriptpubkey_asm":"OP_DUP","scriptpubkey_type":"p2pkh","scriptpubkey_address":"1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH","value":5009990000}],
"status":{"confirmed":true,"block_height":812345,"block_hash":"${H("b")}","block_time":1697000000}}`;

const P2PK_AS_P2PKH = addressOfScript(Uint8Array.from(Buffer.from(`21${PUBKEY}ac`, "hex")), main);

describe("recorded answers", () => {
  it("reads Core's getblock 3: amounts exact, a P2PK prevout by its key's P2PKH address, OP_RETURN with none", () => {
    const block = decodeCoreBlock(parseJsonKeepingNumbers(RECORDED_CORE.replaceAll("\n", "")), main);
    expect(block).toMatchObject({ hash: H("b"), height: 812_345 });
    const [coinbase, spend] = block.transactions.map((t) => ("tx" in t ? t.tx : null));
    expect(coinbase).toMatchObject({
      coinbase: true,
      position: 0,
      occurredAt: 1_697_000_000_000,
      outputs: [
        { vout: 0, address: P2WPKH_ADDRESS, value: 625_012_345, spentBy: null },
        { vout: 1, address: null, value: 0, spentBy: null },
      ],
    });
    expect(spend?.inputs).toEqual([
      { prevTxid: H("3"), prevVout: 1, address: P2WPKH_ADDRESS, value: 10_000_000, coinbase: false },
      { prevTxid: H("4"), prevVout: 0, address: P2PK_AS_P2PKH, value: 5_000_000_000, coinbase: false },
    ]);
    expect(spend?.outputs).toEqual([
      { vout: 0, address: "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH", value: 5_009_990_000, spentBy: null },
    ]);
  });

  it("reads the same transaction from Esplora's object", () => {
    const core = decodeCoreBlock(parseJsonKeepingNumbers(RECORDED_CORE.replaceAll("\n", "")), main)
      .transactions[1];
    const esplora = esploraTransaction(
      parseJsonKeepingNumbers(RECORDED_ESPLORA.replaceAll("\n", "")),
      1,
      main,
    );
    expect(core && "tx" in core ? core.tx : null).toEqual(esplora);
  });

  it("refuses an unknown prevout, a float amount and an unconfirmed Esplora transaction, naming the field", () => {
    const noPrevout = RECORDED_CORE.replaceAll("\n", "").replace(
      /"prevout":\{"generated":false.*?"type":"witness_v0_keyhash"\}\},/,
      "",
    );
    const [, bad] = decodeCoreBlock(parseJsonKeepingNumbers(noPrevout), main).transactions;
    expect(bad).toEqual({
      txid: H("2"),
      problem: `tx[1].vin[0] spends ${H("3")}:1, an unknown prevout (no "prevout": the answer of getblock <hash> 3 gives it)`,
    });
    const floats = decodeCoreBlock(JSON.parse(RECORDED_CORE.replaceAll("\n", "")), main).transactions[0];
    expect(floats).toMatchObject({
      problem: expect.stringMatching(/vout\[0\]\.value is not an amount .*a float/),
    });
    const tooPrecise = RECORDED_CORE.replaceAll("\n", "").replace("6.25012345", "6.250123451");
    expect(decodeCoreBlock(parseJsonKeepingNumbers(tooPrecise), main).transactions[0]).toMatchObject({
      problem: expect.stringMatching(
        /^tx\[0\]\.vout\[0\]\.value is not an amount in coins with at most 8 decimals/,
      ),
    });
    const pending = RECORDED_ESPLORA.replaceAll("\n", "").replace('"confirmed":true', '"confirmed":false');
    expect(() => esploraTransaction(parseJsonKeepingNumbers(pending), 0, main)).toThrow(
      /only mined transactions/,
    );
  });
});

/** Satoshis as Core prints BTC: whole coins, a point, 8 decimals. */
const btc = (sats: number) => `${Math.floor(sats / 1e8)}.${String(sats % 1e8).padStart(8, "0")}`;

describe("block 300,025 through each format", () => {
  const { block: bytes, undo } = block300025();
  const block = parseBlock(bytes);
  const spends = parsePlainUndo(undo, block);
  const reference: UtxoTransaction[] = utxoTransactionsOfBlock(block, spends, { params: main });
  const scripts = block.transactions.map((tx) => tx.outputs.map((o) => hexOf(o.script)));
  const spentScripts = spends.map((tx) => tx.map((c) => hexOf(c.script)));

  it("gives the raw block's transactions from a getblock 3 answer (scripts as hex only: decoded here)", () => {
    let spending = 0;
    const tx = reference.map((t, p) => ({
      txid: t.txid,
      vin: t.coinbase
        ? [{ coinbase: "03", sequence: 0 }]
        : t.inputs.map((i, k) => ({
            txid: i.prevTxid,
            vout: i.prevVout,
            prevout: { value: "@@", sats: i.value, scriptPubKey: { hex: spentScripts[spending]?.[k] } },
          })),
      vout: t.outputs.map((o, n) => ({
        value: "@@",
        sats: o.value,
        n,
        scriptPubKey: { hex: scripts[p]?.[n] },
      })),
      ...(t.coinbase ? {} : { _: spending++ }),
    }));
    const text = JSON.stringify({
      hash: block.header.hash,
      height: 300025,
      time: block.header.time,
      tx,
    }).replace(/"value":"@@","sats":(\d+)/g, (_, sats: string) => `"value":${btc(Number(sats))}`);
    const decoded = decodeCoreBlock(parseJsonKeepingNumbers(text), main);
    expect(decoded.transactions.map((t) => ("tx" in t ? t.tx : t))).toEqual(reference);
  });

  it("gives the raw block's transactions from Esplora objects", () => {
    const status = {
      confirmed: true,
      block_height: 300025,
      block_hash: block.header.hash,
      block_time: block.header.time,
    };
    let spending = 0;
    const decoded = reference.map((t, p) => {
      const k = t.coinbase ? -1 : spending++;
      const object = {
        txid: t.txid,
        vin: t.inputs.map((i, n) =>
          t.coinbase
            ? { is_coinbase: true, prevout: null }
            : {
                txid: i.prevTxid,
                vout: i.prevVout,
                is_coinbase: false,
                prevout: { scriptpubkey: spentScripts[k]?.[n], value: i.value },
              },
        ),
        vout: t.outputs.map((o, n) => ({ scriptpubkey: scripts[p]?.[n], value: o.value })),
        status,
      };
      return esploraTransaction(parseJsonKeepingNumbers(JSON.stringify(object)), p, main);
    });
    expect(decoded).toEqual(reference);
  });
});
