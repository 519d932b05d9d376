/**
 * Beside the grid: the reason given to + / − adjustments (the last one picked stays; a typed count
 * is always 'count'), "Transfer…" from the focused cell (Ctrl+M), and undo of the last edit (Ctrl+Z).
 */
import { PICKABLE_REASONS } from '../../common/stock-reasons.js';
import type { PickableReason } from './state.js';
import { useStock, useStockStore } from './store.js';
import { useStockWords } from './words.js';

const isPickable = (s: string): s is PickableReason => (PICKABLE_REASONS as readonly string[]).includes(s);

export function EditTools() {
  const store = useStockStore();
  const w = useStockWords();
  const reason = useStock((s) => s.reason);
  return (
    <div className="edit-tools" role="group" aria-label={w.t('reason.label')}>
      <label>
        {w.t('reason.label')}{' '}
        <select
          name="reason"
          value={reason}
          onChange={(e) => {
            if (isPickable(e.target.value)) store.getState().setReason(e.target.value);
          }}
        >
          {PICKABLE_REASONS.map((r) => (
            <option key={r} value={r}>
              {w.t(`reason.${r}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="button" title={w.t('transfer.keys')} aria-keyshortcuts="Control+M" onClick={() => store.getState().openTransfer()}>
        {w.t('transfer.open')}
      </button>
      <button type="button" title={w.t('undo.keys')} aria-keyshortcuts="Control+Z" onClick={() => void store.getState().undo()}>
        {w.t('undo.button')}
      </button>
    </div>
  );
}
