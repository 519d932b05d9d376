import type { Db } from '../open.js';

/** An applied import as migration 028 keeps it. */
export interface ImportFingerprintRow {
  id: number;
  seller_id: number;
  name: string;
  file_digest: string | null;
  rows_digest: string;
  changes: number;
  author: string;
  operator_id: number | null;
  operator_name: string | null;
  applied_at: number;
}

export type NewImportFingerprint = Omit<ImportFingerprintRow, 'id'>;

/** The fingerprints of applied imports (migration 028); the only SQL of them. */
export function importsRepo(db: Db) {
  const insert = db.prepare<[NewImportFingerprint]>(
    `INSERT INTO import_fingerprints (seller_id, name, file_digest, rows_digest, changes, author, operator_id, operator_name, applied_at)
     VALUES (@seller_id, @name, @file_digest, @rows_digest, @changes, @author, @operator_id, @operator_name, @applied_at)`,
  );
  // The newest import of the seller with the same bytes or the same changes.
  const same = db.prepare<[{ seller: number; file: string | null; rows: string }], ImportFingerprintRow>(
    `SELECT * FROM import_fingerprints
      WHERE seller_id = @seller AND ((@file IS NOT NULL AND file_digest = @file) OR rows_digest = @rows)
      ORDER BY id DESC LIMIT 1`,
  );
  return {
    record: (f: NewImportFingerprint) => Number(insert.run(f).lastInsertRowid),
    /** The seller's newest import of the same file (its bytes) or the same changes, if any. */
    sameAs: (sellerId: number, fileDigest: string | null, rowsDigest: string) => same.get({ seller: sellerId, file: fileDigest, rows: rowsDigest }),
  };
}
export type ImportsRepo = ReturnType<typeof importsRepo>;
