import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * Folders and files only their owner may read (issue 25: the databases hold refresh tokens and
 * buyers' messages, and were created 0644 in a 0755 folder). Modes are set explicitly, so the
 * process's umask does not decide them, and looser modes left by an older version are tightened.
 * Windows has no such modes (its user profile folder is already private): nothing to do there.
 */
const HAS_MODES = process.platform !== 'win32';

/** Creates `dir` (and missing parents) as 0700, and makes an existing `dir` 0700. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (HAS_MODES) chmodSync(dir, 0o700);
}

/**
 * Creates `file` empty as 0600 when missing, and makes it 0600 when it exists. SQLite creates a
 * database's -wal and -shm with the database file's own mode, so a 0600 database keeps them 0600.
 */
export function privateFile(file: string): void {
  if (!HAS_MODES) return;
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/** Makes `file` 0600 if it exists (a -wal or -shm an older version left readable). */
export function tightenIfPresent(file: string): void {
  if (HAS_MODES && existsSync(file)) chmodSync(file, 0o600);
}
