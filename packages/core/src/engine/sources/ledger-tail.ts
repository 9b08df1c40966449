/**
 * Where the store's ledger ends now: its last scan position (`Store.scanLedger`) and its last
 * rewind (`Store.scanRewinds`). A copy that holds nothing of the past follows the store from
 * there (`hub-cached-ledger.ts`); `openkyt serve` and `worker` estimate the ledger's rows by it.
 */
import type { Store } from "../../ports/store.js";
import type { WarmStart } from "./warm-catch-up.js";

/**
 * The position of the store's last stored ledger row (0: none), found by a doubling then a
 * binary search of one-row reads (about two reads per bit of the position, each an index
 * lookup); null when the store cannot list its ledger in stored order.
 */
export async function lastLedgerPosition(store: Pick<Store, "scanLedger">): Promise<number | null> {
  const scan = store.scanLedger?.bind(store);
  if (!scan) return null;
  const beyond = async (position: number) => (await scan(position, 1)).rows.length > 0;
  if (!(await beyond(0))) return 0;
  // Invariant: a row lies beyond `low`, none beyond `high`.
  let low = 0;
  let high = 1;
  while (await beyond(high)) {
    low = high;
    high *= 2;
    if (high > Number.MAX_SAFE_INTEGER / 2) return high;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (await beyond(mid)) low = mid;
    else high = mid;
  }
  return high;
}

/**
 * The store's last ledger position and the number of its last rewind (0: none; rewinds are few,
 * read in pages of `pageSize`); null when the store cannot list its ledger in stored order.
 */
export async function ledgerTail(
  store: Pick<Store, "scanLedger" | "scanRewinds">,
  pageSize: number,
): Promise<WarmStart | null> {
  let rewound = 0;
  const scanRewinds = store.scanRewinds?.bind(store);
  if (scanRewinds) {
    for (;;) {
      const page = await scanRewinds(rewound, pageSize);
      const last = page[page.length - 1];
      if (last) rewound = last.id;
      if (page.length < pageSize) break;
    }
  }
  // Read after the rewinds: a rewind recorded in between is read again (and finds nothing held).
  const position = await lastLedgerPosition(store);
  return position === null ? null : { position, rewound };
}
