/**
 * The least CPU an exact trace can spend per row it must present, to bound what any tracer
 * could reach on the real-shaped ledger: per row, its part of the node's weight
 * (`weight * (amount / sum)`), the check of its sender against the labels (a byte per address
 * number), then per hop the credited children sorted heaviest first (as the tally credits them:
 * the order of the float sums) and one float add per credited child into its category's sum. No
 * objects, no strings, no merge by address, no paths: columns of numbers only, in one function
 * V8 optimises, so this is a floor, not a design. Half the senders are labelled; prints ns per credited (labelled) row and per row read, by hop size.
 *
 *   node --conditions=source --import tsx bench/src/shape/row-floor.ts [rows=2000000]
 */
const total = Number(process.argv[2] ?? 2_000_000);
const ADDRESSES = 1 << 18;
/** Category per address number: -1 none, else one of 16 (a labelled sender, as on the real-shaped ledger). */
const category = new Int8Array(ADDRESSES).fill(-1);
let seed = 7;
const rnd = () => {
  seed = (seed * 1_103_515_245 + 12_345) >>> 0;
  return seed / 2 ** 32;
};
for (let i = 0; i < ADDRESSES; i++) if (rnd() < 0.5) category[i] = Math.floor(rnd() * 16);
const amount = new Float64Array(total);
const sender = new Int32Array(total);
for (let i = 0; i < total; i++) {
  amount[i] = Math.exp(6.6 + 2.9 * (rnd() + rnd() + rnd() - 1.5));
  sender[i] = Math.floor(rnd() * ADDRESSES);
}

let credited = 0;

/** One pass over `total` rows in hops of `hop` rows; returns a checksum so nothing is dead code. */
function run(hop: number): number {
  const part = new Float64Array(hop);
  const order = new Uint32Array(hop);
  const sums = new Float64Array(16);
  let check = 0;
  credited = 0;
  for (let start = 0; start + hop <= total; start += hop) {
    let sum = 0;
    for (let i = 0; i < hop; i++) sum += amount[start + i] as number;
    const weight = 0.37;
    let n = 0;
    for (let i = 0; i < hop; i++) {
      const c = category[sender[start + i] as number] as number;
      if (c < 0) continue;
      part[n] = weight * ((amount[start + i] as number) / sum);
      order[n] = start + i;
      n++;
    }
    credited += n;
    // Heaviest first: sort the row numbers by part (a typed-array index sort).
    const idx = Array.from(order.subarray(0, n).keys());
    idx.sort((x, y) => (part[y] as number) - (part[x] as number));
    for (const k of idx) {
      const c = category[sender[order[k] as number] as number] as number;
      sums[c] = (sums[c] as number) + (part[k] as number);
    }
    for (let c = 0; c < 16; c++) check += sums[c] as number;
  }
  return check;
}

/**
 * The same sums with the sort done per category on typed arrays (no comparator): within a
 * category the adds happen heaviest first as above, and equal parts add the same value in any
 * order, so every category's sum is the same float.
 */
function runByCategory(hop: number): number {
  const parts = Array.from({ length: 16 }, () => new Float64Array(hop));
  const counts = new Int32Array(16);
  const sums = new Float64Array(16);
  let check = 0;
  credited = 0;
  for (let start = 0; start + hop <= total; start += hop) {
    let sum = 0;
    for (let i = 0; i < hop; i++) sum += amount[start + i] as number;
    const weight = 0.37;
    counts.fill(0);
    for (let i = 0; i < hop; i++) {
      const c = category[sender[start + i] as number] as number;
      if (c < 0) continue;
      const list = parts[c] as Float64Array;
      list[counts[c] as number] = weight * ((amount[start + i] as number) / sum);
      counts[c] = (counts[c] as number) + 1;
      credited++;
    }
    for (let c = 0; c < 16; c++) {
      const n = counts[c] as number;
      if (n === 0) continue;
      const sorted = (parts[c] as Float64Array).subarray(0, n).sort();
      let s = sums[c] as number;
      for (let k = n - 1; k >= 0; k--) s += sorted[k] as number;
      sums[c] = s;
    }
    for (let c = 0; c < 16; c++) check += sums[c] as number;
  }
  return check;
}

for (const [name, pass] of [
  ["one sort, comparator", run],
  ["typed sort per category", runByCategory],
] as const)
  for (const hop of [64, 256, 1024, 4096]) {
    pass(hop); // warm-up
    const cpu0 = process.cpuUsage();
    let check = 0;
    let rows = 0;
    for (let r = 0; r < 3; r++) {
      check += pass(hop);
      rows += credited;
    }
    const cpu = process.cpuUsage(cpu0);
    const ns = ((cpu.user + cpu.system) * 1000) / rows;
    console.log(
      `${name}, hop of ${hop} rows: ${ns.toFixed(1)} ns CPU per credited row, ${(((cpu.user + cpu.system) * 1000) / (3 * total)).toFixed(1)} ns per row read (checksum ${check.toExponential(3)})`,
    );
  }
