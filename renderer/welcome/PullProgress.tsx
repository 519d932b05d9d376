import type { PullProgressView } from '../../preload/contract.js';
import { useI18n } from '../i18n/index.js';

/** The first pull: a bar per step and, in words, what is being read and how far. */
export function PullProgress({ progress }: { progress: PullProgressView | null }) {
  const { t } = useI18n();
  if (!progress)
    return (
      <div className="pull-progress" role="status">
        <progress aria-label={t('welcome.pull.starting')} />
        <p>{t('welcome.pull.starting')}</p>
      </div>
    );
  const what = t(`welcome.pull.phase.${progress.phase}`);
  return (
    <div className="pull-progress" role="status" aria-live="polite" data-phase={progress.phase}>
      <progress max={Math.max(1, progress.total)} value={progress.done} aria-label={what} />
      <p>
        {t('welcome.pull.step', { step: progress.step, steps: progress.steps, what })}
        {progress.total > 0 ? ` — ${t('welcome.pull.count', { done: progress.done, total: progress.total })}` : null}
      </p>
    </div>
  );
}
