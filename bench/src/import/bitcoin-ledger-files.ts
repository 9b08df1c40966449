/**
 * A generated Bitcoin ledger written in the three formats `openkyt import ledger` reads: blocks
 * of transactions with realistic shapes (a coinbase, payments with change, consolidations of
 * 3-8 inputs, peel-chain hops, exchange hot-wallet batches of 10 outputs), serialized as raw
 * blocks with Bitcoin Core's undo records (blk/rev), as `getblock <hash> 3` answers and as
 * Esplora objects. Seeded: the same arguments give the same files.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { addressOfScript, bitcoinParams, undoChecksum } from "@openkyt/chain-bitcoin";

const PARAMS = bitcoinParams("BTC");
const FEE = 1_000;

/** mulberry32: a small seeded generator. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const dsha = (b: Uint8Array) => createHash("sha256").update(createHash("sha256").update(b).digest()).digest();

class Writer {
  private parts: number[] = [];
  u8(n: number) {
    this.parts.push(n & 0xff);
  }
  u32(n: number) {
    for (let i = 0; i < 4; i++) this.u8(Math.floor(n / 2 ** (8 * i)));
  }
  u64(n: number) {
    let v = BigInt(n);
    for (let i = 0; i < 8; i++) {
      this.u8(Number(v & 0xffn));
      v >>= 8n;
    }
  }
  compact(n: number) {
    if (n < 0xfd) this.u8(n);
    else {
      this.u8(0xfd);
      this.u8(n);
      this.u8(n >> 8);
    }
  }
  bytes(b: Uint8Array | ReadonlyArray<number>) {
    for (const x of b) this.parts.push(x);
  }
  varBytes(b: Uint8Array) {
    this.compact(b.length);
    this.bytes(b);
  }
  /** Bitcoin Core's VARINT. */
  coreVarInt(value: number) {
    const out: number[] = [];
    let n = BigInt(value);
    let len = 0;
    for (;;) {
      out.push(Number(n & 0x7fn) | (len ? 0x80 : 0));
      if (n <= 0x7fn) break;
      n = (n >> 7n) - 1n;
      len++;
    }
    this.bytes(out.reverse());
  }
  done(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

/** Core's CompressAmount. */
function compressAmount(value: number): number {
  if (value === 0) return 0;
  let n = BigInt(value);
  let e = 0n;
  while (n % 10n === 0n && e < 9n) {
    n /= 10n;
    e++;
  }
  if (e < 9n) {
    const d = n % 10n;
    n /= 10n;
    return Number(1n + (n * 9n + d - 1n) * 10n + e);
  }
  return Number(1n + (n - 1n) * 10n + 9n);
}

interface Coin {
  readonly txid: string;
  readonly vout: number;
  readonly value: number;
  readonly script: Uint8Array;
  readonly height: number;
}

interface GenTx {
  readonly txid: string;
  readonly inputs: ReadonlyArray<Coin>;
  readonly outputs: ReadonlyArray<{ value: number; script: Uint8Array }>;
  readonly raw: Uint8Array;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const reversedHex = (b: Uint8Array) => Buffer.from(b).reverse().toString("hex");
const btc = (sats: number) => `${Math.floor(sats / 1e8)}.${String(sats % 1e8).padStart(8, "0")}`;

/** What {@link writeBitcoinLedger} wrote. */
export interface BitcoinLedgerFiles {
  readonly transactions: number;
  readonly blocks: number;
  readonly blk: string;
  readonly core: string;
  readonly esplora: string;
}

/** Writes about `transactions` transactions in blocks of `perBlock` into `dir`, in the three formats. */
export function writeBitcoinLedger(
  dir: string,
  transactions: number,
  perBlock = 2_000,
  seed = 7,
): BitcoinLedgerFiles {
  const rnd = random(seed);
  const pick = <T>(xs: ReadonlyArray<T>) => xs[Math.floor(rnd() * xs.length)] as T;
  const script = (): Uint8Array => {
    const hash = Uint8Array.from({ length: 20 }, () => Math.floor(rnd() * 256));
    return rnd() < 0.7
      ? Uint8Array.of(0x00, 20, ...hash)
      : Uint8Array.of(0x76, 0xa9, 20, ...hash, 0x88, 0xac);
  };
  // Insertion-ordered, so the coins come out as an array's would, but removed in O(1).
  const pool = new Set<Coin>();
  const blk: Uint8Array[] = [];
  const rev: Uint8Array[] = [];
  const coreLines: string[] = [];
  const esploraLines: string[] = [];
  let prevHash = new Uint8Array(32);
  let made = 0;
  let height = 0;
  const time0 = 1_700_000_000;
  const addr = (s: Uint8Array) => addressOfScript(s, PARAMS);
  while (made < transactions) {
    height++;
    const txs: GenTx[] = [];
    const fees: number[] = [];
    const spendable = [...pool].filter((c) => c.height < height);
    const budget = Math.min(perBlock - 1, transactions - made - 1);
    const serialize = (inputs: Coin[] | null, outputs: Array<{ value: number; script: Uint8Array }>) => {
      const w = new Writer();
      w.u32(2);
      if (inputs === null) {
        w.compact(1);
        w.bytes(new Uint8Array(32));
        w.u32(0xffffffff);
        w.varBytes(Uint8Array.of(3, height & 0xff, (height >> 8) & 0xff, (height >> 16) & 0xff));
        w.u32(0xffffffff);
      } else {
        w.compact(inputs.length);
        for (const c of inputs) {
          w.bytes(Buffer.from(c.txid, "hex").reverse());
          w.u32(c.vout);
          w.varBytes(Uint8Array.from({ length: 107 }, () => Math.floor(rnd() * 256)));
          w.u32(0xfffffffd);
        }
      }
      w.compact(outputs.length);
      for (const o of outputs) {
        w.u64(o.value);
        w.varBytes(o.script);
      }
      w.u32(0);
      return w.done();
    };
    for (let i = 0; i < budget && spendable.length > 0; i++) {
      const shape = rnd();
      const count = shape < 0.15 ? 3 + Math.floor(rnd() * 6) : shape < 0.6 ? 1 + Math.floor(rnd() * 2) : 1;
      const inputs: Coin[] = [];
      while (inputs.length < count && spendable.length > 0) {
        const c = spendable.splice(Math.floor(rnd() * spendable.length), 1)[0] as Coin;
        pool.delete(c);
        inputs.push(c);
      }
      const total = inputs.reduce((s, c) => s + c.value, 0) - FEE;
      if (total <= 10_000) continue;
      let outputs: Array<{ value: number; script: Uint8Array }>;
      if (shape < 0.15)
        outputs = [{ value: total, script: script() }]; // consolidation
      else if (shape < 0.9) {
        // payment with change, or a peel-chain hop (a small part off, the rest to fresh change)
        const part = Math.max(1, Math.floor(total * (shape < 0.6 ? rnd() * 0.8 : rnd() * 0.05)));
        outputs = [
          { value: part, script: script() },
          { value: total - part, script: script() },
        ];
      } else {
        const each = Math.floor(total / 11);
        outputs = Array.from({ length: 10 }, () => ({ value: each, script: script() }));
        outputs.push({ value: total - each * 10, script: pick([script(), inputs[0]?.script ?? script()]) });
      }
      const raw = serialize(inputs, outputs);
      txs.push({ txid: reversedHex(dsha(raw)), inputs, outputs, raw });
      fees.push(FEE);
    }
    const reward = 50 * 1e8 + fees.reduce((a, b) => a + b, 0);
    const cbOut = [{ value: reward, script: script() }];
    const cbRaw = serialize(null, cbOut);
    txs.unshift({ txid: reversedHex(dsha(cbRaw)), inputs: [], outputs: cbOut, raw: cbRaw });
    // The block: header, then its transactions.
    const time = time0 + height * 600;
    const header = new Writer();
    header.u32(0x20000000);
    header.bytes(prevHash);
    header.bytes(dsha(Uint8Array.from(txs.flatMap((t) => [...Buffer.from(t.txid, "hex").reverse()]))));
    header.u32(time);
    header.u32(0x207fffff);
    header.u32(height);
    const head = header.done();
    const body = new Writer();
    body.bytes(head);
    body.compact(txs.length);
    for (const t of txs) body.bytes(t.raw);
    const block = body.done();
    const frame = (payload: Uint8Array) => {
      const w = new Writer();
      w.bytes([0xf9, 0xbe, 0xb4, 0xd9]);
      w.u32(payload.length);
      w.bytes(payload);
      return w.done();
    };
    blk.push(frame(block));
    const undo = new Writer();
    undo.compact(txs.length - 1);
    for (const t of txs.slice(1)) {
      undo.compact(t.inputs.length);
      for (const c of t.inputs) {
        undo.coreVarInt(c.height * 2);
        undo.coreVarInt(0);
        undo.coreVarInt(compressAmount(c.value));
        undo.coreVarInt(c.script.length + 6);
        undo.bytes(c.script);
      }
    }
    const undoBytes = undo.done();
    const prevHex = reversedHex(prevHash);
    rev.push(frame(undoBytes), Buffer.from(undoChecksum(prevHex, undoBytes), "hex"));
    const hash = reversedHex(dsha(head));
    // The same block as Bitcoin Core's getblock 3 answer and as Esplora objects.
    const status = { confirmed: true, block_height: height, block_hash: hash, block_time: time };
    const coreTx = txs.map((t, p) => ({
      txid: t.txid,
      vin:
        p === 0
          ? [{ coinbase: "03", sequence: 4294967295 }]
          : t.inputs.map((c) => ({
              txid: c.txid,
              vout: c.vout,
              prevout: {
                value: `@${btc(c.value)}@`,
                scriptPubKey: { hex: hex(c.script), address: addr(c.script) },
              },
            })),
      vout: t.outputs.map((o, n) => ({
        value: `@${btc(o.value)}@`,
        n,
        scriptPubKey: { hex: hex(o.script), address: addr(o.script) },
      })),
    }));
    coreLines.push(
      JSON.stringify({ hash, height, time, nTx: txs.length, tx: coreTx }).replace(/"@([0-9.]+)@"/g, "$1"),
    );
    for (const [p, t] of txs.entries()) {
      esploraLines.push(
        JSON.stringify({
          txid: t.txid,
          vin:
            p === 0
              ? [{ is_coinbase: true, prevout: null }]
              : t.inputs.map((c) => ({
                  txid: c.txid,
                  vout: c.vout,
                  is_coinbase: false,
                  prevout: {
                    scriptpubkey: hex(c.script),
                    scriptpubkey_address: addr(c.script),
                    value: c.value,
                  },
                })),
          vout: t.outputs.map((o) => ({
            scriptpubkey: hex(o.script),
            scriptpubkey_address: addr(o.script),
            value: o.value,
          })),
          status,
        }),
      );
    }
    for (const t of txs) {
      for (const [vout, o] of t.outputs.entries())
        pool.add({ txid: t.txid, vout, value: o.value, script: o.script, height });
    }
    prevHash = dsha(head);
    made += txs.length;
  }
  const files = {
    blk: join(dir, "blk00000.dat"),
    core: join(dir, "blocks-core.jsonl"),
    esplora: join(dir, "txs-esplora.jsonl"),
  };
  writeFileSync(files.blk, Buffer.concat(blk));
  writeFileSync(join(dir, "rev00000.dat"), Buffer.concat(rev));
  writeFileSync(files.core, `${coreLines.join("\n")}\n`);
  writeFileSync(files.esplora, `${esploraLines.join("\n")}\n`);
  return { transactions: made, blocks: height, ...files };
}
