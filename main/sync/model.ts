import type { EntryPhase } from '../../common/outbox.js';
import type { OutboxRow } from '../db/repos/sync.js';

/**
 * The life of an outbox entry, in one place (ARCHITECTURE.md, "The outbox model").
 *
 * Stored states (`state`) and what the person is told (`phaseOf`):
 *
 *   queued ──claim──▶ on_wire ──2xx──────────────────────────────▶ done
 *     ▲  │              │ 409: re-read, rebase, resend (stays on the wire)
 *     │  │              ├─ transient failure ──▶ on_wire (resent later under the same key)
 *     │  │              ├─ attempts spent ─────▶ unknown (it may have been applied)
 *     │  │              ├─ count, remote moved ▶ conflict ─keep mine / new count─▶ queued
 *     │  │              │                            └─take theirs─▶ removed
 *     │  │              └─ 4xx / a local check ▶ refused ─retry─▶ queued; ─discard─▶ removed
 *     │  └─ discard / undo ─▶ removed (nothing was ever sent)
 *     └─ retry ── unknown ─ discard / undo ─▶ checking ─applied─▶ done (an undo's inverse goes on)
 *                                               └─not applied─▶ removed (its inverses with it)
 *
 * - An entry is `on_wire` from the moment a request of it may have left (claimed, or waiting to be
 *   resent with `sent_*` kept): it is never changed, merged into or dropped while there.
 * - `unknown` is a failure after lost answers: the request may have been applied. It is never
 *   dropped nor called withdrawn: undo and discard set `withdraw` and the engine learns the
 *   outcome (stock: a fresh read, then a resend under the same key, which the remote replays if it
 *   had applied it; a message: the conversation is read for it). A pull that finds a message
 *   settles its entry too.
 * - `refused`: the marketplace answered no for good (or a fresh check showed it would); nothing
 *   of it was applied.
 *
 * Relations between entries:
 * - An inverse (`undoes_entry`) takes back one edit whose fate was still open when it was undone.
 *   It follows that entry: it goes after it (lane order), is held while it is failed or in
 *   conflict and not shown then, and is removed with it (discard, take theirs, withdrawn after a
 *   check). Once that entry is done, the inverse is an ordinary correction.
 * - A sealed entry (`sealed`: a count session's count, an inverse) never coalesces with later edits.
 * - A count's base is what the remote should hold just before it if every earlier active entry of
 *   its cell applies (failed ones included: they hold the count back until retried or dropped).
 *   When an earlier entry is dropped, the base of the first later count loses its effect; nothing
 *   else is ever subtracted. A count session's count in conflict at once (its cell moved since it
 *   was counted) records that figure as the remote's, and a drop moves that figure instead.
 * - An adjustment typed after an unsent count stays its own entry: "take theirs" on that count
 *   keeps it.
 */

type Row = Pick<OutboxRow, 'state' | 'sent_at' | 'withdraw'>;

/** What the person is told of an entry (see the header). */
export function phaseOf(e: Row & Pick<OutboxRow, 'sent_version'>): EntryPhase {
  switch (e.state) {
    case 'done':
      return 'done';
    case 'conflict':
      return 'conflict';
    case 'failed':
      return outcomeUnknown(e) ? 'unknown' : 'refused';
    default:
      if (e.withdraw === 1) return 'checking';
      return e.state === 'in_flight' || e.sent_version !== null || e.sent_at !== null ? 'on_wire' : 'queued';
  }
}

/** Failed after a request that may have reached the remote (its answer was never seen). */
export const outcomeUnknown = (e: Row) => e.state === 'failed' && e.sent_at !== null;
/** Failed, and nothing of it was applied: the remote refused it, or a fresh check showed it would. */
export const refused = (e: Row) => e.state === 'failed' && e.sent_at === null;

/** True while an entry may still be changed: pending, never put on the wire, not sealed. */
export const coalescible = (e: Pick<OutboxRow, 'state' | 'sent_version' | 'sealed' | 'undoes_entry'>) =>
  e.state === 'pending' && e.sent_version === null && e.sealed === 0 && e.undoes_entry === null;
/** True when the entry's request may have reached the remote (outcome not known yet). */
export const onTheWire = (e: Pick<OutboxRow, 'state' | 'sent_version'>) => e.state === 'in_flight' || (e.state === 'pending' && e.sent_version !== null);
/** A transfer between two stores (one entry, two cells). */
export const isTransfer = (e: Pick<OutboxRow, 'cell2'>) => (e.cell2 ?? null) !== null;

type OverlayEntry = Pick<OutboxRow, 'op' | 'delta' | 'quantity'> & Partial<Pick<OutboxRow, 'id' | 'state' | 'cell2' | 'undoes_entry'>>;

/** An adjustment's (or a transfer's) delta on `cell`: a transfer adds the opposite on its second cell. */
export const deltaOn = (e: Pick<OutboxRow, 'delta'> & Partial<Pick<OutboxRow, 'cell2'>>, cell?: string) =>
  cell !== undefined && (e.cell2 ?? null) === cell ? -(e.delta ?? 0) : (e.delta ?? 0);

const apply = (q: number, e: OverlayEntry, cell?: string) => (e.op === 'adjust' ? q + deltaOn(e, cell) : (e.quantity ?? q));

/** Inverses whose original is failed or in conflict among `entries`: not shown (they follow its fate). */
function heldInverses(entries: readonly OverlayEntry[]): Set<number> | null {
  let held: Set<number> | null = null;
  for (const e of entries) {
    if (e.undoes_entry === null || e.undoes_entry === undefined) continue;
    const original = entries.find((o) => o.id === e.undoes_entry);
    if (original && (original.state === 'failed' || original.state === 'conflict')) (held ??= new Set()).add(e.id!);
  }
  return held;
}

/**
 * What the grid shows: the mirror quantity with the cell's active intents applied in order. A
 * failed one is not applied (the marketplace did not take it, or may not have), nor is an inverse
 * of a failed or conflicting entry. `cell` names the cell when a transfer may be among them.
 */
export function overlay(mirrorQuantity: number, entries: readonly OverlayEntry[], cell?: string): number {
  const held = heldInverses(entries);
  let q = mirrorQuantity;
  for (const e of entries) {
    if (e.state === 'failed' || (held !== null && held.has(e.id!))) continue;
    q = apply(q, e, cell);
  }
  return q;
}

/**
 * A new count's base: what the remote should hold just before it if every earlier active entry
 * applies, failed ones included (they hold the count back until retried, which applies them, or
 * dropped, which takes them out of this base).
 */
export function baseOverlay(mirrorQuantity: number, entries: readonly OverlayEntry[], cell?: string): number {
  let q = mirrorQuantity;
  for (const e of entries) q = apply(q, e, cell);
  return q;
}

/** What the person may do in each phase, and where it leads (the model-based test walks these). */
export const TRANSITIONS: Record<EntryPhase, Partial<Record<'undo' | 'discard' | 'retry' | 'resolve', EntryPhase | 'removed'>>> = {
  queued: { undo: 'removed', discard: 'removed' },
  on_wire: { undo: 'on_wire' },
  unknown: { undo: 'checking', discard: 'checking', retry: 'on_wire' },
  checking: {},
  done: { undo: 'done' },
  refused: { undo: 'removed', discard: 'removed', retry: 'queued' },
  conflict: { discard: 'removed', resolve: 'queued' },
};
