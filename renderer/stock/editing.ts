/**
 * Editing a stock cell: opening the editor (a conflict cell opens its dialog, a locked cell says
 * why), the text typed, and saving it as a count or an adjustment through the core.
 *
 * Where edits queue for the marketplace (a replica, online or offline), the cell shows the new
 * quantity as queued at the Enter, in the same frame, before the core's answer: the answer then
 * puts the core's own figures, and a refusal puts the cell back as it was and reopens the editor
 * with the reason, so a refused edit never stays on screen as queued. Where edits do not queue (the
 * local demo data), or before the mode is known, the cell says "saving" until the answer.
 */
import { isEditableType } from '../../common/stock-vocabulary.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import type { ApiError, CellView, QueueResultView } from '../../common/contract/contract.js';
import { isGtin } from '../../common/gtin.js';
import { type Edit, afterEdit, jumpLimit, parseEdit } from './parse.js';
import { cellAt, cellKeyOf, columnLabel, lockOf, lockText, tr } from './selectors.js';
import type { StockKit, StockState } from './state.js';

export function editingActions({
  set,
  get,
  api,
}: StockKit): Pick<StockState, 'startEdit' | 'setEditText' | 'cancelEdit' | 'commitEdit' | 'confirmEdit' | 'findEditCode'> {
  /** Whether an edit queues for the marketplace (not 'local-only'); null until the core has said. */
  let queues: boolean | null = null;
  return {
    startEdit(text) {
      // Asked again at each edit (the mode can change in Settings); the answer is in long before the Enter.
      void api.sync.status().then((r) => {
        if (r.ok) queues = r.value.mode !== 'local-only';
      });
      const s = get();
      // A new action: an earlier notice ("Scanned …", "Count 40 saved") is not about this one.
      s.act();
      const at = cellAt(s, s.active.row, s.active.col);
      if (!at) return;
      const cell = at.row.cells[at.column.key];
      if (cell?.state === 'conflict') {
        s.openConflict({ userProductId: at.row.userProductId, column: at.column.key });
        return;
      }
      // Enter (no text typed) on a failed cell opens the failed edit: Retry, Discard or Edit (issue 14 §7).
      if (cell?.state === 'failed' && text === undefined && s.openFailed({ userProductId: at.row.userProductId, column: at.column.key })) return;
      const lock = lockOf(at.column, cell, at.row);
      if (lock) {
        s.say('lock.why', { reason: lockText(lock, at.column) }, 'error');
        return;
      }
      set({ editing: { row: s.active.row, col: s.active.col, text: text ?? String(cell?.shown ?? ''), error: null } });
    },

    setEditText(text) {
      const e = get().editing;
      if (e) set({ editing: { ...e, text, error: null, ask: undefined, confirmed: undefined } });
    },

    confirmEdit() {
      const e = get().editing;
      if (!e?.ask) return Promise.resolve(false);
      set({ editing: { ...e, ask: undefined, confirmed: true } });
      return get().commitEdit('none');
    },

    async findEditCode() {
      const e = get().editing;
      if (!e) return;
      get().cancelEdit();
      await get().locate(e.text.trim(), { scan: true });
    },

    cancelEdit() {
      if (get().editing) set((s) => ({ editing: null, focusSeq: s.focusSeq + 1 }));
    },

    async commitEdit(move = 'none') {
      const s = get();
      const e = s.editing;
      if (!e) return false;
      const at = cellAt(s, e.row, e.col);
      if (!at) {
        set({ editing: null });
        return false;
      }
      const cell = at.row.cells[at.column.key];
      const type = at.column.type;
      // Only editable columns open an editor; this keeps the type honest without a cast.
      if (!isEditableType(type)) {
        s.cancelEdit();
        return false;
      }
      // Digits with a valid GTIN check digit are a slow scanner's code more likely than a count: asked, never saved silently.
      if (!e.confirmed && isGtin(e.text)) {
        set({ editing: { ...e, ask: 'code', error: null } });
        return false;
      }
      const edit: Edit = parseEdit(e.text);
      if (edit.kind === 'error') {
        if (edit.reason === 'empty') {
          s.cancelEdit();
          return false;
        }
        set({ editing: { ...e, error: tr(edit.reason === 'zero' ? 'edit.zero' : edit.reason === 'range' ? 'edit.range' : 'edit.bad') } });
        return false;
      }
      const shown = cell?.shown ?? 0;
      const moveAfter = () => {
        const t = get();
        if (move === 'down') t.moveTo(e.row + 1, e.col);
        else if (move === 'right') t.moveTo(e.row, e.col + 1);
        else if (move === 'left') t.moveTo(e.row, e.col - 1);
        else set({ focusSeq: t.focusSeq + 1 });
      };
      // Enter on an unchanged value is not an edit.
      if (edit.kind === 'count' && cell && edit.quantity === shown && e.text.trim() === String(shown)) {
        set({ editing: null });
        moveAfter();
        return true;
      }
      if (!e.confirmed && edit.kind === 'count' && edit.quantity > jumpLimit(shown)) {
        set({ editing: { ...e, ask: 'jump', error: null } });
        return false;
      }
      if (afterEdit(shown, edit) < 0) {
        set({ editing: { ...e, error: tr(edit.kind === 'count' ? 'edit.range' : 'csv.err.negative', { result: afterEdit(shown, edit) }) } });
        return false;
      }
      const key = cellKeyOf(at.row.userProductId, at.column.key);
      const action = get().act();
      const ref = {
        userProductId: at.row.userProductId,
        type,
        ...(at.column.storeId ? { storeId: at.column.storeId } : {}),
      };
      // Queued at once where edits queue and the cell exists; otherwise "saving" until the answer.
      const optimistic = queues === true && cell !== undefined;
      if (optimistic) {
        set({ editing: null });
        get().putCell({ ...cell, shown: afterEdit(shown, edit), state: cell.state === 'conflict' ? 'conflict' : 'pending' });
      } else set((t) => ({ editing: null, saving: { ...t.saving, [key]: true } }));
      moveAfter();
      const r: { ok: true; value: QueueResultView } | { ok: false; error: ApiError } =
        edit.kind === 'count'
          ? await api.stock.count({ ...ref, quantity: edit.quantity })
          : await api.stock.adjust({ ...ref, delta: edit.delta, reason: get().reason });
      if (!optimistic) {
        set((t) => {
          const saving = { ...t.saving };
          delete saving[key];
          return { saving };
        });
      }
      if (!r.ok) {
        // The cell as it was (not queued), and back into it with the core's reason beside it.
        if (optimistic) get().putCell(cell);
        get().moveTo(e.row, e.col);
        set({ editing: { ...e, error: tr('edit.failed', { message: errorText(r.error) }), errorDetail: errorDetail(r.error) } });
        return false;
      }
      const base: CellView = cell ?? {
        userProductId: at.row.userProductId,
        type: at.column.type,
        storeId: at.column.storeId,
        cell: `${at.row.userProductId}|${at.column.type}|${at.column.storeId ?? ''}`,
        remote: { quantity: null, version: null },
        shown: 0,
        state: 'synced',
        editable: true,
        entries: [],
        conflict: null,
        error: null,
      };
      get().putCell({
        ...base,
        shown: r.value.shown,
        state: r.value.entryId === null ? (base.state === 'synced' ? 'synced' : base.state) : base.state === 'conflict' ? 'conflict' : 'pending',
      });
      // Said only when no other action began meanwhile; the notice follows the cell if it then fails (notices.ts).
      const product = at.row.title ?? at.row.userProductId;
      const columnName = columnLabel(at.column);
      if (get().isLatest(action)) {
        get().sayAbout(
          { cell: { userProductId: at.row.userProductId, column: at.column.key }, product, columnName },
          edit.kind === 'count' ? 'edit.savedCount' : 'edit.savedAdjust',
          {
            quantity: edit.kind === 'count' ? edit.quantity : 0,
            delta: edit.kind === 'adjust' ? (edit.delta > 0 ? `+${edit.delta}` : String(edit.delta)) : '',
            column: columnName,
            product,
          },
        );
      }
      // The exact state (merged entries, a cancelled edit) comes with the core's stock.changed event.
      return true;
    },
  };
}
