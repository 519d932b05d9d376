import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demo } from '../support/fixtures.js';
import { openCore, value } from './helpers.js';

/**
 * The desktop's data folder is its owner's only (issue 25): after the app opened a 0755 folder and
 * wrote to it, the folder and every folder in it are 0700 and every file 0600 (databases, their
 * -wal and -shm, settings, the lock, staged files). Windows has no such modes.
 */
const mode = (p: string) => statSync(p).mode & 0o777;
let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe.runIf(process.platform !== 'win32')('the data folder', () => {
  it('is 0700 with every file 0600 after a start and a write', async () => {
    root = mkdtempSync(join(tmpdir(), 'stockroom-data-modes-'));
    const dataDir = join(root, 'Stockroom');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const opened = await openCore({ dataDir });
    try {
      value(await opened.core.api.stock.adjust({ userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.palermo, delta: 1 }));
      value(await opened.core.api.messages.stageFile({ name: 'a.txt', type: 'text/plain', bytes: new Uint8Array([1, 2, 3]) }));
      expect(mode(dataDir).toString(8)).toBe('700');
      const entries = readdirSync(dataDir, { recursive: true, encoding: 'utf8' });
      expect(entries.some((e) => e.endsWith('-wal'))).toBe(true);
      for (const e of entries) {
        const p = join(dataDir, e);
        const expected = statSync(p).isDirectory() ? '700' : '600';
        expect([e, mode(p).toString(8)]).toEqual([e, expected]);
      }
    } finally {
      await opened.close();
    }
  });
});
