/**
 * A count that met a different marketplace value: base, mine and theirs side by side, and three
 * choices — keep my count, use the marketplace's, or enter a new count. Each choice changes stock,
 * so none has focus when the dialog opens (the dialog itself has): a stray Enter, such as a
 * scanner's, resolves nothing; a choice takes a click or Tab to it and Enter / Space.
 *
 * Adjustments typed after the count are their own edits (issue 24): whichever count wins, they go
 * on top of it, so each choice says what the cell will then show ("Use marketplace: 20, plus your
 * later +2 → 22").
 */
import { useEffect, useState } from 'react';
import type { CellView } from '../../common/contract/contract.js';
import { type ErrorWords, errorWords } from '../i18n/errors.js';
import { Dialog } from '../ui/Dialog.js';
import { parseEdit } from './parse.js';
import { columnLabel, findRow, useStock, useStockStore } from './store.js';
import { useStockWords } from './words.js';
import { Button } from '../ui/Button.js';

export function ConflictDialog() {
  const store = useStockStore();
  const w = useStockWords();
  const address = useStock((s) => s.conflict);
  const pages = useStock((s) => s.pages);
  const strays = useStock((s) => s.strays);
  const allColumns = useStock((s) => s.allColumns);
  const [fresh, setFresh] = useState<CellView | null>(null);
  const [mode, setMode] = useState<'choose' | 'new'>('choose');
  const [text, setText] = useState('');
  const [error, setError] = useState<ErrorWords | null>(null);
  const [busy, setBusy] = useState(false);

  const located = address ? findRow({ pages, strays }, address.userProductId) : null;
  const column = address ? allColumns.find((c) => c.key === address.column) : undefined;
  const cell = fresh ?? (located && column ? located.row.cells[column.key] : undefined);

  // The latest view of the cell (with the times of the count and of the marketplace's change).
  useEffect(() => {
    if (!address || !column) return;
    let live = true;
    void store
      .getState()
      .api.stock.cell({ userProductId: address.userProductId, type: column.type, ...(column.storeId ? { storeId: column.storeId } : {}) })
      .then((r) => live && r.ok && setFresh(r.value));
    return () => {
      live = false;
    };
  }, [store, address, column]);

  if (!address || !column) return null;
  const close = () => store.getState().closeConflict();
  const product = located?.row.title ?? address.userProductId;
  const title = w.t('conflict.title', { column: columnLabel(column, w.t), product });
  const c = cell?.conflict;
  if (!cell || !c) {
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
  const n = (q: number | null) => (q === null ? w.t('conflict.unknown') : w.formatNumber(q));
  const text1 =
    c.countedAt && c.seenAt
      ? w.t('conflict.text', {
          local: n(c.local),
          countedAt: w.formatDate(c.countedAt, 'time'),
          base: n(c.base.quantity),
          remote: n(c.remote.quantity),
          seenAt: w.formatDate(c.seenAt, 'time'),
        })
      : w.t('conflict.textNoTime', { local: n(c.local), base: n(c.base.quantity), remote: n(c.remote.quantity) });

  const later = c.laterAdjustments;
  const laterText = later > 0 ? `+${w.formatNumber(later)}` : `−${w.formatNumber(-later)}`;
  const plus = (q: number) => ({ later: laterText, result: w.formatNumber(q + later) });

  const resolve = async (resolution: Parameters<ReturnType<typeof store.getState>['resolveConflict']>[1]) => {
    setBusy(true);
    setError(null);
    const e = await store.getState().resolveConflict(c.entryId, resolution);
    setBusy(false);
    if (e) {
      const words = errorWords(e, w.language);
      setError({ text: w.t('conflict.failed', { message: words.text }), detail: words.detail });
    }
  };
  const saveNew = () => {
    const edit = parseEdit(text);
    if (edit.kind !== 'count') {
      setError({
        text: w.t(edit.kind === 'adjust' ? 'edit.negative' : edit.kind === 'error' && edit.reason === 'range' ? 'edit.range' : 'edit.bad'),
        detail: undefined,
      });
      return;
    }
    void resolve({ action: 'new_count', quantity: edit.quantity });
  };

  return (
    <Dialog
      title={title}
      onClose={close}
      describedBy={later !== 0 ? 'conflict-text conflict-later' : 'conflict-text'}
      className="conflict-dialog"
      initialFocus="dialog"
    >
      <p id="conflict-text">{text1}</p>
      <dl className="conflict-values">
        <div>
          <dt>{w.t('conflict.base')}</dt>
          <dd>{n(c.base.quantity)}</dd>
        </div>
        <div>
          <dt>{w.t('conflict.local')}</dt>
          <dd>{n(c.local)}</dd>
        </div>
        <div>
          <dt>{w.t('conflict.remote')}</dt>
          <dd>{n(c.remote.quantity)}</dd>
        </div>
      </dl>
      {later !== 0 ? (
        <p className="conflict-later" id="conflict-later">
          {w.t('conflict.later', { later: laterText })}
        </p>
      ) : null}
      {mode === 'choose' ? (
        <div className="ui-dialog-actions">
          <Button type="button" disabled={busy} onClick={() => void resolve({ action: 'keep_mine' })}>
            {later === 0 ? w.t('conflict.keepMine', { local: n(c.local) }) : w.t('conflict.keepMinePlus', { local: n(c.local), ...plus(c.local) })}
          </Button>
          <Button type="button" disabled={busy || c.remote.quantity === null} onClick={() => void resolve({ action: 'take_theirs' })}>
            {later === 0 || c.remote.quantity === null
              ? w.t('conflict.useTheirs', { remote: n(c.remote.quantity) })
              : w.t('conflict.useTheirsPlus', { remote: n(c.remote.quantity), ...plus(c.remote.quantity) })}
          </Button>
          <Button type="button" disabled={busy} onClick={() => setMode('new')}>
            {w.t('conflict.newCount')}
          </Button>
        </div>
      ) : (
        <form
          className="ui-dialog-actions"
          onSubmit={(e) => {
            e.preventDefault();
            saveNew();
          }}
        >
          <label>
            {w.t('conflict.newCountLabel')}{' '}
            <input
              data-autofocus
              autoFocus
              inputMode="numeric"
              value={text}
              aria-invalid={error !== null}
              aria-describedby={error ? 'conflict-error' : undefined}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          <Button type="submit" disabled={busy}>
            {w.t('conflict.save')}
          </Button>
          <Button type="button" onClick={() => setMode('choose')}>
            {w.t('csv.cancel')}
          </Button>
        </form>
      )}
      {error ? (
        <p className="form-error" id="conflict-error" role="alert" title={error.detail}>
          {error.text}
        </p>
      ) : null}
    </Dialog>
  );
}
