/**
 * The stock grid's vocabulary, declared once: the types of every layer, the contract's zod enums,
 * the database's CHECKs and the screens' lists derive from these (issue 26).
 */

/** Where stock is kept (SPEC 2.5): a store of the seller, the selling address, or the platform's own. */
export const LOCATION_TYPES = ['seller_warehouse', 'selling_address', 'platform_facility'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

/** The location types a person (or an import) may edit; platform_facility is the platform's (SPEC 7.3). */
export const EDITABLE_TYPES = ['seller_warehouse', 'selling_address'] as const;
export type EditableType = (typeof EDITABLE_TYPES)[number];

export const isLocationType = (v: unknown): v is LocationType => (LOCATION_TYPES as readonly unknown[]).includes(v);
export const isEditableType = (v: unknown): v is EditableType => (EDITABLE_TYPES as readonly unknown[]).includes(v);

/** Which products the grid shows by the state of their queued edits. */
export const STATE_FILTERS = ['all', 'pending', 'conflict', 'failed'] as const;
export type StateFilter = (typeof STATE_FILTERS)[number];
export const isStateFilter = (v: unknown): v is StateFilter => (STATE_FILTERS as readonly unknown[]).includes(v);

/** The grid's orders besides a store's column (keyed by the store id). */
export const SORT_KEYS = ['product', 'title', 'total', 'selling_address', 'platform_facility'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
