/**
 * A failed edit of a cell (issue 14 §7): what the person asked, the marketplace's reason in
 * words, and Retry / Discard / Edit. Opened by Enter or a click on a failed cell, or by the status
 * bar's "N failed". No choice has focus when it opens (the dialog itself has): a stray Enter changes nothing.
 *
 * An edit of unknown outcome (issue 24: sent, its answer lost) is not called refused: the dialog
 * says the marketplace may already have it, and what Retry (a resend the marketplace does not
 * apply twice) and Discard (a check first, dropped only if it never arrived) do.
 */
import { useId, useState } from 'react';
import type { ApiError } from '../../common/contract/contract.js';
import { type ErrorWords, errorOfStatus, errorWords } from '../i18n/errors.js';
import { entryText } from './GridCell.js';
import { Dialog } from '../ui/Dialog.js';
import { columnLabel, findRow, useStock, useStockStore } from './store.js';
import { useStockWords } from './words.js';
import { Button } from '../ui/Button.js';

export function FailedDialog() {
  const store = useStockStore();
  const w = useStockWords();
  const at = useStock((s) => s.failedAt);
  const pages = useStock((s) => s.pages);
  const strays = useStock((s) => s.strays);
  const columns = useStock((s) => s.allColumns);
  const [error, setError] = useState<ErrorWords | null>(null);
  const [busy, setBusy] = useState(false);
  const hintId = useId();
  const column = at ? columns.find((c) => c.key === at.column) : undefined;
  const row = at ? findRow({ pages, strays }, at.userProductId)?.row : undefined;
  if (!at || !column) return null;
  const cell = row?.cells[column.key];
  const entry = cell?.entries.find((e) => e.id === cell.error?.entryId) ?? cell?.entries.find((e) => e.state === 'failed');
  const close = () => store.getState().closeFailed();
  const unknown = cell?.error?.unknown === true;
  const title = w.t(unknown ? 'failed.titleUnknown' : 'failed.title', { column: columnLabel(column, w.t), product: row?.title ?? at.userProductId });
  const storeName = (id: string) => columns.find((c) => c.storeId === id)?.label ?? id;
  const act = async (run: () => Promise<ApiError | null>) => {
    setBusy(true);
    const failed = await run();
    setBusy(false);
    if (failed) setError(errorWords(failed, w.language));
  };
  if (!cell || !entry || !cell.error) {
    return (
      <Dialog title={title} onClose={close}>
        <p>{w.t('conflict.gone')}</p>
        <div className="ui-dialog-actions">
          <Button type="button" onClick={close}>
            {w.t('close')}
          </Button>
        </div>
      </Dialog>
    );
  }
  const entryId = entry.id;
  const why = errorWords(errorOfStatus(cell.error), w.language);
  return (
    <Dialog title={title} onClose={close} className="failed-dialog" initialFocus="dialog">
      <p>{w.t('failed.what', { op: entryText(w, entry, cell, storeName) })}</p>
      {unknown ? <p className="failed-unknown">{w.t('failed.unknownText')}</p> : null}
      <h3 className="failed-why">{w.t(unknown ? 'failed.lastProblem' : 'failed.why')}</h3>
      <p className="failed-message" title={why.detail}>
        {why.text}
      </p>
      <p className="failed-status">
        {cell.error.status !== null ? w.t('failed.status', { status: cell.error.status }) : w.t(unknown ? 'failed.noAnswer' : 'failed.noStatus')}
      </p>
      <p>{w.t(unknown ? 'failed.unknownNotShown' : 'failed.notShown')}</p>
      {unknown ? (
        <ul className="failed-choices">
          <li id={`${hintId}-retry`}>{w.t('failed.retryUnknown')}</li>
          <li id={`${hintId}-discard`}>{w.t('failed.discardUnknown')}</li>
        </ul>
      ) : null}
      {error ? (
        <p role="alert" className="form-error" title={error.detail}>
          {error.text}
        </p>
      ) : null}
      <div className="ui-dialog-actions">
        <Button
          type="button"
          variant="primary"
          disabled={busy}
          aria-describedby={unknown ? `${hintId}-retry` : undefined}
          onClick={() => void act(() => store.getState().retryFailed(entryId))}
        >
          {w.t('failed.retry')}
        </Button>
        <Button
          type="button"
          disabled={busy}
          aria-describedby={unknown ? `${hintId}-discard` : undefined}
          onClick={() => void act(() => store.getState().discardFailed(entryId))}
        >
          {w.t('failed.discard')}
        </Button>
        <Button type="button" disabled={busy} onClick={() => store.getState().editFailed()}>
          {w.t('failed.edit')}
        </Button>
        <Button type="button" onClick={close}>
          {w.t('close')}
        </Button>
      </div>
    </Dialog>
  );
}
