import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { foldForSearch } from '../../common/search-fold.js';
import { migrations } from './migrations/index.js';
import { privateDir, privateFile, tightenIfPresent } from './private-files.js';

export type Db = Database.Database;

export interface OpenOptions {
  /** `synchronous` pragma: FULL (default) makes every acknowledged commit survive a power cut. */
  synchronous?: 'FULL' | 'NORMAL';
}

/**
 * The compiled better-sqlite3 module every database of this process loads: unset (the package's
 * own build, for Node) except in the Electron main process of a development checkout, which needs
 * a build for Electron's ABI kept apart from it (main/desktop/native-binding.ts). One per process:
 * it follows the runtime, not the database.
 */
let binding: string | undefined;

export function useNativeBinding(file: string | undefined): void {
  binding = file;
}

export function nativeBinding(): string | undefined {
  return binding;
}

/**
 * Opens (creating if needed, private to its owner) the one database file: WAL so readers never wait for the writer,
 * foreign keys on, a busy timeout so a second process (a CLI, a test) waits instead of failing,
 * then applies the numbered migrations that are newer than `user_version`.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:' && file !== '') {
    // The owner's only: the folder 0700, the file 0600 before SQLite opens it (its -wal and -shm follow).
    privateDir(dirname(file));
    privateFile(file);
    for (const suffix of ['-wal', '-shm', '-journal']) tightenIfPresent(`${file}${suffix}`);
  }
  const db = new Database(file, binding ? { nativeBinding: binding } : {});
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Reads of a 100,000-product replica stay in memory: a 64 MB page cache and memory-mapped I/O.
  db.pragma('cache_size = -65536');
  db.pragma('mmap_size = 268435456');
  migrate(db);
  return db;
}

/**
 * `stockroom_fold(text)`: the search's fold (common/search-fold.ts) in SQL, for the migration that
 * fills the folded columns (030) and the search's fallback on rows written without them.
 */
export function registerSearchFold(db: Db): void {
  db.function('stockroom_fold', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? foldForSearch(v) : null));
}

export function migrate(db: Db): void {
  registerSearchFold(db);
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const m of migrations) {
    if (m.version <= current) continue;
    // PRAGMA foreign_keys is a no-op inside a transaction: switched around it.
    if (m.foreignKeysOff) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        // References broken before (an old bug) must not stop the app from opening; new ones must not appear.
        const broken = m.foreignKeysOff ? foreignKeyProblems(db) : 0;
        db.exec(m.sql);
        if (m.foreignKeysOff && foreignKeyProblems(db) > broken) throw new Error(`migration ${m.version} (${m.name}) broke foreign keys`);
        db.pragma(`user_version = ${m.version}`);
      })();
    } finally {
      if (m.foreignKeysOff) db.pragma('foreign_keys = ON');
    }
  }
}

const foreignKeyProblems = (db: Db): number => (db.pragma('foreign_key_check') as unknown[]).length;
