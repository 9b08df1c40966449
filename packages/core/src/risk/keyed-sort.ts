/**
 * Sorting items by two precomputed integer keys, stably: the order fired risks are listed in,
 * without calling a comparator on their fields. Array.prototype.sort is stable too, but an index
 * sort through it made rule evaluation about twice as slow (docs/benchmarks.md, rule matching):
 * the lists here hold a few items, where an insertion sort over the key arrays wins.
 */

/** Past this many items, an index sort replaces insertion sort. */
const INSERTION_LIMIT = 24;

/**
 * Sorts `items` in place by `firsts`, then `seconds` (both ascending, `firsts[i]` and
 * `seconds[i]` being the keys of `items[i]`); items with equal keys keep their order. The key
 * arrays are reordered with the items. Returns `items`.
 */
export function sortByKeys<T>(items: T[], firsts: number[], seconds: number[]): T[] {
  const n = items.length;
  if (n <= INSERTION_LIMIT) {
    for (let i = 1; i < n; i += 1) {
      const item = items[i]!;
      const first = firsts[i]!;
      const second = seconds[i]!;
      let j = i - 1;
      while (j >= 0 && (firsts[j]! > first || (firsts[j] === first && seconds[j]! > second))) {
        items[j + 1] = items[j]!;
        firsts[j + 1] = firsts[j]!;
        seconds[j + 1] = seconds[j]!;
        j -= 1;
      }
      items[j + 1] = item;
      firsts[j + 1] = first;
      seconds[j + 1] = second;
    }
    return items;
  }
  const positions = Array.from({ length: n }, (_, i) => i);
  positions.sort((a, b) => firsts[a]! - firsts[b]! || seconds[a]! - seconds[b]! || a - b);
  const byPosition = [...items];
  const firstsBefore = [...firsts];
  const secondsBefore = [...seconds];
  positions.forEach((from, to) => {
    items[to] = byPosition[from]!;
    firsts[to] = firstsBefore[from]!;
    seconds[to] = secondsBefore[from]!;
  });
  return items;
}
