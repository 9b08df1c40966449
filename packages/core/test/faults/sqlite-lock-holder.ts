/**
 * Holds SQLite's write lock on a database file from another process, as another writer would:
 * on "lock MS" it begins an IMMEDIATE transaction, prints "locked", and commits (releasing the
 * lock) MS milliseconds later, printing "released". Usage: sqlite-lock-holder.ts FILE
 */
import { createRequire } from "node:module";
import { createInterface } from "node:readline";

interface Sqlite {
  exec(sql: string): void;
  pragma(sql: string): unknown;
}

// better-sqlite3 is a dependency of the SQLite store, not of core: load it from there.
const load = createRequire(new URL("../../../store-sqlite/package.json", import.meta.url));
const Database = load("better-sqlite3") as new (file: string) => Sqlite;

const db = new Database(process.argv[2] ?? "");
db.pragma("busy_timeout = 10000");
console.log("ready");
for await (const line of createInterface({ input: process.stdin })) {
  const [command, ms] = line.split(" ");
  if (command !== "lock") continue;
  db.exec("BEGIN IMMEDIATE");
  console.log("locked");
  setTimeout(() => {
    db.exec("COMMIT");
    console.log("released");
  }, Number(ms));
}
