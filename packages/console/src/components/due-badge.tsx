/** An alert's SLA: "breached" in a badge, or the time left until it is due. */
import { when } from "./format.js";

/** The due time and breach of a queue item. */
export function DueBadge({ due, breached, done }: { due: string | null; breached: boolean; done: boolean }) {
  if (breached) return <span class="badge breached">SLA breached</span>;
  if (due === null || done) return <span class="sub">–</span>;
  return <span class="sub">due {when(due)}</span>;
}
