/**
 * The GS1 check digit of GTIN-8 (EAN-8), GTIN-12 (UPC-A), GTIN-13 (EAN-13) and GTIN-14: from the
 * right, leaving the check digit out, the digits are weighted 3, 1, 3, 1…; the check digit brings
 * the sum to a multiple of 10. A count typed into a cell that passes it is likely a slow scanner's
 * code, not a quantity (issue 27).
 */
export const GTIN_LENGTHS: readonly number[] = [8, 12, 13, 14];

/** The check digit the first digits of a GTIN need (digits only, without their check digit). */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether `text` (spaces around allowed) is a GTIN-8, -12, -13 or -14 with a valid check digit. */
export function isGtin(text: string): boolean {
  const code = text.trim();
  if (!/^\d+$/.test(code) || !GTIN_LENGTHS.includes(code.length)) return false;
  return gtinCheckDigit(code.slice(0, -1)) === code.charCodeAt(code.length - 1) - 48;
}
