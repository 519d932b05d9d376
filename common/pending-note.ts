/**
 * The queued edits of a grid row in words, for the exports' `Pending` column (issue 14 §6): each
 * edit's location, change and reason, e.g. `Depósito Palermo: +5 received; Depósito Norte: =40 count
 * (conflict)`. The column is a note: the imports skip it, so an export reads back as before.
 */
import type { EntryView, GridColumnView, GridRowView } from './views.js';

/** The header of the note column (the imports skip it). */
export const PENDING_HEADER = 'Pending';

function change(e: EntryView): string {
  if (e.transfer) return `${e.delta !== null && e.delta < 0 ? '-' : '+'}${e.transfer.units} transfer ${e.transfer.from} → ${e.transfer.to}`;
  if (e.op === 'count') return `=${e.quantity ?? ''}`;
  return e.delta !== null && e.delta < 0 ? `-${-e.delta}` : `+${e.delta ?? 0}`;
}

function entryText(e: EntryView): string {
  const reason = e.reason ?? (e.op === 'count' ? 'count' : null);
  const state = e.state === 'conflict' || e.state === 'failed' ? ` (${e.state})` : '';
  return `${change(e)}${reason && !e.transfer ? ` ${reason}` : ''}${state}`;
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
