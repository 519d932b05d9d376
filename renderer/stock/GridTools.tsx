/**
 * The grid's tools beside the filters: saved views (store, filters, order) chosen from a menu and
 * saved under a name, the "below reorder point" list and the reorder point of the focused cell,
 * shown in the View options panel (StockToolbar.tsx; the Excel export is in the File menu). Views and reorder points are kept in the profile's database (migration 015).
 */
import { useEffect, useState } from 'react';
import type { SavedGridViewView } from '../../common/contract/contract.js';
import { toast } from '../ui/Toast.js';
import { ColumnsMenu } from './ColumnsMenu.js';
import { columnLabel, rowAt, useStock, useStockStore, visibleColumns } from './store.js';
import { useStockWords } from './words.js';
import './grid-tools.css';

function ViewsMenu() {
  const store = useStockStore();
  const w = useStockWords();
  const [views, setViews] = useState<SavedGridViewView[]>([]);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState('');
  useEffect(() => {
    let live = true;
    void store
      .getState()
      .api.stock.views()
      .then((r) => {
        if (live && r.ok) setViews(r.value);
      });
    return () => {
      live = false;
    };
  }, [store]);

  const choose = (id: string) => {
    setChosen(id);
    const v = views.find((x) => String(x.id) === id);
    if (!v) return;
    const { belowReorder, sort, hidden, cover, ...rest } = v.query;
    // A view saved before columns could be hidden shows them all.
    store.getState().setHidden(hidden ?? []);
    void store.getState().setQuery({ ...rest, belowReorder, sort, cover: cover ?? false });
  };
  const save = async () => {
    const { query: q, hidden } = store.getState();
    const r = await store.getState().api.stock.saveView({
      name,
      query: {
        search: q.search,
        filter: q.filter,
        store: q.store,
        lowStock: q.lowStock,
        belowReorder: q.belowReorder ?? false,
        sort: q.sort ?? null,
        ...(hidden.length > 0 ? { hidden } : {}),
        ...(q.cover ? { cover: true } : {}),
      },
    });
    if (!r.ok) return store.getState().sayError('error', r.error);
    setViews(r.value);
    setChosen(String(r.value.find((v) => v.name === name.trim())?.id ?? ''));
    toast(w.t('views.saved', { name: name.trim() }));
    setName('');
  };
  const remove = async () => {
    const r = await store.getState().api.stock.deleteView({ id: Number(chosen) });
    if (!r.ok) return store.getState().sayError('error', r.error);
    setViews(r.value);
    setChosen('');
  };

  return (
    <span className="views-menu" role="group" aria-label={w.t('views.label')}>
      <label>
        {w.t('views.label')}{' '}
        <select value={chosen} onChange={(e) => choose(e.target.value)}>
          <option value="">{w.t('views.choose')}</option>
          {views.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}
            </option>
          ))}
        </select>
      </label>{' '}
      {chosen !== '' ? (
        <button type="button" onClick={() => void remove()}>
          {w.t('views.delete')}
        </button>
      ) : null}
      <input type="text" aria-label={w.t('views.name')} placeholder={w.t('views.name')} maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
      <button type="button" disabled={name.trim() === ''} onClick={() => void save()}>
        {w.t('views.save')}
      </button>
    </span>
  );
}

/** The focused cell's reorder point: a number and Save, or Remove. */
function ReorderPoint() {
  const store = useStockStore();
  const w = useStockWords();
  // Two selectors, each answering an object the state already holds (a fresh object would re-render forever).
  const focusedRow = useStock((s) => rowAt(s, s.active.row));
  const focusedColumn = useStock((s) => visibleColumns(s)[s.active.col]);
  const at = focusedRow && focusedColumn ? { row: focusedRow, column: focusedColumn } : null;
  const current = at ? at.row.reorder?.[at.column.key] : undefined;
  const [text, setText] = useState('');
  useEffect(() => setText(current === undefined ? '' : String(current)), [current, at?.row.userProductId, at?.column.key]);
  if (!at || (at.column.type !== 'seller_warehouse' && at.column.type !== 'selling_address')) {
    return <span className="reorder-point muted">{w.t('reorder.none')}</span>;
  }
  const product = at.row.title ?? at.row.userProductId;
  const column = columnLabel(at.column, w.t);
  const set = async (point: number | null) => {
    const r = await store.getState().api.stock.setReorderPoint({
      userProductId: at.row.userProductId,
      type: at.column.type,
      ...(at.column.storeId ? { storeId: at.column.storeId } : {}),
      point,
    });
    if (!r.ok) return store.getState().sayError('error', r.error);
    store.getState().stockChanged([at.row.userProductId]);
    store.getState().say(point === null ? 'reorder.cleared' : 'reorder.saved', { product, column, point: point ?? 0 });
  };
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= 1_000_000;
  return (
    <form
      className="reorder-point"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) void set(n);
      }}
    >
      <label>
        {w.t('reorder.button')}{' '}
        <input
          type="number"
          min={0}
          max={1000000}
          className="threshold"
          aria-label={w.t('reorder.label', { product, column })}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </label>{' '}
      <button type="submit" disabled={!valid}>
        {w.t('reorder.set')}
      </button>
      {current !== undefined ? (
        <button type="button" onClick={() => void set(null)}>
          {w.t('reorder.clear')}
        </button>
      ) : null}
    </form>
  );
}

export function GridTools() {
  const store = useStockStore();
  const w = useStockWords();
  const below = useStock((s) => s.query.belowReorder === true);
  const cover = useStock((s) => s.query.cover === true);
  return (
    <div className="grid-tools">
      <ViewsMenu />
      <ColumnsMenu />
      <label>
        <input type="checkbox" checked={below} onChange={(e) => void store.getState().setQuery({ belowReorder: e.target.checked })} />{' '}
        {w.t('filter.belowReorder')}
      </label>
      <label>
        <input type="checkbox" checked={cover} onChange={(e) => void store.getState().setQuery({ cover: e.target.checked })} /> {w.t('cover.toggle')}
      </label>
      <ReorderPoint />
    </div>
  );
}
