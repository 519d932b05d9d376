import type { Language } from '../../common/contract/contract.js';
import { Field } from '../ui/Field.js';
import { LANGUAGES, useI18n } from './index.js';

/**
 * A language picker: changes the words at once and reports the choice (the settings screen saves
 * it with `settings.update`, so it survives a restart and reaches every window).
 */
export function LanguageSwitch({ onChange, disabled }: { onChange?: (language: Language) => void; disabled?: boolean }) {
  const { t, language, setLanguage } = useI18n();
  return (
    <Field label={t('settings.language')}>
      {(control) => (
        <select
          {...control}
          value={language}
          disabled={disabled}
          onChange={(e) => {
            const l = LANGUAGES.find((x) => x === e.target.value);
            if (!l) return;
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
      )}
    </Field>
  );
}
