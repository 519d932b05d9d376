/**
 * Count sessions (cycle counts): the list (open ones first) and a form to start one for a store
 * (all its products or a filter, blind or not); counting a session by scan or by typing each
 * line's quantity; the review of the variances (counted, expected, difference) before anything is
 * queued; Apply (one transaction for every line); the report as CSV.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { CountLineView, CountReviewView } from '../../../common/contract/contract.js';
import { download } from '../csv-export.js';
import { useStock } from '../store.js';
import { useStockWords } from '../words.js';
import { useCount, useCountStore } from './context.js';
import { reportCsv, reportName } from './report.js';
import { CountStatus, ScanBox } from './ScanBox.js';

function StartForm() {
  const store = useCountStore();
  const w = useStockWords();
  const columns = useStock((s) => s.allColumns);
  const busy = useCount((s) => s.busy);
  const stores = columns.filter((c) => c.type === 'seller_warehouse' && c.storeId !== null);
  const [storeId, setStoreId] = useState('');
  const [search, setSearch] = useState('');
  const [blind, setBlind] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (storeId === '') return;
    void store.getState().startSession({ storeId, blind, ...(search.trim() !== '' ? { search: search.trim() } : {}) });
  };
  return (
    <form className="count-start" onSubmit={submit} aria-labelledby="count-start-title">
      <h3 id="count-start-title">{w.t('count.startTitle')}</h3>
      <label>
        {w.t('count.store')}{' '}
        <select required value={storeId} onChange={(e) => setStoreId(e.target.value)}>
          <option value="">{w.t('count.chooseStoreOption')}</option>
          {stores.map((c) => (
            <option key={c.key} value={c.storeId!}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        {w.t('count.filter')} <input type="search" value={search} placeholder={w.t('count.filterPlaceholder')} onChange={(e) => setSearch(e.target.value)} />
      </label>
      <label>
        <input type="checkbox" checked={blind} onChange={(e) => setBlind(e.target.checked)} /> {w.t('count.blind')}
      </label>
      <button type="submit" disabled={busy || storeId === ''}>
        {w.t('count.start')}
      </button>
    </form>
  );
}

function SessionList() {
  const store = useCountStore();
  const w = useStockWords();
  const sessions = useCount((s) => s.sessions);
  useEffect(() => void store.getState().loadSessions(), [store]);
  return (
    <div className="count-sessions">
      <StartForm />
      <h3>{w.t('count.sessions')}</h3>
      {sessions.length === 0 ? (
        <p>{w.t('count.noSessions')}</p>
      ) : (
        <ul>
          {sessions.map((s) => (
            <li key={s.id}>
              <button type="button" onClick={() => void store.getState().openSession(s.id)}>
                {w.t('count.sessionName', { id: s.id, store: s.storeLabel ?? s.storeId })}
              </button>{' '}
              {w.t(`count.state.${s.state}`)} · {w.t('count.progress', { counted: s.counted, count: s.lines })}
              {s.blind ? ` · ${w.t('count.blindTag')}` : ''} · {w.formatDate(s.updatedAt)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function LineRow({ line, blind }: { line: CountLineView; blind: boolean }) {
  const store = useCountStore();
  const w = useStockWords();
  const [text, setText] = useState(line.counted === null ? '' : String(line.counted));
  useEffect(() => setText(line.counted === null ? '' : String(line.counted)), [line.counted]);
  const save = () => {
    const t = text.trim();
    const n = t === '' ? null : Number(t);
    if (n !== null && (!Number.isInteger(n) || n < 0 || n > 1_000_000)) return;
    if (n !== line.counted) void store.getState().setCounted(line.userProductId, n);
  };
  const name = line.title ?? line.userProductId;
  return (
    <tr>
      <th scope="row">
        {name}
        <span className="count-id"> {line.userProductId}</span>
      </th>
      {blind ? null : <td className="num">{line.expected ?? '—'}</td>}
      <td>
        <input
          type="text"
          inputMode="numeric"
          className="count-input"
          aria-label={w.t('count.countedOf', { product: name })}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={save}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              save();
            }
          }}
        />
      </td>
    </tr>
  );
}

function Counting() {
  const store = useCountStore();
  const w = useStockWords();
  const current = useCount((s) => s.current)!;
  const notice = useCount((s) => s.notice);
  const last = useCount((s) => s.lastSessionScan);
  const outside = useCount((s) => s.outside);
  const input = useRef<HTMLInputElement>(null);
  const s = current.session;
  const blind = s.blind;
  return (
    <div className="count-session">
      <p>{w.t('count.progress', { counted: s.counted, count: s.lines })}</p>
      <ScanBox id="count-session-scan" inputRef={input} onScan={(code) => void store.getState().sessionScan(code)} />
      <CountStatus text={notice?.text} tone={notice?.tone} seq={notice?.seq} detail={notice?.detail} />
      {outside ? (
        <div className="count-actions count-outside" role="group" aria-label={w.t('count.outsideChoice')}>
          <button
            type="button"
            onClick={() => {
              void store.getState().sessionScan(outside.code, true);
              input.current?.focus();
            }}
          >
            {w.t('count.outsideAdd', { product: outside.title ?? outside.userProductId })}
          </button>
          <button
            type="button"
            onClick={() => {
              store.getState().skipOutside();
              input.current?.focus();
            }}
          >
            {w.t('count.outsideSkip')}
          </button>
        </div>
      ) : null}
      <div className="count-actions">
        <button
          type="button"
          disabled={!last}
          onClick={() => {
            void store.getState().undoSessionScan();
            input.current?.focus();
          }}
        >
          {w.t('count.undoLast')}
        </button>
        <button type="button" onClick={() => void store.getState().loadReview()}>
          {w.t('count.review')}
        </button>
        <button type="button" onClick={() => void store.getState().cancelSession()}>
          {w.t('count.cancel')}
        </button>
      </div>
      <table className="count-lines" aria-label={w.t('count.linesOf', { store: s.storeLabel ?? s.storeId })}>
        <thead>
          <tr>
            <th scope="col">{w.t('count.product')}</th>
            {blind ? null : <th scope="col">{w.t('count.expected')}</th>}
            <th scope="col">{w.t('count.counted')}</th>
          </tr>
        </thead>
        <tbody>
          {current.lines.map((l) => (
            <LineRow key={l.userProductId} line={l} blind={blind} />
          ))}
        </tbody>
      </table>
      {current.lines.length < current.total ? (
        <button type="button" onClick={() => void store.getState().openSession(s.id, true)}>
          {w.t('count.more', { count: current.total - current.lines.length })}
        </button>
      ) : null}
    </div>
  );
}

/** What became of an applied line, and what its cell showed just before Apply when it had moved since it was counted. */
function LineResult({ line }: { line: CountReviewView['lines'][number] }) {
  const w = useStockWords();
  if (line.result === null) return null;
  return (
    <span data-result={line.result}>
      {w.t(`count.result.${line.result}`)}
      {line.moved && line.before !== null ? ` · ${w.t('count.movedBefore', { before: line.before })}` : ''}
    </span>
  );
}

function Review({ review }: { review: CountReviewView }) {
  const store = useCountStore();
  const w = useStockWords();
  const busy = useCount((s) => s.busy);
  const notice = useCount((s) => s.notice);
  const open = review.session.state === 'open';
  const changes = review.lines.filter((l) => l.difference !== 0).length;
  const signed = (n: number) => (n > 0 ? `+${w.formatNumber(n)}` : w.formatNumber(n));
  return (
    <div className="count-review">
      <h3>{open ? w.t('count.reviewTitle') : w.t('count.appliedTitle')}</h3>
      <p>
        {w.t('count.reviewTotals', { over: review.totals.over, under: review.totals.under, matched: review.totals.matched, uncounted: review.uncounted })}
        {review.totals.moved > 0 ? ` ${w.t(open ? 'count.movedNote' : 'count.movedApplied', { count: review.totals.moved })}` : ''}
      </p>
      <CountStatus text={notice?.text} tone={notice?.tone} seq={notice?.seq} detail={notice?.detail} />
      <table className="count-variances" aria-label={w.t('count.variances')}>
        <thead>
          <tr>
            <th scope="col">{w.t('count.product')}</th>
            <th scope="col">{w.t('count.counted')}</th>
            <th scope="col">{w.t('count.expected')}</th>
            <th scope="col">{w.t('count.difference')}</th>
            <th scope="col">{w.t('count.note')}</th>
          </tr>
        </thead>
        <tbody>
          {review.lines.map((l) => (
            <tr key={l.userProductId} data-difference={l.difference === 0 ? 'none' : l.difference > 0 ? 'over' : 'under'}>
              <th scope="row">{l.title ?? l.userProductId}</th>
              <td className="num">{w.formatNumber(l.counted)}</td>
              <td className="num">{w.formatNumber(l.expected)}</td>
              <td className="num">{signed(l.difference)}</td>
              <td>{open ? l.moved ? w.t('count.moved', { current: l.current }) : '' : <LineResult line={l} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="count-actions">
        {open ? (
          <>
            <button type="button" className="primary" disabled={busy} onClick={() => void store.getState().apply()}>
              {w.t('count.apply', { count: changes })}
            </button>
            <button type="button" onClick={() => store.setState({ review: null })}>
              {w.t('count.backToCounting')}
            </button>
          </>
        ) : null}
        <button type="button" onClick={() => download(reportName(review), reportCsv(review))}>
          {w.t('count.export')}
        </button>
      </div>
    </div>
  );
}

export function CountSession() {
  const store = useCountStore();
  const w = useStockWords();
  const current = useCount((s) => s.current);
  const review = useCount((s) => s.review);
  if (!current) return <SessionList />;
  const s = current.session;
  return (
    <section className="count-session-area" aria-labelledby="count-session-title">
      <h2 id="count-session-title">
        {w.t('count.sessionName', { id: s.id, store: s.storeLabel ?? s.storeId })} · {w.t(`count.state.${s.state}`)}
        {s.blind ? ` · ${w.t('count.blindTag')}` : ''}
      </h2>
      <button type="button" className="link" onClick={() => store.getState().leaveSession()}>
        {w.t('count.allSessions')}
      </button>
      {review ? <Review review={review} /> : <Counting />}
    </section>
  );
}
