import type { PullProgressView } from '../../common/contract/contract.js';
import { useI18n } from '../i18n/index.js';

/** The first pull: one bar for the whole pull (a bar per step would empty itself seven times) and, in words, what is being read and how far. */
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
      <progress max={progress.steps} value={overall(progress)} aria-label={what} />
      <p>
        {t('welcome.pull.step', { step: progress.step, steps: progress.steps, what })}
        {progress.total > 0 ? ` — ${t('welcome.pull.count', { done: progress.done, total: progress.total })}` : null}
      </p>
    </div>
  );
}

/** Steps done plus the share of the current one: the bar only moves forward. */
function overall(p: PullProgressView): number {
  const within = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
  return Math.min(p.steps, Math.max(0, p.step - 1 + within));
}
