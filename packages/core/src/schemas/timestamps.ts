/**
 * The interface's two timestamp formats, from epoch milliseconds. Both carry microseconds
 * (always ...000 here, times being kept in milliseconds) and are in UTC.
 */

function isoMillis(ms: number): string {
  if (!Number.isFinite(ms)) throw new RangeError(`not a time: ${ms}`);
  return new Date(ms).toISOString();
}

/** `2024-04-18T14:17:25.309000+00:00`: registered_at, created_at, occurred_at, updated_at. */
export function formatOffsetTimestamp(ms: number): string {
  return `${isoMillis(ms).slice(0, -1)}000+00:00`;
}

/** `2024-04-18T14:17:25.309000Z`: check_state `*_checked_at` and manual check `checked_at`. */
export function formatUtcMicros(ms: number): string {
  return `${isoMillis(ms).slice(0, -1)}000Z`;
}

/** {@link formatOffsetTimestamp}, passing null through. */
export function formatOffsetTimestampOrNull(ms: number | null): string | null {
  return ms === null ? null : formatOffsetTimestamp(ms);
}

/** {@link formatUtcMicros}, passing null through. */
export function formatUtcMicrosOrNull(ms: number | null): string | null {
  return ms === null ? null : formatUtcMicros(ms);
}
