import { badRequest } from './errors.js';

/** `limit` and `offset` of the listing searches (items, orders). */
export interface Paging {
  limit: number;
  offset: number;
}

export const pagingErrors = {
  limitNotPositive: () => badRequest('The limit param must be greater than 0'),
  invalidLimit: (max: number) => badRequest('Invalid limit param', [{ code: 'invalid_limit', message: `limit is an integer from 1 to ${max}` }]),
  invalidOffset: () => badRequest('Invalid offset param'),
};

const single = (v: unknown): string | undefined | null => (v === undefined ? undefined : typeof v === 'string' ? v : null);

/**
 * Paging of a search, with the wording of SPEC 7.5: `limit` an integer 1..max (default `byDefault`;
 * 0 or negative: "The limit param must be greater than 0"; anything else: "Invalid limit param"),
 * `offset` an integer 0..999,999,999 ("Invalid offset param"). A repeated parameter is invalid.
 */
export function parsePaging(query: Record<string, unknown>, byDefault: number, max: number): Paging {
  const rawLimit = single(query.limit);
  let limit = byDefault;
  if (rawLimit !== undefined) {
    if (rawLimit === null || !/^[+-]?[0-9]{1,12}$/.test(rawLimit)) throw pagingErrors.invalidLimit(max);
    limit = Number(rawLimit);
    if (limit <= 0) throw pagingErrors.limitNotPositive();
    if (limit > max) throw pagingErrors.invalidLimit(max);
  }
  const rawOffset = single(query.offset);
  let offset = 0;
  if (rawOffset !== undefined) {
    if (rawOffset === null || !/^[0-9]{1,9}$/.test(rawOffset)) throw pagingErrors.invalidOffset();
    offset = Number(rawOffset);
  }
  return { limit, offset };
}

export function queryObject(query: unknown): Record<string, unknown> {
  return typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
}
