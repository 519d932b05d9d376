import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CoreOptions, DesktopCore } from '../../main/desktop/core.js';
import type { Result } from '../../common/contract/contract.js';

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

/** The shared condition wait (test/support/wait.ts) under the name the desktop tests use. */
export { waitFor as until } from '../support/wait.js';
