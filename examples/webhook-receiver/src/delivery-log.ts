/**
 * What the receiver has handled, kept on disk so that a restart still knows: one event id per
 * line, appended (and flushed to disk) once the event was handled. Loaded whole at start; a
 * receiver that handles millions of events would keep this in its database instead.
 */
import { appendFile, open, readFile } from "node:fs/promises";

/** The ids of handled events, backed by a file. */
export interface DeliveryLog {
  /** True when the event with this id was handled (in this process or before a restart). */
  has(eventId: string): boolean;
  /** Records a handled event: on disk (fsync) before it resolves. */
  add(eventId: string): Promise<void>;
  readonly size: number;
}

/** Opens the log at `file`, creating it when absent. */
export async function openDeliveryLog(file: string): Promise<DeliveryLog> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  const ids = new Set(text.split("\n").filter((line) => line.length > 0));
  return {
    has: (eventId) => ids.has(eventId),
    async add(eventId) {
      if (ids.has(eventId)) return;
      await appendFile(file, `${eventId}\n`);
      const handle = await open(file, "r");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      ids.add(eventId);
    },
    get size() {
      return ids.size;
    },
  };
}
