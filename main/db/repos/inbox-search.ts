import type { Db } from '../open.js';

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

/** `%`, `_` and `\` are literal in a LIKE with ESCAPE '\'. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The inbox's search and filters over the service tables (issue 15 §2): which of the seller's
 * conversations (pack keys) match a search, and which hold an attachment. Message texts are found
 * through the full-text index of migration 017, and only among messages the seller can see.
 */
export function inboxSearchRepo(db: Db) {
  const byText = db.prepare<[{ seller: number; q: string }], { pack_key: number }>(
    `SELECT DISTINCT m.pack_key FROM messages_fts f JOIN messages m ON m.rowid = f.rowid
      WHERE messages_fts MATCH @q AND ${VISIBLE}`,
  );
  // The buyer (nickname, first or last name), a product title, an order or pack id.
  const byOrder = db.prepare<[{ seller: number; like: string; digits: string | null }], { pack_key: number }>(
    `SELECT DISTINCT coalesce(o.pack_id, o.id) AS pack_key FROM orders o LEFT JOIN users u ON u.id = o.buyer_id
      WHERE o.seller_id = @seller AND (
        u.nickname LIKE @like ESCAPE '\\' OR u.first_name LIKE @like ESCAPE '\\' OR u.last_name LIKE @like ESCAPE '\\'
        OR (coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) LIKE @like ESCAPE '\\'
        OR EXISTS (SELECT 1 FROM order_items l WHERE l.order_id = o.id AND l.title LIKE @like ESCAPE '\\')
        OR (@digits IS NOT NULL AND (CAST(o.id AS TEXT) LIKE @digits || '%' OR CAST(o.pack_id AS TEXT) LIKE @digits || '%'))
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
      for (const r of byOrder.all({ seller, like: `%${likeEscape(trimmed)}%`, digits })) out.add(r.pack_key);
      const q = ftsQuery(trimmed);
      if (q !== null) for (const r of byText.all({ seller, q })) out.add(r.pack_key);
      return out;
    },
    /** Conversations with at least one visible message carrying a file. */
    withAttachments: (seller: number): Set<number> => new Set(withAttachments.all({ seller }).map((r) => r.pack_key)),
  };
}
export type InboxSearchRepo = ReturnType<typeof inboxSearchRepo>;
