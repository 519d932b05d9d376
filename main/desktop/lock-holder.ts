import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data folder's lock file as anyone may read it, with no import beyond node's: the browser
 * mode checks it before it listens, and its start must not wait for the core's modules
 * (main/desktop/errors.ts brings zod, undici and the sync). main/desktop/lock.ts takes the lock.
 */
export const LOCK_FILE = 'stockroom.lock';

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live process holding the data folder's lock, or null when nobody holds it. */
export function dataDirLockHolder(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(join(dataDir, LOCK_FILE), 'utf8');
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : null;
}

export const heldMessage = (pid: number, file: string) => `Stockroom is already running with this data folder (process ${pid}; lock file ${file})`;
