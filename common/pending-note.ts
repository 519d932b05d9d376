/**
 * The queued edits of a grid row in words, for the exports' `Pending` column (issue 14 §6): each
 * edit's location, change and reason, e.g. `Depósito Palermo: +5 received; Depósito Norte: =40 count
 * (conflict)`. The column is a note: the imports skip it, so an export reads back as before.
 */
import type { EntryView, GridColumnView, GridRowView } from './views.js';

/** The header of the note column (the imports skip it). */
export const PENDING_HEADER = 'Pending';

/** A reason code as words in the file (`sold_elsewhere` → `sold elsewhere`). */
const words = (code: string) => code.replace(/_/g, ' ');

function change(e: EntryView): string {
  if (e.transfer) return `${e.delta !== null && e.delta < 0 ? '-' : '+'}${e.transfer.units} transfer ${e.transfer.from} → ${e.transfer.to}`;
  if (e.op === 'count') return `=${e.quantity ?? ''}`;
  return e.delta !== null && e.delta < 0 ? `-${-e.delta}` : `+${e.delta ?? 0}`;
}

function entryText(e: EntryView): string {
  const reason = e.reason ?? (e.op === 'count' ? 'count' : null);
  const state = e.state === 'conflict' || e.state === 'failed' ? ` (${e.state})` : '';
  return `${change(e)}${reason && !e.transfer ? ` ${words(reason)}` : ''}${state}`;
}

/** The header of the exports' second note column: each cell's newest edit and its reason (the imports skip it). */
export const LAST_CHANGE_HEADER = 'Last change';

const two = (n: number) => String(n).padStart(2, '0');
/**
 * A moment in the local time of the machine that writes the file (a person reads it against their
 * own clock), with its offset so the file still says when it was: `2026-11-23 11:02 -03:00`.
 * `offset`: minutes east of UTC (the machine's at that moment by default).
 */
export function minute(at: number, offset = -new Date(at).getTimezoneOffset()): string {
  const d = new Date(at + offset * 60_000);
  const zone = `${offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} ${zone}`;
}

/**
 * Each cell's newest edit in words (the history's, so a local-only edit's reason is in the export
 * as a queued one's is), e.g. `Depósito Palermo: +5 received, 2026-11-23 11:02 -03:00` (local time), with the operator
 * who made it when there was one: `Depósito Palermo: +5 received by Ana, 2026-11-23 11:02 -03:00`.
 */
export function lastChangeNote(columns: Pick<GridColumnView, 'key' | 'label'>[], row: Pick<GridRowView, 'lastChanges'>): string {
  const parts: string[] = [];
  for (const c of columns) {
    const h = row.lastChanges?.[c.key];
    if (h === undefined) continue;
    const what = h.kind === 'count' ? `=${h.to_quantity ?? ''}` : h.delta !== null && h.delta < 0 ? `-${-h.delta}` : `+${h.delta ?? 0}`;
    const why = h.undoes ? 'undo' : (h.reason ?? (h.kind === 'count' ? 'count' : null));
    // The workstation's operator when one made it (issue 27); the account alone is not repeated on every cell.
    const who = h.operator_name ? ` by ${h.operator_name}` : '';
    parts.push(`${c.label}: ${what}${why ? ` ${words(why)}` : ''}${who}, ${minute(h.at)}`);
  }
  return parts.join('; ');
}

/** The row's queued edits in the columns' order, or '' when nothing is queued. */
export function pendingNote(columns: Pick<GridColumnView, 'key' | 'label'>[], row: GridRowView): string {
  const parts: string[] = [];
  for (const c of columns) {
    const entries = row.cells[c.key]?.entries.filter((e) => e.state !== 'done') ?? [];
    if (entries.length > 0) parts.push(`${c.label}: ${entries.map(entryText).join(', ')}`);
  }
  return parts.join('; ');
}
