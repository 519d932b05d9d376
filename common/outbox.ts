/**
 * The outbox's vocabulary, declared once: the SQL CHECKs (migration 022), the repository's row
 * types, the views the screens receive and the contract's enums all derive from these lists.
 * The rules that move an entry between them live in main/sync/model.ts.
 */

/** What an entry carries: a stock edit (an adjustment, a count or a transfer) or an outgoing message. */
export const OUTBOX_KINDS = ['stock', 'message'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/** How an entry is stored (the `state` column). */
export const ENTRY_STATES = ['pending', 'in_flight', 'done', 'conflict', 'failed'] as const;
export type EntryState = (typeof ENTRY_STATES)[number];

/**
 * What an entry is, as the person is told (main/sync/model.ts derives it from the stored row):
 * - queued: only here, never put on the wire (it can still be changed or withdrawn);
 * - on_wire: a request may be at the marketplace now, or is waiting to be resent under its key;
 * - unknown: the last request may have reached the marketplace and no answer was seen, and
 *   sending gave up: its outcome must be learnt before anything is dropped;
 * - checking: the person asked to take it back, and the app is learning its outcome first;
 * - done; refused: the marketplace said no for good; conflict: a count whose cell moved under it.
 */
export const ENTRY_PHASES = ['queued', 'on_wire', 'unknown', 'checking', 'done', 'refused', 'conflict'] as const;
export type EntryPhase = (typeof ENTRY_PHASES)[number];

export const isOutboxKind = (v: unknown): v is OutboxKind => (OUTBOX_KINDS as readonly unknown[]).includes(v);
export const isEntryState = (v: unknown): v is EntryState => (ENTRY_STATES as readonly unknown[]).includes(v);
