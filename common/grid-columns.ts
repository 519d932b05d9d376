/**
 * What the stock grid's columns are, for every runtime that lays them out: the grid on screen
 * (renderer/stock/columns.ts adds how each is drawn), the CSV export and import (renderer), the
 * .xlsx export (main). A new kind of location column is one entry here and its words.
 */
import { type LocationType, isEditableType } from './stock-vocabulary.js';

export interface LocationColumnKind {
  /** How a file names the column besides its key and its label (lower case, `_` for spaces): the CSV import's aliases. */
  aliases: readonly string[];
  /** Whether its cells can be edited (SPEC 7.3: platform_facility is the platform's). */
  editable: boolean;
  /** Whether the header shows the store id under its name (a store's own name may repeat). */
  showsStoreId: boolean;
}

export const LOCATION_COLUMNS: Readonly<Record<LocationType, LocationColumnKind>> = {
  seller_warehouse: { aliases: [], editable: isEditableType('seller_warehouse'), showsStoreId: true },
  selling_address: {
    aliases: ['selling_address', 'domicilio_de_venta', 'endereço_de_venda'],
    editable: isEditableType('selling_address'),
    showsStoreId: false,
  },
  platform_facility: { aliases: ['platform_facility', 'full'], editable: isEditableType('platform_facility'), showsStoreId: false },
};

/** A location column's header in both exports (`Depósito Palermo [64712]`); the import reads the key in brackets back. */
export const locationColumnHeader = (c: { label: string; key: string }) => `${c.label} [${c.key}]`;

/** The key in brackets at the end of a header written by `locationColumnHeader`. */
export const KEY_IN_HEADER = /\[([^\]]+)\]\s*$/;
