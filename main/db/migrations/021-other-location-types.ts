import type { Migration } from './index.js';

/**
 * The grid's column set asks whether the seller has any selling_address or platform_facility
 * location (main/db/repos/grid.ts). Nearly every location is a seller_warehouse one, so for a
 * seller without the other kinds that question read every location: about 55 ms for each kind at
 * 100,000 products × 10 stores, on the first grid page of every start. Indexes of only those rows
 * answer it with one seek; seller_warehouse rows, the ones edits and pulls write, never enter them.
 */
export const otherLocationTypesMigration: Migration = {
  version: 21,
  name: 'other-location-types',
  sql: `
CREATE INDEX stock_locations_selling_address ON stock_locations(user_product_id) WHERE type = 'selling_address';
CREATE INDEX stock_locations_platform_facility ON stock_locations(user_product_id) WHERE type = 'platform_facility';
`,
};
