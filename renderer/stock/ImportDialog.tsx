/**
 * File import (CSV or .xlsx): choose a file → read it and look its products up, with a progress
 * bar and Cancel → a dry run against the grid as it is now (every change: line, product, store,
 * old, new, kind; every rejected line with its reason) → nothing is queued until "Apply", which
 * applies every change in one call and one transaction: all of them, or (a refusal names its line)
 * none. A reload or a crash during Apply leaves all or none too. A file applied before (the core
 * knows it by its bytes' digest and its changes) is asked about, with when and by whom, and
 * applied again only when the person says so. Focus stays in the dialog through Apply.
 */
import { useEffect, useRef, useState } from 'react';
import type { ApiError, GridColumnView, LookupView } from '../../common/contract/contract.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import {
  type Change,
  type Diff,
  type Plan,
  type Reason,
  type Rejected,
  MAX_IMPORT_BYTES,
  columnKeysOf,
  diffImport,
  idsOf,
  planImport,
  planRows,
} from './csv.js';
import { Dialog } from '../ui/Dialog.js';
import { columnLabel, lockText, useStockStore } from './store.js';
import { type StockWords, useStockWords } from './words.js';
import { Button } from '../ui/Button.js';

const LOOKUP_CHUNK = 1000;
/** Lookups in flight at once (the core answers each in a few tens of ms; two keep it busy). */
const LOOKUP_PARALLEL = 2;
const MAX_SHOWN = 500;
const XLSX = /\.xlsx$/i;

/** When and by whom a file was applied before (the core's cause `imported_before`). */
interface AppliedBefore {
  name: string;
  appliedAt: number;
  who: string;
  changes: number;
}

type Phase =
  | { step: 'choose'; error: Reason | null; detail?: string | undefined }
  | { step: 'reading'; name: string; done: number; total: number }
  | {
      step: 'preview';
      name: string;
      diff: Diff;
      failure: { line: number | null; message: string; detail: string | undefined } | null;
      /** Set when the core said the file was applied before: Apply then applies it again. */
      before?: AppliedBefore | undefined;
    }
  | { step: 'applying'; name: string; diff: Diff }
  | { step: 'done'; name: string; diff: Diff };

function reasonText(w: StockWords, r: Reason): string {
  return w.t(r.key, r.vars);
}

function kindText(w: StockWords, c: Change): string {
  return c.edit.kind === 'count' ? w.t('csv.kind.count') : w.t('csv.kind.adjustment', { delta: c.edit.delta > 0 ? `+${c.edit.delta}` : String(c.edit.delta) });
}

/** The line a refused import names (the core's cause `{ code: 'line', line }`). */
function lineOf(cause: unknown[] | undefined): number | null {
  const c = cause?.find((x): x is { code: 'line'; line: number } => typeof x === 'object' && x !== null && 'code' in x && x.code === 'line' && 'line' in x);
  return c && typeof c.line === 'number' ? c.line : null;
}

function appliedBefore(cause: unknown[] | undefined): AppliedBefore | null {
  for (const c of cause ?? []) {
    if (typeof c !== 'object' || c === null || !('code' in c) || c.code !== 'imported_before') continue;
    const get = (k: string): unknown => Reflect.get(c, k);
    const name = get('name');
    const at = get('appliedAt');
    const operator = get('operator');
    const author = get('author');
    const changes = get('changes');
    if (typeof name !== 'string' || typeof at !== 'number' || typeof changes !== 'number') return null;
    const who = typeof operator === 'string' && operator !== '' ? operator : typeof author === 'string' ? author : '';
    return { name, appliedAt: at, who, changes };
  }
  return null;
}

/** SHA-256 of the file's bytes in hex; null where the page cannot compute it (no WebCrypto outside a secure context). */
async function fileDigest(file: File): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  try {
    // A view made here: WebCrypto refuses an ArrayBuffer of another realm (a test's DOM).
    const hash = new Uint8Array(await subtle.digest('SHA-256', new Uint8Array(await file.arrayBuffer())));
    return [...hash].map((b) => b.toString(16).padStart(2, '0')).join('');
  } catch {
    return null;
  }
}

export function ImportDialog() {
  const store = useStockStore();
  const w = useStockWords();
  const [phase, setPhase] = useState<Phase>({ step: 'choose', error: null });
  /** Bumped by Cancel and by closing: a read in progress stops at its next step. */
  const run = useRef(0);
  /** The chosen file's digest (sent with Apply: how the core knows a file applied before). */
  const digest = useRef<string | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const step = phase.step;
  const asking = phase.step === 'preview' && phase.before !== undefined;
  // The Apply button goes away while applying: focus would fall to the page, where Esc no longer
  // reaches the dialog. It stays on the dialog (where Enter does nothing) while applying or asking
  // whether to apply a file again, then on Close.
  useEffect(() => {
    if (step === 'applying' || asking) closeButton.current?.closest<HTMLElement>('[role="dialog"]')?.focus();
    else if (step === 'done') closeButton.current?.focus();
  }, [step, asking]);
  useEffect(
    () => () => {
      run.current++;
    },
    [],
  );
  const close = () => {
    if (phase.step === 'applying') return;
    run.current++;
    store.getState().setActivity(null);
    store.getState().setDialog(null);
  };

  /** Back to choosing a file, with the core's error in words. */
  const coreFailed = (e: ApiError): Phase => ({
    step: 'choose',
    error: { key: 'error', vars: { message: errorText(e, w.language) } },
    detail: errorDetail(e, w.language),
  });

  const read = async (file: File) => {
    const mine = ++run.current;
    const live = () => run.current === mine;
    const api = store.getState().api;
    // Refused from its size alone: reading a huge file would take the renderer's memory first.
    if (file.size > MAX_IMPORT_BYTES) return setPhase({ step: 'choose', error: { key: 'csv.err.tooBig', vars: { max: MAX_IMPORT_BYTES / (1024 * 1024) } } });
    setPhase({ step: 'reading', name: file.name, done: 0, total: 1 });
    digest.current = await fileDigest(file);
    if (!live()) return;
    let plan: Plan | { error: Reason };
    if (XLSX.test(file.name)) {
      const r = await api.stock.readWorkbook({ bytes: new Uint8Array(await file.arrayBuffer()) });
      if (!live()) return;
      if (!r.ok) return setPhase(coreFailed(r.error));
      plan = planRows(r.value.rows);
    } else {
      const text = await file.text();
      if (!live()) return;
      plan = planImport(text);
    }
    if ('error' in plan) return setPhase({ step: 'choose', error: plan.error });
    const ids = idsOf(plan);
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) chunks.push(ids.slice(i, i + LOOKUP_CHUNK));
    // Steps: reading the file (done), then one per lookup of up to 1000 products.
    const total = 1 + chunks.length;
    let done = 1;
    const progress = () => {
      setPhase({ step: 'reading', name: file.name, done, total });
      store.getState().setActivity({ kind: 'import', done, total });
    };
    progress();
    const merged: LookupView = { columns: store.getState().allColumns, rows: [], missing: [], aliases: {} };
    // Only the file's columns' cells (the lookup reads every column when a store is unknown here).
    const columns = columnKeysOf(plan, merged.columns);
    let failed: ApiError | null = null;
    let next = 0;
    const worker = async () => {
      while (next < chunks.length && failed === null && live()) {
        const r = await api.stock.lookup({ ids: chunks[next++]!, ...(columns ? { columns } : {}) });
        if (!live()) return;
        if (!r.ok) {
          failed = r.error;
          return;
        }
        merged.columns = r.value.columns;
        merged.rows.push(...r.value.rows);
        merged.missing.push(...r.value.missing);
        Object.assign(merged.aliases, r.value.aliases);
        done++;
        progress();
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(LOOKUP_PARALLEL, chunks.length) }, worker));
    } finally {
      if (live()) store.getState().setActivity(null);
    }
    if (!live()) return;
    if (failed !== null) return setPhase(coreFailed(failed));
    const diff = diffImport(plan, merged, (reason: string, column: GridColumnView) => lockText(reason, column, w.t));
    return setPhase({ step: 'preview', name: file.name, diff, failure: null });
  };

  const apply = async (name: string, diff: Diff, again = false) => {
    const api = store.getState().api;
    const total = diff.changes.length;
    setPhase({ step: 'applying', name, diff });
    store.getState().setActivity({ kind: 'import', done: 0, total });
    let r;
    try {
      r = await api.stock.importApply({
        name: name.slice(0, 150),
        ...(digest.current !== null ? { fileDigest: digest.current } : {}),
        ...(again ? { again } : {}),
        changes: diff.changes.map((c) => ({
          userProductId: c.userProductId,
          type: c.column.type,
          ...(c.column.storeId ? { storeId: c.column.storeId } : {}),
          line: c.line,
          ...(c.edit.kind === 'count' ? { kind: 'count' as const, quantity: c.edit.quantity } : { kind: 'adjust' as const, delta: c.edit.delta }),
        })),
      });
    } finally {
      store.getState().setActivity(null);
    }
    if (!r.ok) {
      const before = appliedBefore(r.error.cause);
      if (before) {
        // Not a failure: a question. Nothing was applied; the person chooses.
        setPhase({ step: 'preview', name, diff, failure: null, before });
        return;
      }
      const failure = { line: lineOf(r.error.cause), message: errorText(r.error, w.language), detail: errorDetail(r.error, w.language) };
      setPhase({ step: 'preview', name, diff, failure });
      store.getState().sayError('csv.appliedNone', r.error);
      return;
    }
    setPhase({ step: 'done', name, diff });
    store.getState().say('csv.applied', { done: r.value.applied });
  };

  return (
    <Dialog title={w.t('csv.importTitle')} onClose={close} className="import-dialog">
      {phase.step === 'choose' ? (
        <>
          <p className="help">{w.t('csv.importHelp')}</p>
          <label className="file-pick">
            {w.t('csv.choose')}{' '}
            <input
              type="file"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              data-autofocus
              aria-describedby={phase.error ? 'import-error' : undefined}
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) void read(f);
              }}
            />
          </label>
          {phase.error ? (
            <p id="import-error" className="form-error" role="alert" title={phase.detail}>
              {reasonText(w, phase.error)}
            </p>
          ) : null}
        </>
      ) : phase.step === 'reading' ? (
        <p role="status">
          <progress max={phase.total} value={phase.done} aria-label={w.t('csv.reading', { name: phase.name })} /> {w.t('csv.reading', { name: phase.name })}{' '}
          {w.t('csv.readingStep', { done: phase.done, total: phase.total })}
        </p>
      ) : (
        <Preview w={w} phase={phase} />
      )}
      <div className="ui-dialog-actions">
        {phase.step === 'preview' ? (
          <Button
            type="button"
            variant="primary"
            disabled={phase.diff.changes.length === 0}
            onClick={() => void apply(phase.name, phase.diff, phase.before !== undefined)}
          >
            {phase.before ? w.t('csv.applyAgain', { count: phase.diff.changes.length }) : w.t('csv.apply', { count: phase.diff.changes.length })}
          </Button>
        ) : null}
        <Button type="button" ref={closeButton} disabled={phase.step === 'applying'} onClick={close}>
          {phase.step === 'done' ? w.t('close') : w.t('csv.cancel')}
        </Button>
      </div>
    </Dialog>
  );
}

/** The first MAX_SHOWN changes, the refused line's first (it may be further down the file). */
function shownChanges(changes: Change[], line: number | null): Change[] {
  if (line === null) return changes.slice(0, MAX_SHOWN);
  return [...changes.filter((c) => c.line === line), ...changes.filter((c) => c.line !== line)].slice(0, MAX_SHOWN);
}

function Preview({ w, phase }: { w: StockWords; phase: Extract<Phase, { step: 'preview' | 'applying' | 'done' }> }) {
  const { diff } = phase;
  const failure = phase.step === 'preview' ? phase.failure : null;
  const rejected: Rejected[] = diff.rejected;
  return (
    <div className="import-preview">
      {phase.step === 'applying' ? (
        <p role="status">
          {/* One call, one transaction: no partial count to show, so the bar is indeterminate until it answers. */}
          <progress aria-label={w.t('csv.applying', { total: diff.changes.length })} /> {w.t('csv.applying', { total: diff.changes.length })}
        </p>
      ) : null}
      {phase.step === 'done' ? <p role="status">{w.t('csv.applied', { done: diff.changes.length })}</p> : null}
      {failure ? (
        <p className="form-error" role="alert" title={failure.detail}>
          {w.t('csv.appliedNone', { message: failure.message })}
        </p>
      ) : null}
      {phase.step === 'preview' && phase.before ? (
        <p className="form-error" role="alert">
          {w.t('csv.appliedBefore', {
            name: phase.before.name,
            when: w.formatDate(phase.before.appliedAt),
            who: phase.before.who,
            count: phase.before.changes,
          })}
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
                {failure ? <th scope="col">{w.t('csv.col.reason')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {shownChanges(diff.changes, failure?.line ?? null).map((c) => {
                const failed = failure !== null && failure.line === c.line ? failure.message : null;
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
                    {failure ? <td>{failed ? `! ${w.t('csv.err.failed', { message: failed })}` : ''}</td> : null}
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
