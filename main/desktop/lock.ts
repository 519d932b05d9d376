import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DesktopError } from './errors.js';
import { LOCK_FILE, alive, heldMessage } from './lock-holder.js';

export { LOCK_FILE };

function heldError(pid: number, file: string): DesktopError {
  return new DesktopError('already_running', heldMessage(pid, file), 409);
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
