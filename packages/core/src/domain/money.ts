/**
 * The one rounding rule of fiat values: to cents, half away from zero, as the decimal a person
 * reads. A binary double cannot hold most decimals exactly (1.005 is stored as
 * 1.00499999999999989...), so the value is nudged by a relative epsilon before rounding: a
 * decimal that ends in exactly 5 at the third place rounds away from zero, and a value already
 * in cents stays as it is.
 */

/** `value` rounded to cents, half away from zero (1.005 -> 1.01, -2.345 -> -2.35); -0 becomes 0. */
export function roundCents(value: number): number {
  const cents = Math.round(Math.abs(value) * 100 * (1 + Number.EPSILON));
  return cents === 0 ? 0 : (Math.sign(value) * cents) / 100;
}
