/** Who changed the focused cell, when, from what to what, and how (adjustment, count, synced, conflict resolution). */
import { useEffect, useState } from 'react';
import type { ApiError, HistoryEntryView } from '../../common/contract/contract.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import { columnEditable } from './columns.js';
import { StockInsight } from './StockInsight.js';
import { columnLabel, rowAt, useStock, useStockStore, visibleColumns } from './store.js';
import { useStockWords } from './words.js';

/** Rows read at a time; a full page means there may be older ones. */
const PAGE = 50;

/** The other store of a transfer row, as its note names it ("transfer to 64713"): its name when it is a column. */
function useTransferStore(): (note: string) => string {
  const columns = useStock((s) => s.allColumns);
  return (note) => {
    const m = /transfer (to|from) (\S+)/.exec(note);
    if (!m) return '';
    const name = columns.find((c) => c.storeId === m[2])?.label ?? m[2]!;
    return `${m[1] === 'to' ? '→' : '←'} ${name}`;
  };
}

export function HistoryPanel() {
  const store = useStockStore();
  const w = useStockWords();
  const active = useStock((s) => s.active);
  const row = useStock((s) => rowAt(s, s.active.row));
  const column = useStock((s) => visibleColumns(s)[s.active.col]);
  const stockSeq = useStock((s) => s.stockSeq);
  const transferStore = useTransferStore();
  const [entries, setEntries] = useState<HistoryEntryView[] | null>(null);
  const [more, setMore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  const userProductId = row?.userProductId;
  const editable = column && columnEditable(column);
  useEffect(() => {
    if (!userProductId || !column || !editable) {
      setEntries(null);
      return;
    }
    let live = true;
    // A short wait: moving with the arrow keys does not read every cell passed.
    const timer = setTimeout(() => {
      void store
        .getState()
        .api.stock.history({ userProductId, type: column.type, ...(column.storeId ? { storeId: column.storeId } : {}), limit: PAGE })
        .then((r) => {
          if (!live) return;
          if (r.ok) {
            setEntries(r.value);
            setMore(r.value.length === PAGE);
            setError(null);
          } else setError(r.error);
        });
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [store, userProductId, column, editable, stockSeq, active.row]);

  const loadOlder = () => {
    const last = entries?.at(-1);
    if (!userProductId || !column || !last || loadingOlder) return;
    setLoadingOlder(true);
    void store
      .getState()
      .api.stock.history({ userProductId, type: column.type, ...(column.storeId ? { storeId: column.storeId } : {}), limit: PAGE, before: last.id })
      .then((r) => {
        setLoadingOlder(false);
        if (!r.ok) return setError(r.error);
        // The cell may have moved on meanwhile: only rows older than the last one shown are added.
        setEntries((shown) => (shown && shown.at(-1)?.id === last.id ? [...shown, ...r.value] : shown));
        setMore(r.value.length === PAGE);
      });
  };

  const heading = row && column ? w.t('history.of', { column: columnLabel(column, w.t), product: row.title ?? row.userProductId }) : w.t('history.title');
  return (
    <aside className="history-panel" aria-labelledby="stock-history-title">
      <div className="history-head">
        <h2 id="stock-history-title">{heading}</h2>
        <button type="button" onClick={() => store.getState().toggleHistory(false)}>
          {w.t('history.hide')}
        </button>
      </div>
      {row ? <StockInsight row={row} /> : null}
      {!row || !column ? (
        <p>{w.t('history.pick')}</p>
      ) : !editable ? (
        <p>{w.t('lock.platform_managed')}</p>
      ) : error ? (
        <p role="alert" title={errorDetail(error, w.language)}>
          {w.t('error', { message: errorText(error, w.language) })}
        </p>
      ) : entries === null ? (
        <p>{w.t('loading')}</p>
      ) : entries.length === 0 ? (
        <p>{w.t('history.empty')}</p>
      ) : (
        <table className="history-table">
          <thead>
            <tr>
              <th scope="col">{w.t('history.col.when')}</th>
              <th scope="col">{w.t('history.col.who')}</th>
              <th scope="col">{w.t('history.col.kind')}</th>
              <th scope="col">{w.t('history.col.reason')}</th>
              <th scope="col">{w.t('history.col.change')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-kind={e.kind} data-reason={e.reason ?? undefined}>
                <td>{w.formatDate(e.at, 'datetime')}</td>
                {/* The workstation's operator when one made it (issue 27), the account otherwise; the account in the tooltip. */}
                <td title={e.kind !== 'synced' && e.operator_name ? w.t('history.account', { account: e.author }) : undefined}>
                  {e.kind === 'synced' ? w.t('history.marketplace') : (e.operator_name ?? e.author)}
                </td>
                <td>
                  {w.t(`history.kind.${e.kind}`)}
                  {e.delta !== null && e.delta !== 0 ? ` (${e.delta > 0 ? '+' : ''}${w.formatNumber(e.delta)})` : ''}
                </td>
                <td>
                  {/* A count's reason is "count": the kind already says it. */}
                  {e.reason && !(e.kind === 'count' && e.reason === 'count') ? w.t(`reason.${e.reason}`) : ''}
                  {e.undoes ? ` · ${w.t('history.undo')}` : ''}
                  {e.reason === 'transfer' && e.note ? ` · ${transferStore(e.note)}` : ''}
                </td>
                <td>
                  {w.t('history.fromTo', {
                    from: e.from_quantity === null ? '—' : w.formatNumber(e.from_quantity),
                    to: e.to_quantity === null ? '—' : w.formatNumber(e.to_quantity),
                  })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {entries && entries.length > 0 && more ? (
        <button type="button" className="history-older" onClick={loadOlder} disabled={loadingOlder}>
          {loadingOlder ? w.t('loading') : w.t('history.older')}
        </button>
      ) : null}
    </aside>
  );
}
