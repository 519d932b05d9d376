import { badRequest } from '../errors.js';
import { MAX_QUANTITY } from './locations.js';

/**
 * A stock cell (a user product's location of one type, in one store) and the limits of an edit
 * of it, defined once for every path that edits stock: the outbox of a replica, and the embedded
 * service where it is the marketplace itself.
 */
export type { EditableType } from '../../../common/stock-vocabulary.js';

export { cellKey } from '../../../common/cells.js';

export function checkDelta(delta: unknown): number {
  if (typeof delta !== 'number' || !Number.isInteger(delta) || delta === 0 || Math.abs(delta) > MAX_QUANTITY) {
    throw badRequest(`An adjustment is a non-zero integer from -${MAX_QUANTITY} to ${MAX_QUANTITY}`);
  }
  return delta;
}

export function checkCount(quantity: unknown): number {
  if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 0 || quantity > MAX_QUANTITY) {
    throw badRequest(`A count is an integer from 0 to ${MAX_QUANTITY}`);
  }
  return quantity;
}

/**
 * A store's quantity after a transfer moves `units` out of it (`out`) or into it, or the refusal in
 * a transfer's words (never "the adjustment of -500": the person moved units, they adjusted nothing).
 */
export function transferred(shown: number, units: number, out: boolean): number {
  const after = shown + (out ? -units : units);
  if (after < 0) throw badRequest(`The transfer of ${units} would take the source store below 0 (it has ${shown})`);
  if (after > MAX_QUANTITY) throw badRequest(`The transfer of ${units} would take the destination store above ${MAX_QUANTITY} (it has ${shown})`);
  return after;
}

/** The quantity after an adjustment, or the refusal when it leaves 0..MAX_QUANTITY. */
export function adjusted(shown: number, delta: number): number {
  const after = shown + delta;
  if (after < 0 || after > MAX_QUANTITY) {
    throw badRequest(`The adjustment of ${delta} would take the stock ${after < 0 ? 'below 0' : `above ${MAX_QUANTITY}`} (it shows ${shown})`);
  }
  return after;
}
