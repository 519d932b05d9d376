import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DesktopCore } from '../../main/desktop/core.js';
import { demo } from '../support/fixtures.js';
import { failure, openCore, value } from './helpers.js';

/** The store scans go to is kept by the workstation (migration 026, main/desktop/grid-prefs.ts) across a restart of the core. */
describe('the store scans go to', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is null until chosen, then kept on disk: a new core on the same data folder reads it back', async () => {
    const first = await openCore();
    dirs.push(first.dir);
    expect(value(await first.core.api.stock.scanStore())).toEqual({ store: null });
    value(await first.core.api.stock.setScanStore({ store: demo.stores.palermo }));
    expect(value(await first.core.api.stock.setScanStore({ store: demo.stores.avellaneda }))).toEqual({ store: demo.stores.avellaneda });
    await first.core.close();

    const again = await DesktopCore.open({ jobPollMs: 20, log: () => undefined, dataDir: first.dir });
    try {
      expect(value(await again.api.stock.scanStore())).toEqual({ store: demo.stores.avellaneda });
    } finally {
      await again.close();
    }
  });

  it('refuses what is not a store key (parsed at the edge)', async () => {
    const c = await openCore();
    dirs.push(c.dir);
    try {
      expect(failure(await c.core.api.stock.setScanStore({ store: '' })).code).toBe('bad_request');
      expect(failure(await c.core.api.stock.setScanStore({ store: 'x'.repeat(65) })).code).toBe('bad_request');
    } finally {
      await c.core.close();
    }
  });
});
