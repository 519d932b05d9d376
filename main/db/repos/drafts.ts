import type { Db } from '../open.js';

export interface DraftRow {
  pack_key: number;
  text: string;
  updated_at: number;
}

/** What the seller was writing in each conversation (migration 017's message_drafts). */
export function draftsRepo(db: Db) {
  const all = db.prepare<[], DraftRow>('SELECT pack_key, text, updated_at FROM message_drafts ORDER BY pack_key');
  const put = db.prepare<[DraftRow]>(
    `INSERT INTO message_drafts (pack_key, text, updated_at) VALUES (@pack_key, @text, @updated_at)
     ON CONFLICT(pack_key) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare<[number]>('DELETE FROM message_drafts WHERE pack_key = ?');
  return {
    all: () => all.all(),
    put: (row: DraftRow) => put.run(row),
    remove: (packKey: number) => remove.run(packKey),
  };
}
export type DraftsRepo = ReturnType<typeof draftsRepo>;
