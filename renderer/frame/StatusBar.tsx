import type { SyncStatusView } from '../../preload/contract.js';
import type { Words } from './words.js';

/** Connection, last sync, pending, conflicts and progress: always on screen, words and icons, never colour alone. */
export function StatusBar({
  status,
  words,
  locale,
  onShowConflicts,
  activity,
}: {
  status: SyncStatusView | null;
  words: Words;
  locale: string;
  /** The conflicts count is a button that shows the grid filtered to conflicts. */
  onShowConflicts?: () => void;
  /** A long import or export of the stock screens, in words, shown with a progress bar. */
  activity?: { label: string; done: number; total: number } | null;
}) {
  if (!status) return <footer className="status-bar" role="status">{words.loading}</footer>;
  const connection =
    status.mode === 'local-only' ? words.localOnly : status.mode === 'offline' ? words.offlineChosen : status.online ? words.online : words.offline;
  const icon = status.mode === 'local-only' ? '◆' : status.online ? '●' : '○';
  const last = status.lastSyncAt ?? status.lastPullAt;
  const time = last === null ? words.never : new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(last);
  const sending = status.progress.total > 0 && status.progress.done < status.progress.total;
  return (
    <footer className="status-bar" role="status" aria-live="polite">
      <span className="connection" data-mode={status.mode} data-online={status.online}>
        <span aria-hidden="true">{icon}</span> {connection}
        {status.mode !== 'local-only' ? ` · ${words.synced} ${time}` : null}
      </span>
      <span className="pending" data-count={status.pending + status.inFlight}>{words.pending(status.pending + status.inFlight)}</span>
      {onShowConflicts && status.conflicts > 0 ? (
        <button type="button" className="conflicts" data-count={status.conflicts} onClick={onShowConflicts}>
          <span aria-hidden="true">! </span>
          {words.conflicts(status.conflicts)}
        </button>
      ) : (
        <span className="conflicts" data-count={status.conflicts}>
          {status.conflicts > 0 ? <span aria-hidden="true">! </span> : null}
          {words.conflicts(status.conflicts)}
        </span>
      )}
      {status.failed > 0 ? <span className="failed">{words.failed(status.failed)}</span> : null}
      {activity ? (
        <span className="progress activity">
          <progress max={Math.max(1, activity.total)} value={activity.done} /> {activity.label}
        </span>
      ) : null}
      {sending ? (
        <span className="progress">
          <progress max={status.progress.total} value={status.progress.done} /> {words.pushing(status.progress.done, status.progress.total)}
        </span>
      ) : null}
    </footer>
  );
}
