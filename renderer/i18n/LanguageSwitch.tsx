import { useId } from 'react';
import type { Language } from '../../common/contract/contract.js';
import { LANGUAGES, useI18n } from './index.js';

/**
 * A language picker: changes the words at once and reports the choice (the settings screen saves
 * it with `settings.update`, so it survives a restart and reaches every window).
 */
export function LanguageSwitch({ onChange, disabled }: { onChange?: (language: Language) => void; disabled?: boolean }) {
  const { t, language, setLanguage } = useI18n();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{t('settings.language')}</label>
      <select
        id={id}
        value={language}
        disabled={disabled}
        onChange={(e) => {
          const l = e.target.value as Language;
          setLanguage(l);
          onChange?.(l);
        }}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(`settings.language.${l}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
