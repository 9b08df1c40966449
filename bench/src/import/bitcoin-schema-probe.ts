/**
 * What the UTXO schema costs a bulk load, phase by phase (issue 31 item 8: the arithmetic of
 * the 100,000 tx/s target): the generated ledger (`generateUtxoLedger`) bound into raw
 * better-sqlite3 tables as the store's bulk load binds them (multi-row inserts, one
 * transaction, indexes built after from one sort each), CPU per 1,000 transactions of the row
 * inserts, of each index build and of the commit. Variants, alternated in one run:
 *
 * - `cur64`: the schema of migrations 0030/0032 (txid text first in every key, `network` in
 *   every row), 64 rows a statement, as `sqlite-utxo-bulk-load.ts`; `cur256arr`: 256 rows a
 *   statement, parameters passed as one array; `cur64mm`, `cur64c64`, `cur64tm`: with
 *   `mmap_size` 4 GiB, a 64 MiB page cache, `temp_store = MEMORY`;
 * - `narrow64`/`narrow256`: a schema that is not built (no migration, no reads): outputs and
 *   inputs keyed by their transaction's rowid (WITHOUT ROWID, appended in key order, so no key
 *   index to build), txids as 32-byte blobs, `network` on the transaction row only;
 * - `narrowslim`: the schema as migration 0101 built it (as `narrow64`, but outputs without
 *   block and position, inputs without time), txids as 32-byte blobs; `narrowslimtext`: the
 *   same with txids as text, as migration 0101 keeps them; `narrowslimtextheap`: outputs and
 *   inputs as rowid tables with the key `(tx, vout|vin)` a unique index built at the end;
 *   `narrowslimtextenc`: outputs and inputs keyed by one integer, the rowid `tx * 2^20 +
 *   vout|vin` (no tx and vout columns, rowid appends).
 *
 *   node --conditions=source --import tsx src/import/bitcoin-schema-probe.ts [TXS] [variants] [rounds]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UtxoTransaction } from "@openkyt/core";
import { generateUtxoLedger } from "@openkyt/testkit";
import Database from "better-sqlite3";

const TXS = Number(process.argv[2] ?? 100000);
const variants = (process.argv[3] ?? "cur64,cur256,narrow").split(",");
const reps = Number(process.argv[4] ?? 1);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** The ledger, generated once and held: every variant binds the same transactions. */
const txs: UtxoTransaction[] = [...generateUtxoLedger({ transactions: TXS, seed: 11 })];
console.log(`generated ${TXS}`);

function binder(db: Database.Database, table: string, cols: string[], n: number, arrayArg: boolean) {
  const row = `(${cols.map(() => "?").join(",")})`;
  const many = db.prepare(`INSERT INTO ${table} (${cols.join(",")}) VALUES ${Array(n).fill(row).join(",")}`);
  const one = db.prepare(`INSERT INTO ${table} (${cols.join(",")}) VALUES ${row}`);
  const w = cols.length;
  const p: unknown[] = new Array(w * n);
  let k = 0;
  return {
    p,
    at: () => k * w,
    add() {
      if (++k === n) {
        k = 0;
        if (arrayArg) many.run(p);
        else many.run(...p);
      }
    },
    flush() {
      for (let r = 0; r < k; r++) one.run(p.slice(r * w, r * w + w));
      k = 0;
    },
  };
}

function run(kind: string) {
  const dir = mkdtempSync(join(tmpdir(), "btcimport-exp-"));
  const db = new Database(join(dir, "x.sqlite"));
  db.pragma("journal_mode = DELETE");
  db.pragma("synchronous = NORMAL");
  db.pragma(`cache_size = -${kind.includes("c64") ? 65536 : 8192}`);
  db.pragma("threads = 4");
  if (kind.includes("mm")) db.pragma("mmap_size = 4294967296");
  if (kind.includes("tm")) db.pragma("temp_store = MEMORY");
  const t: Record<string, number> = {};
  const wall0 = performance.now();
  const time = (name: string, f: () => void) => {
    const c = cpu();
    f();
    t[name] = (t[name] ?? 0) + cpu() - c;
  };
  const narrow = kind.startsWith("narrow");
  const n = kind.includes("256") ? 256 : 64;
  if (!narrow) {
    db.exec(`CREATE TABLE utxo_transactions (txid text not null, network text not null, block bigint, block_hash text, occurred_at bigint not null, position integer not null, coinbase integer not null);
CREATE TABLE utxo_outputs (txid text not null, network text not null, vout integer not null, address text, value bigint not null, occurred_at bigint not null, block bigint, position integer not null);
CREATE TABLE utxo_inputs (txid text not null, network text not null, vin integer not null, prev_txid text, prev_vout integer, address text, value bigint not null, coinbase integer not null, occurred_at bigint not null);`);
    db.exec("BEGIN");
    const T = binder(
      db,
      "utxo_transactions",
      ["txid", "network", "block", "block_hash", "occurred_at", "position", "coinbase"],
      n,
      kind.includes("arr"),
    );
    const O = binder(
      db,
      "utxo_outputs",
      ["txid", "network", "vout", "address", "value", "occurred_at", "block", "position"],
      n,
      kind.includes("arr"),
    );
    const I = binder(
      db,
      "utxo_inputs",
      ["txid", "network", "vin", "prev_txid", "prev_vout", "address", "value", "coinbase", "occurred_at"],
      n,
      kind.includes("arr"),
    );
    time("rows", () => {
      for (const tx of txs) {
        let a = T.at();
        let p = T.p;
        p[a] = tx.txid;
        p[a + 1] = tx.network;
        p[a + 2] = tx.block;
        p[a + 3] = tx.blockHash;
        p[a + 4] = tx.occurredAt;
        p[a + 5] = tx.position;
        p[a + 6] = tx.coinbase ? 1 : 0;
        T.add();
        for (const o of tx.outputs) {
          a = O.at();
          p = O.p;
          p[a] = tx.txid;
          p[a + 1] = tx.network;
          p[a + 2] = o.vout;
          p[a + 3] = o.address;
          p[a + 4] = o.value;
          p[a + 5] = tx.occurredAt;
          p[a + 6] = tx.block;
          p[a + 7] = tx.position;
          O.add();
        }
        tx.inputs.forEach((i, vin) => {
          a = I.at();
          p = I.p;
          p[a] = tx.txid;
          p[a + 1] = tx.network;
          p[a + 2] = vin;
          p[a + 3] = i.prevTxid;
          p[a + 4] = i.prevVout;
          p[a + 5] = i.address;
          p[a + 6] = i.value;
          p[a + 7] = i.coinbase ? 1 : 0;
          p[a + 8] = tx.occurredAt;
          I.add();
        });
      }
      T.flush();
      O.flush();
      I.flush();
    });
    const idx: Array<[string, string]> = [
      ["tx_key", "CREATE UNIQUE INDEX utxo_transactions_key ON utxo_transactions (txid, network)"],
      ["tx_block", "CREATE INDEX utxo_transactions_block ON utxo_transactions (network, block)"],
      ["out_key", "CREATE UNIQUE INDEX utxo_outputs_key ON utxo_outputs (txid, network, vout)"],
      ["out_addr", "CREATE INDEX utxo_outputs_address ON utxo_outputs (address, network, occurred_at)"],
      ["in_key", "CREATE UNIQUE INDEX utxo_inputs_key ON utxo_inputs (txid, network, vin)"],
      ["in_prev", "CREATE INDEX utxo_inputs_prevout ON utxo_inputs (prev_txid, network, prev_vout)"],
    ];
    for (const [name, sql] of idx) time(name, () => db.exec(sql));
  } else {
    // network kept on the tx row only; outputs/inputs keyed (tx rowid, vout|vin), txids as 32-byte blobs.
    const slim = kind.includes("slim");
    const hash: (hex: string) => Buffer | string = kind.includes("text")
      ? (hex) => hex
      : (hex) => Buffer.from(hex, "hex");
    const type = kind.includes("text") ? "text" : "blob";
    const heap = kind.includes("heap");
    const enc = kind.includes("enc");
    const keyed = (child: string, columns: string) =>
      enc
        ? `(key integer primary key, ${columns})`
        : heap
          ? `(tx integer not null, ${child} integer not null, ${columns})`
          : `(tx integer not null, ${child} integer not null, ${columns}, primary key (tx, ${child})) without rowid`;
    db.exec(`CREATE TABLE utxo_transactions (id integer primary key, txid ${type} not null, network text not null, block bigint, block_hash ${type}, occurred_at bigint not null, position integer not null, coinbase integer not null);
CREATE TABLE utxo_outputs ${keyed("vout", `address text, value bigint not null, occurred_at bigint not null${slim ? "" : ", block bigint, position integer not null"}`)};
CREATE TABLE utxo_inputs ${keyed("vin", `prev_txid ${type}, prev_vout integer, address text, value bigint not null, coinbase integer not null${slim ? "" : ", occurred_at bigint not null"}`)};`);
    db.exec("BEGIN");
    const T = binder(
      db,
      "utxo_transactions",
      ["id", "txid", "network", "block", "block_hash", "occurred_at", "position", "coinbase"],
      n,
      true,
    );
    const O = binder(
      db,
      "utxo_outputs",
      [
        ...(enc ? ["key"] : ["tx", "vout"]),
        "address",
        "value",
        "occurred_at",
        ...(slim ? [] : ["block", "position"]),
      ],
      n,
      true,
    );
    const I = binder(
      db,
      "utxo_inputs",
      [
        ...(enc ? ["key"] : ["tx", "vin"]),
        "prev_txid",
        "prev_vout",
        "address",
        "value",
        "coinbase",
        ...(slim ? [] : ["occurred_at"]),
      ],
      n,
      true,
    );
    let id = 0;
    const d = enc ? 0 : 1;
    time("rows", () => {
      for (const tx of txs) {
        id++;
        let a = T.at();
        let p = T.p;
        p[a] = id;
        p[a + 1] = hash(tx.txid);
        p[a + 2] = tx.network;
        p[a + 3] = tx.block;
        p[a + 4] = tx.blockHash === null ? null : hash(tx.blockHash);
        p[a + 5] = tx.occurredAt;
        p[a + 6] = tx.position;
        p[a + 7] = tx.coinbase ? 1 : 0;
        T.add();
        for (const o of tx.outputs) {
          a = O.at();
          p = O.p;
          p[a] = enc ? id * 1_048_576 + o.vout : id;
          if (!enc) p[a + 1] = o.vout;
          p[a + d + 1] = o.address;
          p[a + d + 2] = o.value;
          p[a + d + 3] = tx.occurredAt;
          if (!slim) {
            p[a + d + 4] = tx.block;
            p[a + d + 5] = tx.position;
          }
          O.add();
        }
        tx.inputs.forEach((i, vin) => {
          a = I.at();
          p = I.p;
          p[a] = enc ? id * 1_048_576 + vin : id;
          if (!enc) p[a + 1] = vin;
          p[a + d + 1] = i.prevTxid === null ? null : hash(i.prevTxid);
          p[a + d + 2] = i.prevVout;
          p[a + d + 3] = i.address;
          p[a + d + 4] = i.value;
          p[a + d + 5] = i.coinbase ? 1 : 0;
          if (!slim) p[a + d + 6] = tx.occurredAt;
          I.add();
        });
      }
      T.flush();
      O.flush();
      I.flush();
    });
    const idx: Array<[string, string]> = [
      ["tx_key", "CREATE UNIQUE INDEX utxo_transactions_key ON utxo_transactions (txid, network)"],
      ["tx_block", "CREATE INDEX utxo_transactions_block ON utxo_transactions (network, block)"],
      ["out_addr", "CREATE INDEX utxo_outputs_address ON utxo_outputs (address, occurred_at)"],
      ["in_prev", "CREATE INDEX utxo_inputs_prevout ON utxo_inputs (prev_txid, prev_vout)"],
    ];
    if (heap)
      idx.push(
        ["out_key", "CREATE UNIQUE INDEX utxo_outputs_key ON utxo_outputs (tx, vout)"],
        ["in_key", "CREATE UNIQUE INDEX utxo_inputs_key ON utxo_inputs (tx, vin)"],
      );
    for (const [name, sql] of idx) time(name, () => db.exec(sql));
  }
  time("commit", () => db.exec("COMMIT"));
  db.close();
  rmSync(dir, { recursive: true, force: true });
  const per = (ms: number) => (ms / (TXS / 1000)).toFixed(2);
  t.wall = performance.now() - wall0;
  const total = Object.entries(t).reduce((a, [k, b]) => a + (k === "wall" ? 0 : b), 0);
  console.log(
    `${kind.padEnd(10)} total ${per(total)} ms/1k tx | ${Object.entries(t)
      .map(([k, v]) => `${k} ${per(v)}`)
      .join(" | ")} | rss ${Math.round(process.memoryUsage().rss / 1048576)} MiB`,
  );
}
for (let r = 0; r < reps; r++) for (const v of variants) run(v);
