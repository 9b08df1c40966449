/**
 * Common-input groups joined in memory before one write: a bulk import gathers the groups of
 * every transaction it loads and hands the store their components (`UtxoBulkWriter.finish`),
 * instead of merging the store's clusters once per batch.
 */

/**
 * The components of `groups` joined transitively (a union-find with path compression), each in
 * the order its addresses were first seen, the components in the order of their first address.
 */
export function addressComponents(groups: ReadonlyArray<ReadonlyArray<string>>): string[][] {
  const parent = new Map<string, string>();
  const find = (a: string): string => {
    let root = a;
    for (let up = parent.get(root); up !== undefined && up !== root; up = parent.get(root)) root = up;
    for (let x = a; x !== root; ) {
      const next = parent.get(x) as string;
      parent.set(x, root);
      x = next;
    }
    return root;
  };
  for (const group of groups) {
    for (const a of group) if (!parent.has(a)) parent.set(a, a);
    const first = group[0];
    if (first === undefined) continue;
    for (let i = 1; i < group.length; i++) {
      const ra = find(first);
      const rb = find(group[i] as string);
      if (ra !== rb) parent.set(rb, ra);
    }
  }
  const out = new Map<string, string[]>();
  for (const a of parent.keys()) {
    const root = find(a);
    let list = out.get(root);
    if (!list) {
      list = [];
      out.set(root, list);
    }
    list.push(a);
  }
  return [...out.values()];
}
