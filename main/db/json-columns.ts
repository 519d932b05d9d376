import { z } from 'zod';

/**
 * The JSON the database holds, as small schemas, and the one way to read it: `parseColumn`.
 * Every such value was written by the app itself (JSON.stringify of a checked value, or SQLite's
 * json functions), so one that does not parse, or parses to another shape, means the database
 * file was damaged or edited by hand: a plain Error naming the table and column, never a
 * ServiceError (nothing the person asked for was wrong).
 *
 * The schemas stay cheap (arrays of strings, arrays of numbers): some are read once per row.
 */

/** A JSON array of strings: users.tags, stores.tags, brand_users.tags, items.channels, applications.redirect_uris. */
export const stringListColumn = z.array(z.string());

/** A JSON object whose members the app passes through as stored: stores.location. */
export const jsonObjectColumn = z.record(z.string(), z.unknown());

/** Any JSON value the app passes through as stored: brands.return_policy. */
export const anyJsonColumn = z.unknown();

/**
 * A JSON array of numbers: a pack's message seqs in a reader's order (json_group_array of
 * messages.seq). Not `.int()`: zod checks it element by element, seven times the cost of the
 * array itself for a pack of 10,000 messages; a seq is an INTEGER column.
 */
export const numberListColumn = z.array(z.number());

/** A stored JSON value that is not what the app writes there: the database file is damaged. */
export class CorruptedColumnError extends Error {
  constructor(
    /** Where the value was read, as `table.column` (and what read it, when it is a computed column). */
    readonly column: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`Corrupted database: ${column} ${detail}`, options);
    this.name = 'CorruptedColumnError';
  }
}

/** At most this much of a problem is put into the message (a damaged value may be long). */
const DETAIL_MAX = 300;
const clip = (s: string) => (s.length > DETAIL_MAX ? `${s.slice(0, DETAIL_MAX)}…` : s);

/**
 * The JSON `text` read from the database, checked by `schema`. `what` names where it was read,
 * `table.column` (e.g. 'users.tags'). Throws CorruptedColumnError when the text is not JSON or not
 * of the schema's shape; the message names `what` and the problem, not the stored text.
 */
export function parseColumn<S extends z.ZodType>(schema: S, text: string, what: string): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CorruptedColumnError(what, `does not hold JSON (${clip(e instanceof Error ? e.message : String(e))})`, { cause: e });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new CorruptedColumnError(what, `does not hold what the app writes there: ${clip(z.prettifyError(parsed.error))}`);
  return parsed.data;
}
