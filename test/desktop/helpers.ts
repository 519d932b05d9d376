import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CoreOptions, DesktopCore } from '../../main/desktop/core.js';
import type { Result } from '../../preload/contract.js';

/** A desktop core on a new temporary data folder (local-only on the demo data, as at a first start). */
export async function openCore(options: Partial<CoreOptions> = {}): Promise<{ core: DesktopCore; dir: string; close(): Promise<void> }> {
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'stockroom-core-'));
  const core = await DesktopCore.open({ jobPollMs: 20, log: () => undefined, ...options, dataDir: dir });
  return {
    core,
    dir,
    async close() {
      await core.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The value of an ok result; fails the test with the error otherwise. */
export function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value;
}

/** The error of a failed result; fails the test otherwise. */
export function failure<T>(r: Result<T>) {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value).slice(0, 300)}`);
  return r.error;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
