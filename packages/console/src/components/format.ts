/** How values are written on screen. */

const money = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 2,
});

/** "$12,500.00", or an en dash when unknown. */
export function fiat(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : money.format(value);
}

/** "40.0%". */
export function share(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : `${(value * 100).toFixed(1)}%`;
}

/** "2026-11-02 10:00 UTC". */
export function when(iso: string | null | undefined): string {
  if (!iso) return "–";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "0x12ab…9f0e" for long hashes and addresses. */
export function short(text: string | null | undefined, keep = 8): string {
  if (!text) return "–";
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep + 2)}`;
}

/** "in_progress" -> "in progress". */
export function words(code: string | null | undefined): string {
  return code ? code.replaceAll("_", " ") : "–";
}

/** How long ago, in whole units: "3 h", "2 d". */
export function age(iso: string, now = Date.now()): string {
  const ms = now - new Date(iso).getTime();
  if (ms < 3_600_000) return `${Math.max(0, Math.round(ms / 60_000))} min`;
  if (ms < 86_400_000) return `${Math.round(ms / 3_600_000)} h`;
  return `${Math.round(ms / 86_400_000)} d`;
}
