/**
 * A transfer of units from the focused store cell to another of the seller's stores (issue 14 §5):
 * quantity and destination, saved as one edit (one PUT carrying both stores once it is sent).
 * Keyboard: Ctrl+M on a cell or the "Transfer…" button opens it; Enter in the quantity saves; Esc closes.
 */
import { type FormEvent, useState } from 'react';
import { type ErrorWords, errorWords } from '../i18n/errors.js';
import { Dialog } from '../ui/Dialog.js';
import { columnLabel, findRow, useStock, useStockStore } from './store.js';
import { useStockWords } from './words.js';
import { Button } from '../ui/Button.js';

const MAX = 1_000_000;

export function TransferDialog() {
  const store = useStockStore();
  const w = useStockWords();
  const from = useStock((s) => s.transferFrom);
  const pages = useStock((s) => s.pages);
  const strays = useStock((s) => s.strays);
  const columns = useStock((s) => s.allColumns);
  const stores = columns.filter((c) => c.type === 'seller_warehouse' && c.key !== from?.column);
  const [units, setUnits] = useState('');
  const [to, setTo] = useState(stores[0]?.storeId ?? '');
  const [error, setError] = useState<ErrorWords | null>(null);
  const [busy, setBusy] = useState(false);
  const column = from ? columns.find((c) => c.key === from.column) : undefined;
  const row = from ? findRow({ pages, strays }, from.userProductId)?.row : undefined;
  if (!from || !column) return null;
  const close = () => store.getState().closeTransfer();
  const has = row?.cells[column.key]?.shown ?? 0;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const n = Number(units.trim());
    if (!/^\d+$/.test(units.trim()) || n < 1 || n > MAX) return setError({ text: w.t('transfer.bad', { max: w.formatNumber(MAX) }), detail: undefined });
    setBusy(true);
    const failed = await store.getState().transfer(to, n);
    setBusy(false);
    if (failed) setError(errorWords(failed, w.language));
  };

  return (
    <Dialog title={w.t('transfer.title', { product: row?.title ?? from.userProductId })} onClose={close} className="transfer-dialog">
      <form onSubmit={(e) => void submit(e)}>
        <p>{w.t('transfer.from', { store: columnLabel(column, w.t), quantity: w.formatNumber(has) })}</p>
        <p>
          <label>
            {w.t('transfer.units')}{' '}
            <input
              data-autofocus
              name="units"
              inputMode="numeric"
              autoComplete="off"
              value={units}
              aria-invalid={error !== null}
              aria-describedby={error ? 'transfer-error' : undefined}
              onChange={(e) => {
                setUnits(e.target.value);
                setError(null);
              }}
            />
          </label>
        </p>
        <p>
          <label>
            {w.t('transfer.to')}{' '}
            <select name="to" value={to} onChange={(e) => setTo(e.target.value)}>
              {stores.map((c) => (
                <option key={c.key} value={c.storeId ?? ''}>
                  {columnLabel(c, w.t)}
                </option>
              ))}
            </select>
          </label>
        </p>
        {error ? (
          <p id="transfer-error" role="alert" className="form-error" title={error.detail}>
            {error.text}
          </p>
        ) : null}
        <div className="ui-dialog-actions">
          <Button type="submit" variant="primary" disabled={busy || to === ''}>
            {w.t('transfer.submit')}
          </Button>
          <Button type="button" onClick={close}>
            {w.t('close')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
