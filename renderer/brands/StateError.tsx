/** A list or profile that could not be read: the error in words (renderer/i18n/errors.ts) and Retry. */
import type { ApiError } from '../../common/contract/contract.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import { useI18n } from '../i18n/index.js';

export function StateError({ error, onRetry }: { error: ApiError; onRetry: () => void }) {
  const { t, language } = useI18n();
  return (
    <div className="state error" role="alert">
      <p title={errorDetail(error, language)}>
        <span aria-hidden="true">⚠ </span>
        {t('common.error', { message: errorText(error, language) })}
      </p>
      <button type="button" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}
