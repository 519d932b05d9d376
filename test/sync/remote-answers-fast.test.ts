import { describe, expect, it } from 'vitest';
import { parseSellerWarehouseAnswer, sellerWarehouseAnswer } from '../../main/sync/remote-answers.js';

/**
 * The hand check of a seller_warehouse PUT's answer (parseSellerWarehouseAnswer) must give what
 * the schema gives, for answers as the remote sends them and for every way one can be wrong.
 */
const location = { type: 'seller_warehouse', quantity: 13, store_id: '8000000', network_node_id: 'NODE0' };
const answer = (locations: unknown[]) => ({ id: 'MLAU000000004', user_id: 7000001, locations, product_release_date: null });

const bad: [string, unknown][] = [
  ['type', 'warehouse'],
  ['type', null],
  ['type', undefined],
  ['quantity', -1],
  ['quantity', 1.5],
  ['quantity', '13'],
  ['quantity', null],
  ['quantity', Number.NaN],
  ['quantity', Number.POSITIVE_INFINITY],
  ['quantity', 2 ** 53],
  ['quantity', undefined],
  ['store_id', ''],
  ['store_id', 8000000],
  ['store_id', null],
  ['store_id', undefined],
  ['network_node_id', 7],
  ['network_node_id', null],
  ['network_node_id', undefined],
];

const bodies: unknown[] = [
  answer([location]),
  answer(Array.from({ length: 10 }, (_, i) => ({ ...location, quantity: 13 + i, store_id: String(8000000 + i), network_node_id: `NODE${i}` }))),
  answer([]),
  answer([
    { type: 'selling_address', quantity: 0 },
    { type: 'platform_facility', quantity: 5, extra: true },
    { ...location, network_node_id: '' },
  ]),
  answer([{ type: 'seller_warehouse', quantity: 2 ** 53 - 1, store_id: 'a' }]),
  answer([{ type: 'seller_warehouse', quantity: -0, store_id: 'a' }]),
  { locations: [location] },
  ...bad.map(([key, value]) => answer([location, { ...location, [key]: value }])),
  ...bad.map(([key]) => answer([Object.fromEntries(Object.entries(location).filter(([k]) => k !== key))])),
  answer([null]),
  answer([[location]]),
  answer(['x']),
  { ...answer([]), locations: null },
  { ...answer([]), locations: { 0: location } },
  { user_id: 1 },
  [],
  null,
  'locations',
  42,
];

describe('the hand check of a seller_warehouse answer', () => {
  it('gives the schema’s result for every body', () => {
    for (const body of bodies) {
      const fast = parseSellerWarehouseAnswer(body);
      const schema = sellerWarehouseAnswer.safeParse(body);
      expect(fast.success, JSON.stringify(body)).toBe(schema.success);
      if (fast.success) expect(fast.data).toStrictEqual(schema.data);
      else expect(fast.error.issues).toStrictEqual(schema.error!.issues);
    }
  });
});
