/**
 * `npm run web` on a data folder another live process holds: the error alone, exit 1, and no
 * address printed first (the check runs before the server listens). The holder here is this test
 * process, whose pid the lock file names, as a running app's would.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../main/desktop/lock.js';

const root = resolve(import.meta.dirname, '../..');
const data = mkdtempSync(join(tmpdir(), 'stockroom-second-'));
afterAll(() => rmSync(data, { recursive: true, force: true }));

describe('a second browser mode on a locked data folder', () => {
  it('says the folder is in use, prints no address and exits 1', async () => {
    writeFileSync(join(data, LOCK_FILE), String(process.pid));
    const child = spawn(process.execPath, ['--import', 'tsx', 'main/web/cli.ts', '--data', data], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const code = await new Promise<number | null>((r) => child.once('close', r));
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err.trim()).toBe(`web: Stockroom is already running with this data folder (process ${process.pid}; lock file ${join(data, LOCK_FILE)})`);
  }, 60_000);
});
