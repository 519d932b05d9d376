import Database from 'better-sqlite3';
import { foldForSearch } from '../../../common/search-fold.js';
import { type Db, nativeBinding, registerSearchFold } from '../open.js';

/** The tokenizer of messages_fts (migration 017): the tail's index cuts and folds words the same way. */
export const MESSAGE_TOKENIZER = 'unicode61 remove_diacritics 2';

/** What a seller can see in a pack: its own messages in any moderation status, the buyer's once clean. */
const VISIBLE = `(m.from_user_id = @seller OR (m.to_user_id = @seller AND m.moderation_status IN ('clean', 'non_moderated')))`;

/**
 * The words of a search as an FTS5 query: each word a quoted prefix ("envi" finds "envío"), all
 * of them required. Quotes inside a word are doubled, so nothing the person types is FTS syntax.
 * Null when there is no word to look for (only punctuation).
 */
export function ftsQuery(search: string): string | null {
  const words = search
    .normalize('NFC')
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((w) => w !== '')
    .slice(0, 16);
  if (words.length === 0) return null;
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}

/**
 * The inbox's search and filters over the service tables (issue 15 §2): which of the seller's
 * conversations (pack keys) match a search, and which hold an attachment. Message texts are found
 * through the full-text index of migration 017 (written in batches, 019), and only among messages
 * the seller can see.
 */
export function inboxSearchRepo(db: Db) {
  // messages_fts holds the messages up to the mark of migration 019; the few past it (the tail) are
  // matched in an index of their own, made for each search in the same snapshot: together, every
  // message, as one index of all of them would answer.
  const tailRows = db
    .prepare<[], [number, string]>('SELECT rowid, text FROM messages WHERE rowid > (SELECT indexed_rowid FROM message_search_state)')
    .raw(true);
  const matches = `SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH @q UNION ALL SELECT value FROM json_each(@tail)`;
  const byText = db.prepare<[{ seller: number; q: string; tail: string }], { pack_key: number }>(
    `SELECT DISTINCT m.pack_key FROM (${matches}) f JOIN messages m ON m.rowid = f.id WHERE ${VISIBLE}`,
  );
  const idsByText = db
    .prepare<[{ q: string; tail: string }], string>(`SELECT m.id FROM (${matches}) f JOIN messages m ON m.rowid = f.id ORDER BY m.id`)
    .pluck(true);
  let tail: ReturnType<typeof tailIndex> | undefined;
  /** Runs `read` with the tail's matches of `q`, in one snapshot with it. */
  const withTail = db.transaction(<T>(q: string, read: (p: { q: string; tail: string }) => T): T => {
    tail ??= tailIndex();
    return read({ q, tail: JSON.stringify(tail(tailRows.all(), q)) });
  }) as <T>(q: string, read: (p: { q: string; tail: string }) => T) => T;
  // The buyer (nickname, first or last name), a product title, an order or pack id. Names and
  // titles are compared folded (accents and case ignored, common/search-fold.ts): SQLite's LIKE
  // folds ASCII only. A scan of the seller's orders, not of message text, over the folded copies
  // their writers store (migration 030); a row written without them is folded here.
  registerSearchFold(db);
  const has = (folded: string, column: string) => `instr(coalesce(${folded}, stockroom_fold(${column})), @needle) > 0`;
  const byOrder = db.prepare<[{ seller: number; needle: string; digits: string | null }], { pack_key: number }>(
    `SELECT DISTINCT coalesce(o.pack_id, o.id) AS pack_key FROM orders o LEFT JOIN users u ON u.id = o.buyer_id
      WHERE o.seller_id = @seller AND (
        ${has('u.nickname_folded', 'u.nickname')}
        OR ${has('u.name_folded', "coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')")}
        OR EXISTS (SELECT 1 FROM order_items l WHERE l.order_id = o.id AND ${has('l.title_folded', 'l.title')})
        OR (@digits IS NOT NULL AND (instr(CAST(o.id AS TEXT), @digits) > 0 OR instr(CAST(o.pack_id AS TEXT), @digits) > 0))
      )`,
  );
  const withAttachments = db.prepare<[{ seller: number }], { pack_key: number }>(
    `SELECT DISTINCT m.pack_key FROM attachments a JOIN messages m ON m.id = a.message_id
      WHERE a.message_id IS NOT NULL AND ${VISIBLE}`,
  );

  return {
    /** Conversations matching the search in a buyer, product, order id or message text. */
    matching(seller: number, search: string): Set<number> {
      const trimmed = search.trim();
      const out = new Set<number>();
      if (trimmed === '') return out;
      const digits = /^#?\d+$/.test(trimmed) ? trimmed.replace('#', '') : null;
      // An order or pack number by any part of it: people type its last digits.
      for (const r of byOrder.all({ seller, needle: foldForSearch(trimmed), digits })) out.add(r.pack_key);
      const q = ftsQuery(trimmed);
      if (q !== null) for (const r of withTail(q, (p) => byText.all({ seller, ...p }))) out.add(r.pack_key);
      return out;
    },
    /** Ids of the messages whose text matches the search's words (any sender, any moderation status), in id order. */
    messagesMatching(search: string): string[] {
      const q = ftsQuery(search);
      return q === null ? [] : withTail(q, (p) => idsByText.all(p));
    },
    /** Conversations with at least one visible message carrying a file. */
    withAttachments: (seller: number): Set<number> => new Set(withAttachments.all({ seller }).map((r) => r.pack_key)),
  };
}
export type InboxSearchRepo = ReturnType<typeof inboxSearchRepo>;

/**
 * An index of the tail alone, in a private in-memory database: the same tokenizer as messages_fts
 * and the same query, so a tail message matches exactly when it would there. Not a TEMP table of
 * the connection: its writes would move total_changes(), which readers compare to keep what they
 * read (main/db/repos/grid.ts writeStamp). Returns the matching rowids of the rows given.
 */
function tailIndex(): (rows: [number, string][], q: string) => number[] {
  const binding = nativeBinding();
  const mem = new Database(':memory:', binding ? { nativeBinding: binding } : {});
  mem.exec(`CREATE VIRTUAL TABLE tail USING fts5(text, content = '', tokenize = '${MESSAGE_TOKENIZER}')`);
  const clear = mem.prepare("INSERT INTO tail(tail) VALUES ('delete-all')");
  // One statement: FTS5 writes a statement's additions as one segment.
  const fill = mem.prepare<[string]>('INSERT INTO tail(rowid, text) SELECT value ->> 0, value ->> 1 FROM json_each(?)');
  const match = mem.prepare<[string], number>('SELECT rowid FROM tail WHERE tail MATCH ?').pluck(true);
  return (rows, q) => {
    if (rows.length === 0) return [];
    clear.run();
    fill.run(JSON.stringify(rows));
    return match.all(q);
  };
}
