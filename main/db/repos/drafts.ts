import type { Db } from '../open.js';

export interface DraftRow {
  pack_key: number;
  text: string;
  updated_at: number;
}

/** A file attached to a draft (migration 027); `path` null: the bytes are in the staging folder's kept files. */
export interface DraftFileRow {
  file_id: string;
  pack_key: number;
  position: number;
  name: string;
  type: string | null;
  size: number;
  path: string | null;
}

/** What the seller was writing in each conversation (migration 017's message_drafts) and the files attached to it (027). */
export function draftsRepo(db: Db) {
  const all = db.prepare<[], DraftRow>('SELECT pack_key, text, updated_at FROM message_drafts ORDER BY pack_key');
  const put = db.prepare<[DraftRow]>(
    `INSERT INTO message_drafts (pack_key, text, updated_at) VALUES (@pack_key, @text, @updated_at)
     ON CONFLICT(pack_key) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare<[number]>('DELETE FROM message_drafts WHERE pack_key = ?');
  const files = db.prepare<[], DraftFileRow>('SELECT file_id, pack_key, position, name, type, size, path FROM message_draft_files ORDER BY pack_key, position');
  const removeFiles = db.prepare<[number]>('DELETE FROM message_draft_files WHERE pack_key = ?');
  // A file moved from one draft to another is the same file: the newest draft has it.
  const putFile = db.prepare<[DraftFileRow]>(
    `INSERT OR REPLACE INTO message_draft_files (file_id, pack_key, position, name, type, size, path)
     VALUES (@file_id, @pack_key, @position, @name, @type, @size, @path)`,
  );
  return {
    all: () => all.all(),
    put: (row: DraftRow) => put.run(row),
    remove: (packKey: number) => remove.run(packKey),
    files: () => files.all(),
    /** Replaces a draft's files with these, in one transaction. */
    setFiles: db.transaction((packKey: number, rows: readonly DraftFileRow[]) => {
      removeFiles.run(packKey);
      for (const r of rows) putFile.run(r);
    }),
  };
}
export type DraftsRepo = ReturnType<typeof draftsRepo>;
