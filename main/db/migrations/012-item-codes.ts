import type { Migration } from './index.js';

/**
 * The codes a barcode scan looks an item up by (issue 14 §2, FIXTURES.md): its `GTIN` and
 * `SELLER_SKU` attributes, its `seller_custom_field` and its `inventory_id` (its id and its user
 * product id are primary keys already). One row per code of an item, keyed by (seller, code), so a
 * scan is one index seek whatever the catalogue's size.
 *
 * The rows follow `items` through triggers, so every writer (the listing flows, the fixture
 * loader, the replica's pull) keeps them right without knowing of them. A code is stored
 * normalized: trimmed, upper case, and an all-digit code of 8, 12, 13 or 14 digits (EAN-8, UPC-A,
 * EAN-13, GTIN-14) left-padded with zeros to 14, so a UPC scanned as 12 digits finds the GTIN
 * stored as 13. `normalizeCode` in main/db/repos/grid.ts does the same to a scan (its tests hold
 * the two to one rule).
 *
 * `items.attributes` holds the ordinary attributes of the listing body as a JSON object
 * (`{"attributes": [{"id": "GTIN", "value_name": "..."}], "seller_custom_field": "..."}`).
 */
const norm = (x: string) => `(CASE WHEN trim(${x}) NOT GLOB '*[^0-9]*' AND length(trim(${x})) IN (8, 12, 13, 14)
      THEN substr('00000000000000' || trim(${x}), -14) ELSE upper(trim(${x})) END)`;

/** JSON of an item row `r`, '{}' when it is not valid JSON (json_each would fail on it). */
const json = (r: string) => `CASE WHEN json_valid(${r}.attributes) THEN ${r}.attributes ELSE '{}' END`;

/**
 * INSERTs of the codes of the item row `r`: NEW in a trigger (`table` ''), or every row `i` of
 * `items` in the backfill (`table` 'items i').
 */
const insertCodes = (r: string, table: string) => {
  const from = (more: string) => (table === '' ? (more === '' ? '' : `FROM ${more}`) : `FROM ${table}${more === '' ? '' : `, ${more}`}`);
  const custom = `(${json(r)}) ->> '$.seller_custom_field'`;
  return `
INSERT OR IGNORE INTO item_codes (seller_id, code, item_id, kind)
  SELECT ${r}.seller_id, ${norm("a.value ->> '$.value_name'")}, ${r}.id, CASE a.value ->> '$.id' WHEN 'GTIN' THEN 'gtin' ELSE 'seller_sku' END
    ${from(`json_each(${json(r)}, '$.attributes') a`)}
   WHERE json_type(${json(r)}, '$.attributes') = 'array' AND a.value ->> '$.id' IN ('GTIN', 'SELLER_SKU')
     AND typeof(a.value ->> '$.value_name') = 'text' AND trim(a.value ->> '$.value_name') <> '';
INSERT OR IGNORE INTO item_codes (seller_id, code, item_id, kind)
  SELECT ${r}.seller_id, ${norm(custom)}, ${r}.id, 'seller_sku' ${from('')}
   WHERE typeof(${custom}) = 'text' AND trim(${custom}) <> '';
INSERT OR IGNORE INTO item_codes (seller_id, code, item_id, kind)
  SELECT ${r}.seller_id, ${norm(`${r}.inventory_id`)}, ${r}.id, 'inventory' ${from('')}
   WHERE ${r}.inventory_id IS NOT NULL AND trim(${r}.inventory_id) <> '';`;
};

export const itemCodesMigration: Migration = {
  version: 12,
  name: 'item-codes',
  sql: `
CREATE TABLE item_codes (
  seller_id INTEGER NOT NULL,
  code      TEXT NOT NULL,
  item_id   TEXT NOT NULL,
  kind      TEXT NOT NULL CHECK (kind IN ('gtin', 'seller_sku', 'inventory')),
  PRIMARY KEY (seller_id, code, item_id)
) WITHOUT ROWID;
CREATE INDEX item_codes_by_item ON item_codes(item_id);

CREATE TRIGGER item_codes_insert AFTER INSERT ON items BEGIN
${insertCodes('NEW', '')}
END;

CREATE TRIGGER item_codes_update AFTER UPDATE OF attributes, inventory_id, seller_id ON items BEGIN
DELETE FROM item_codes WHERE item_id = OLD.id;
${insertCodes('NEW', '')}
END;

CREATE TRIGGER item_codes_delete AFTER DELETE ON items BEGIN
DELETE FROM item_codes WHERE item_id = OLD.id;
END;
${insertCodes('i', 'items i')}
`,
};
