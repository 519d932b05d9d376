import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DesktopCore } from '../../main/desktop/core.js';
import { demo } from '../support/fixtures.js';
import { failure, openCore, value } from './helpers.js';

/** The grid's hidden columns (issue 27): kept by the workstation across a restart, and with a saved view. */
describe('hidden grid columns', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('are none until chosen, then kept on disk; a saved view keeps its own set', async () => {
    const first = await openCore();
    dirs.push(first.dir);
    expect(value(await first.core.api.stock.hiddenColumns())).toEqual({ hidden: [] });
    expect(value(await first.core.api.stock.setHiddenColumns({ hidden: ['platform_facility', 'platform_facility', 'selling_address'] }))).toEqual({
      hidden: ['platform_facility', 'selling_address'],
    });
    const query = { search: '', filter: 'all' as const, store: null, lowStock: null, belowReorder: false, sort: null };
    value(await first.core.api.stock.saveView({ name: 'Stores only', query: { ...query, hidden: ['platform_facility', demo.stores.avellaneda] } }));
    value(await first.core.api.stock.saveView({ name: 'Everything', query }));
    await first.core.close();

    const again = await DesktopCore.open({ jobPollMs: 20, log: () => undefined, dataDir: first.dir });
    try {
      expect(value(await again.api.stock.hiddenColumns())).toEqual({ hidden: ['platform_facility', 'selling_address'] });
      const views = value(await again.api.stock.views());
      expect(views.map((v) => [v.name, v.query.hidden])).toEqual([
        ['Everything', undefined],
        ['Stores only', ['platform_facility', demo.stores.avellaneda]],
      ]);
      expect(value(await again.api.stock.setHiddenColumns({ hidden: [] }))).toEqual({ hidden: [] });
      expect(value(await again.api.stock.hiddenColumns())).toEqual({ hidden: [] });
    } finally {
      await again.close();
    }
  });

  it('refuses what is not a column key (parsed at the edge)', async () => {
    const c = await openCore();
    dirs.push(c.dir);
    try {
      expect(failure(await c.core.api.stock.setHiddenColumns({ hidden: [''] })).code).toBe('bad_request');
      expect(failure(await c.core.api.stock.setHiddenColumns({ hidden: ['x'.repeat(65)] })).code).toBe('bad_request');
      expect(value(await c.core.api.stock.hiddenColumns())).toEqual({ hidden: [] });
    } finally {
      await c.core.close();
    }
  });
});
