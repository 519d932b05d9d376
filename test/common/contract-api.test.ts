import { describe, expect, it } from 'vitest';
import { createApi } from '../../common/contract/api.js';
import { channelName } from '../../common/contract/channels.js';
import { packAnswer } from '../../common/contract/grid-pack.js';
import { ERROR_CODES } from '../../common/errors.js';

/**
 * `window.stockroom` over any transport (common/contract/api.ts): answers come back in the
 * contract's shape, and a call never rejects, whatever the transport does.
 */
const grid = {
  total: 1,
  columns: [{ key: '8000000', type: 'seller_warehouse' as const, storeId: '8000000', label: 'Palermo' }],
  rows: [
    {
      userProductId: 'MLAU1',
      title: 'Termo',
      version: '1',
      cells: {
        '8000000': {
          userProductId: 'MLAU1',
          type: 'seller_warehouse' as const,
          storeId: '8000000',
          cell: 'MLAU1|seller_warehouse|8000000',
          remote: { quantity: 4, version: '1' },
          shown: 4,
          state: 'synced' as const,
          editable: true,
          entries: [],
          conflict: null,
          error: null,
          lock: null,
        },
      },
    },
  ],
};

const over = (answer: (channel: string) => Promise<unknown>) => createApi({ invoke: (channel) => answer(channel), listen: () => () => undefined });

describe('the api over a transport', () => {
  it('unpacks grid rows as the adapters packed them', async () => {
    const api = over(async () => JSON.parse(JSON.stringify(packAnswer(channelName('stock', 'grid'), { ok: true, value: grid }))) as unknown);
    expect(await api.stock.grid({ limit: 50, offset: 0 })).toEqual({ ok: true, value: grid });
  });

  it('answers an error value, never a rejection, when the transport fails or an answer cannot be unpacked', async () => {
    const failing = over(() => Promise.reject(new Error('socket hang up')));
    expect(await failing.stock.grid({ limit: 50, offset: 0 })).toMatchObject({ ok: false, error: { code: ERROR_CODES.internal } });
    // Packed rows without their cells (a broken main process): an error, not an exception in the screen.
    const broken = over(async () => ({ ok: true, value: { total: 1, columns: [], $rows: [{ userProductId: 'MLAU1' }] } }));
    expect(await broken.stock.grid({ limit: 50, offset: 0 })).toMatchObject({ ok: false, error: { code: ERROR_CODES.internal } });
  });
});
