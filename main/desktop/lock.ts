import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DesktopError } from './errors.js';

export const LOCK_FILE = 'stockroom.lock';

function alive(pid: number): boolean {
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

function heldError(pid: number, file: string): DesktopError {
  return new DesktopError('already_running', `Stockroom is already running with this data folder (process ${pid}; lock file ${file})`, 409);
}

/**
 * Throws `already_running` when another live process holds the data folder: a check made before
 * anything is started (the browser mode checks before it listens, so a second instance prints
 * the error alone, not an address first). `acquireDataDirLock` still decides.
 */
export function assertDataDirFree(dataDir: string): void {
  const pid = dataDirLockHolder(dataDir);
  if (pid !== null) throw heldError(pid, join(dataDir, LOCK_FILE));
}

/**
 * One process per data folder (the desktop app and the browser mode share the folder): a lock file
 * holding the owner's pid. A lock left by a process that is gone is taken over. Electron's
 * single-instance lock covers two windows of the app; this covers `npm run web` next to it.
 * Returns the release function.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw heldError(pid, file);
      rmSync(file, { force: true });
    }
  }
  throw new DesktopError('already_running', `Cannot lock the data folder ${dataDir}`, 409);
}
