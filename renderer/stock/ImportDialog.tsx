/**
 * CSV import: choose a file → a dry run against the grid as it is now (every change: line, product,
 * store, old, new, kind; every rejected line with its reason) → nothing is queued until "Apply".
 */
import { useState } from 'react';
import type { GridColumnView, RowsView } from '../../preload/contract.js';
import { type Change, type Diff, type Reason, type Rejected, diffImport, idsOf, planImport } from './csv.js';
import { Modal } from './Modal.js';
import { columnLabel, lockText, useStockStore } from './store.js';
import { type StockWords, useStockWords } from './words.js';

const LOOKUP_CHUNK = 1000;
const MAX_SHOWN = 500;

type Phase =
  | { step: 'choose'; error: Reason | null }
  | { step: 'reading'; name: string }
  | { step: 'preview'; name: string; diff: Diff }
  | { step: 'applying'; name: string; diff: Diff; done: number }
  | { step: 'done'; name: string; diff: Diff; done: number; failed: { change: Change; message: string }[] };

function reasonText(w: StockWords, r: Reason): string {
  return w.t(r.key, r.vars);
}

function kindText(w: StockWords, c: Change): string {
  return c.edit.kind === 'count' ? w.t('csv.kind.count') : w.t('csv.kind.adjustment', { delta: c.edit.delta > 0 ? `+${c.edit.delta}` : String(c.edit.delta) });
}

export function ImportDialog() {
  const store = useStockStore();
  const w = useStockWords();
  const [phase, setPhase] = useState<Phase>({ step: 'choose', error: null });
  const close = () => {
    if (phase.step === 'applying') return;
    store.getState().setDialog(null);
  };

  const read = async (file: File) => {
    setPhase({ step: 'reading', name: file.name });
    const plan = planImport(await file.text());
    if ('error' in plan) return setPhase({ step: 'choose', error: plan.error });
    const ids = idsOf(plan);
    const api = store.getState().api;
    const merged: RowsView = { columns: store.getState().allColumns, rows: [], missing: [], aliases: {} };
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      const r = await api.stock.rows({ ids: ids.slice(i, i + LOOKUP_CHUNK) });
      if (!r.ok) return setPhase({ step: 'choose', error: { key: 'error', vars: { message: r.error.message } } });
      merged.columns = r.value.columns;
      merged.rows.push(...r.value.rows);
      merged.missing.push(...r.value.missing);
      Object.assign(merged.aliases, r.value.aliases);
    }
    const diff = diffImport(plan, merged, (reason: string, column: GridColumnView) => lockText(reason, column, w.t));
    return setPhase({ step: 'preview', name: file.name, diff });
  };

  const apply = async (name: string, diff: Diff) => {
    const api = store.getState().api;
    const failed: { change: Change; message: string }[] = [];
    let done = 0;
    const total = diff.changes.length;
    setPhase({ step: 'applying', name, diff, done: 0 });
    store.getState().setActivity({ kind: 'import', done: 0, total });
    try {
      for (const c of diff.changes) {
        const ref = {
          userProductId: c.userProductId,
          type: c.column.type as 'seller_warehouse' | 'selling_address',
          ...(c.column.storeId ? { storeId: c.column.storeId } : {}),
          ref: `CSV ${name.slice(0, 150)} line ${c.line}`,
        };
        const r =
          c.edit.kind === 'count' ? await api.stock.count({ ...ref, quantity: c.edit.quantity }) : await api.stock.adjust({ ...ref, delta: c.edit.delta });
        if (r.ok) done++;
        else failed.push({ change: c, message: r.error.message });
        store.getState().setActivity({ kind: 'import', done: done + failed.length, total });
        if ((done + failed.length) % 25 === 0) setPhase({ step: 'applying', name, diff, done: done + failed.length });
      }
    } finally {
      store.getState().setActivity(null);
    }
    setPhase({ step: 'done', name, diff, done, failed });
    store
      .getState()
      .say(failed.length === 0 ? 'csv.applied' : 'csv.appliedSome', { done, total, failed: failed.length }, failed.length === 0 ? 'info' : 'error');
  };

  return (
    <Modal title={w.t('csv.importTitle')} onClose={close} className="import-dialog">
      {phase.step === 'choose' ? (
        <>
          <p className="help">{w.t('csv.importHelp')}</p>
          <label className="file-pick">
            {w.t('csv.choose')}{' '}
            <input
              type="file"
              accept=".csv,text/csv"
              data-autofocus
              aria-describedby={phase.error ? 'import-error' : undefined}
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) void read(f);
              }}
            />
          </label>
          {phase.error ? (
            <p id="import-error" className="form-error" role="alert">
              {reasonText(w, phase.error)}
            </p>
          ) : null}
        </>
      ) : phase.step === 'reading' ? (
        <p role="status">{w.t('csv.reading', { name: phase.name })}</p>
      ) : (
        <Preview w={w} phase={phase} />
      )}
      <div className="modal-actions">
        {phase.step === 'preview' ? (
          <button type="button" className="primary" disabled={phase.diff.changes.length === 0} onClick={() => void apply(phase.name, phase.diff)}>
            {w.t('csv.apply', { count: phase.diff.changes.length })}
          </button>
        ) : null}
        <button type="button" disabled={phase.step === 'applying'} onClick={close}>
          {phase.step === 'done' ? w.t('close') : w.t('csv.cancel')}
        </button>
      </div>
    </Modal>
  );
}

function Preview({ w, phase }: { w: StockWords; phase: Extract<Phase, { step: 'preview' | 'applying' | 'done' }> }) {
  const { diff } = phase;
  const failedByLine = new Map(phase.step === 'done' ? phase.failed.map((f) => [`${f.change.line}|${f.change.column.key}`, f.message]) : []);
  const rejected: Rejected[] = diff.rejected;
  return (
    <div className="import-preview">
      {phase.step === 'applying' ? (
        <p role="status">
          <progress max={diff.changes.length} value={phase.done} /> {w.t('csv.applying', { done: phase.done, total: diff.changes.length })}
        </p>
      ) : null}
      {phase.step === 'done' ? (
        <p role="status">
          {phase.failed.length === 0
            ? w.t('csv.applied', { done: phase.done })
            : w.t('csv.appliedSome', { done: phase.done, total: diff.changes.length, failed: phase.failed.length })}
        </p>
      ) : null}
      <h3>
        {w.t('csv.preview')}: {w.t('csv.previewCount', { count: diff.changes.length })}
        {diff.unchanged > 0 ? ` · ${w.t('csv.unchanged', { count: diff.unchanged })}` : ''}
      </h3>
      {diff.changes.length === 0 ? (
        <p>{w.t('csv.nothing')}</p>
      ) : (
        <div className="table-scroll">
          <table className="preview-table" aria-label={w.t('csv.preview')}>
            <thead>
              <tr>
                <th scope="col">{w.t('csv.col.line')}</th>
                <th scope="col">{w.t('csv.col.row')}</th>
                <th scope="col">{w.t('csv.col.store')}</th>
                <th scope="col">{w.t('csv.col.old')}</th>
                <th scope="col">{w.t('csv.col.new')}</th>
                <th scope="col">{w.t('csv.col.kind')}</th>
                {phase.step === 'done' && phase.failed.length > 0 ? <th scope="col">{w.t('csv.col.reason')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {diff.changes.slice(0, MAX_SHOWN).map((c) => {
                const failed = failedByLine.get(`${c.line}|${c.column.key}`);
                return (
                  <tr key={`${c.line}|${c.column.key}`} data-failed={failed ? true : undefined}>
                    <td>{c.line}</td>
                    <td>
                      {c.title ?? ''} <span className="muted">{c.userProductId}</span>
                    </td>
                    <td>{columnLabel(c.column, w.t)}</td>
                    <td>{w.formatNumber(c.old)}</td>
                    <td>{w.formatNumber(c.new)}</td>
                    <td>{kindText(w, c)}</td>
                    {phase.step === 'done' && phase.failed.length > 0 ? <td>{failed ? `! ${w.t('csv.err.failed', { message: failed })}` : ''}</td> : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
          {diff.changes.length > MAX_SHOWN ? <p className="muted">… +{w.formatNumber(diff.changes.length - MAX_SHOWN)}</p> : null}
        </div>
      )}
      {rejected.length > 0 ? (
        <>
          <h3>
            {w.t('csv.rejected')}: {w.t('csv.rejectedCount', { count: rejected.length })}
          </h3>
          <div className="table-scroll">
            <table className="rejected-table" aria-label={w.t('csv.rejected')}>
              <thead>
                <tr>
                  <th scope="col">{w.t('csv.col.line')}</th>
                  <th scope="col">{w.t('csv.col.row')}</th>
                  <th scope="col">{w.t('csv.col.store')}</th>
                  <th scope="col">{w.t('csv.col.reason')}</th>
                </tr>
              </thead>
              <tbody>
                {rejected.slice(0, MAX_SHOWN).map((r, i) => (
                  <tr key={`${r.line}-${i}`}>
                    <td>{r.line}</td>
                    <td>{r.id}</td>
                    <td>{r.store}</td>
                    <td>{reasonText(w, r.reason)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
}
