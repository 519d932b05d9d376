import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairingViolation } from '../../../main/service/stock/locations.js';
import { sellingAddressRule } from '../../../main/service/stock/stock.js';
import { parseVersionHeader } from '../../../main/service/stock/version.js';
import { ServiceError } from '../../../main/service/errors.js';

type Item = Parameters<typeof sellingAddressRule>[0][number];
const item = (o: Partial<Item> = {}): Item => ({ logistic_type: 'cross_docking', local_delivery: 0, inventory_id: null, full_inbound_done: 0, ...o });

describe('location pairing (SPEC 8)', () => {
  it('allows the two pairs and their parts', () => {
    expect(pairingViolation(['selling_address', 'platform_facility'])).toBeNull();
    expect(pairingViolation(['seller_warehouse', 'seller_warehouse', 'platform_facility'])).toBeNull();
    expect(pairingViolation(['platform_facility'])).toBeNull();
    expect(pairingViolation([])).toBeNull();
  });
  it('refuses selling_address with seller_warehouse, whatever else is there', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('seller_warehouse', 'selling_address', 'platform_facility' as const)), (types) => {
        const bad = types.includes('selling_address') && types.includes('seller_warehouse');
        expect(pairingViolation(types) !== null).toBe(bad);
      }),
    );
  });
});

describe('selling-address rule (SPEC 7.3)', () => {
  const message = (items: Item[]) => sellingAddressRule(items)?.message ?? null;
  it('no items, or fulfillment-only items, cannot be edited', () => {
    expect(message([])).toMatch(/fulfillment only or no items/);
    expect(message([item({ logistic_type: 'fulfillment', local_delivery: 0, inventory_id: 'X', full_inbound_done: 1 })])).toMatch(/fulfillment only/);
  });
  it('fulfillment with local delivery needs an inventory id, then a full inbound', () => {
    expect(message([item({ logistic_type: 'fulfillment', local_delivery: 1, inventory_id: null })])).toMatch(/without inventory id/);
    expect(message([item({ logistic_type: 'fulfillment', local_delivery: 1, inventory_id: 'X', full_inbound_done: 0 })])).toMatch(/full inbound/);
    expect(message([item({ logistic_type: 'fulfillment', local_delivery: 1, inventory_id: 'X', full_inbound_done: 1 })])).toBeNull();
  });
  it('items outside fulfillment hold plain seller stock', () => {
    expect(message([item({ logistic_type: 'self_service' })])).toBeNull();
    expect(message([item(), item({ logistic_type: 'fulfillment' })])).toBeNull();
  });
});

describe('x-version header', () => {
  it('parses 64-bit versions exactly', () => {
    expect(parseVersionHeader('9223372036854775807')).toBe(9223372036854775807n);
    expect(parseVersionHeader(' 12 ')).toBe(12n);
  });
  it('missing is "Missing X-Version header", malformed is another 400', () => {
    expect(() => parseVersionHeader(undefined)).toThrow('Missing X-Version header');
    expect(() => parseVersionHeader('')).toThrow('Missing X-Version header');
    for (const v of ['9223372036854775808', 'v1', '1,2', '0x10']) {
      expect(() => parseVersionHeader(v)).toThrow(ServiceError);
      expect(() => parseVersionHeader(v)).toThrow(/Invalid X-Version/);
    }
  });
});
