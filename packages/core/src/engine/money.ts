/** Rounding of USD values. */

/** Rounds a USD value to cents. */
export function roundCents(value: number): number {
  return Math.round(value * 100) / 100;
}
