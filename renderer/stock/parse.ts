/**
 * What a person typed into a stock cell (or a CSV cell): a bare number is a count ("there are 40
 * on the shelf"), a signed number is an adjustment ("+12 received", "-3 damaged"). Spaces around
 * and thousands separators are allowed ("1.200", "1,200", "1 200"); decimals are not.
 */
export const MAX_QUANTITY = 1_000_000;

export type Edit = { kind: 'count'; quantity: number } | { kind: 'adjust'; delta: number } | { kind: 'error'; reason: 'empty' | 'bad' | 'zero' | 'range' };

const NUMBER = /^(\d{1,3}(?:([.,\s\u00a0\u202f])\d{3})(?:\2\d{3})*|\d+)$/;

function digits(text: string): number | null {
  const m = NUMBER.exec(text);
  if (!m) return null;
  const n = Number(text.replace(/[.,\s\u00a0\u202f]/g, ''));
  return Number.isSafeInteger(n) ? n : null;
}

export function parseEdit(input: string): Edit {
  const text = input.trim().replace(/^([+\-\u2212])\s+/, '$1');
  if (text === '') return { kind: 'error', reason: 'empty' };
  const sign = text[0];
  if (sign === '+' || sign === '-' || sign === '\u2212') {
    const n = digits(text.slice(1));
    if (n === null) return { kind: 'error', reason: 'bad' };
    if (n === 0) return { kind: 'error', reason: 'zero' };
    if (n > MAX_QUANTITY) return { kind: 'error', reason: 'range' };
    return { kind: 'adjust', delta: sign === '+' ? n : -n };
  }
  const n = digits(text);
  if (n === null) return { kind: 'error', reason: 'bad' };
  if (n > MAX_QUANTITY) return { kind: 'error', reason: 'range' };
  return { kind: 'count', quantity: n };
}

/** The quantity a cell shows after the edit (adjustments apply to what it shows now). */
export function afterEdit(shown: number, edit: Extract<Edit, { kind: 'count' | 'adjust' }>): number {
  return edit.kind === 'count' ? edit.quantity : shown + edit.delta;
}

/** A key that starts editing a cell with that character (digits and signs), or null. */
export function startsEdit(key: string): boolean {
  return /^[0-9+-]$/.test(key);
}

/**
 * A typed count above this asks to confirm first (issue 27): far above what the cell holds, as a
 * barcode typed into it by a slow scanner would be (30 → 123,457).
 */
export function jumpLimit(shown: number): number {
  return Math.max(1000, 10 * shown);
}
