import type { SyncStatusView } from '../../common/contract/contract.js';
import type { I18n } from '../i18n/index.js';

/** Connection, last sync, pending, conflicts and progress: always on screen, words and icons, never colour alone. */
export function StatusBar({
  status,
  i18n,
  onShowConflicts,
  onShowFailed,
  activity,
}: {
  status: SyncStatusView | null;
  /** The words and formatters of the app's language. */
  i18n: I18n;
  /** The conflicts count is a button that shows the grid filtered to conflicts. */
  onShowConflicts?: () => void;
  /** The failed count is a button that leads to the first failed edit (its reason, Retry / Discard / Edit). */
  onShowFailed?: () => void;
  /** A long import or export of the stock screens, in words, shown with a progress bar. */
  activity?: { label: string; done: number; total: number } | null;
}) {
  const { t } = i18n;
  if (!status)
    return (
      <footer className="status-bar" role="status">
        {t('common.loading')}
      </footer>
    );
  // Local HH:MM (the system's time zone, 24-hour in every language): since when, and the last sync.
  const hhmm = new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const connection =
    status.mode === 'local-only'
      ? t('frame.localOnly')
      : status.mode === 'offline'
        ? t('frame.offlineChosen')
        : status.online
          ? t('frame.online')
          : status.unreachableSince !== null
            ? t('frame.unreachable', { time: hhmm.format(status.unreachableSince) })
            : t('frame.offline');
  const icon = status.mode === 'local-only' ? '◆' : status.online ? '●' : '○';
  const last = status.lastSyncAt ?? status.lastPullAt;
  const time = last === null ? t('frame.never') : hhmm.format(last);
  // Nothing is being sent while the marketplace cannot be reached: no "sending 0/1" then.
  const sending = status.online && status.progress.total > 0 && status.progress.done < status.progress.total;
  return (
    <footer className="status-bar" role="status" aria-live="polite">
      <span className="connection" data-mode={status.mode} data-online={status.online}>
        <span aria-hidden="true">{icon}</span> {connection}
        {status.mode !== 'local-only' ? ` · ${t('frame.synced', { time })}` : null}
      </span>
      <span className="pending" data-count={status.pending + status.inFlight}>
        {t('frame.pending', { count: status.pending + status.inFlight })}
      </span>
      {onShowConflicts && status.conflicts > 0 ? (
        <button type="button" className="conflicts" data-count={status.conflicts} onClick={onShowConflicts}>
          <span aria-hidden="true">! </span>
          {t('frame.conflicts', { count: status.conflicts })}
        </button>
      ) : (
        <span className="conflicts" data-count={status.conflicts}>
          {status.conflicts > 0 ? <span aria-hidden="true">! </span> : null}
          {t('frame.conflicts', { count: status.conflicts })}
        </span>
      )}
      {status.failed > 0 ? (
        onShowFailed ? (
          <button type="button" className="failed" data-count={status.failed} onClick={onShowFailed}>
            <span aria-hidden="true">× </span>
            {t('frame.failed', { count: status.failed })}
          </button>
        ) : (
          <span className="failed">{t('frame.failed', { count: status.failed })}</span>
        )
      ) : null}
      {status.unknown > 0 ? (
        onShowFailed ? (
          <button type="button" className="unknown" data-count={status.unknown} title={t('frame.unknownHint')} onClick={onShowFailed}>
            <span aria-hidden="true">? </span>
            {t('frame.unknown', { count: status.unknown })}
          </button>
        ) : (
          <span className="unknown" title={t('frame.unknownHint')}>
            {t('frame.unknown', { count: status.unknown })}
          </span>
        )
      ) : null}
      {status.blocked > 0 ? (
        <span className="blocked" data-count={status.blocked} title={t('frame.blockedHint')}>
          {t('frame.blocked', { count: status.blocked })}
        </span>
      ) : null}
      {activity ? (
        <span className="progress activity">
          <progress max={Math.max(1, activity.total)} value={activity.done} /> {activity.label}
        </span>
      ) : null}
      {status.stockRead ? <StockReadProgress read={status.stockRead} i18n={i18n} /> : null}
      {sending ? (
        <span className="progress">
          <progress max={status.progress.total} value={status.progress.done} />{' '}
          {t('frame.pushing', { done: status.progress.done, total: status.progress.total })}
        </span>
      ) : null}
    </footer>
  );
}

/** A first pull's stock reads (issue 29): how many products have their stock read, and the time left at the pace of the last minute. */
function StockReadProgress({ read, i18n }: { read: NonNullable<SyncStatusView['stockRead']>; i18n: I18n }) {
  const { t } = i18n;
  let left = t('frame.stockLeftUnknown');
  if (read.leftMs !== null && read.perMinute !== null) {
    const minutes = Math.max(1, Math.ceil(read.leftMs / 60_000));
    const rate = Math.round(read.perMinute);
    left =
      minutes >= 60
        ? t('frame.stockLeftHours', { hours: Math.floor(minutes / 60), minutes: minutes % 60, rate })
        : t('frame.stockLeftMinutes', { minutes, rate });
  }
  return (
    <span className="progress stock-read">
      <progress max={Math.max(1, read.total)} value={read.read} /> {t('frame.stockRead', { read: read.read, total: read.total })} · {left}
    </span>
  );
}
