import { useId } from 'react';
import type { Theme } from '../../common/contract/contract.js';
import { useI18n } from '../i18n/index.js';
import { THEMES, applyTheme } from './theme.js';

/**
 * Settings › Appearance: as the system says, light or dark. Applied at once; the settings screen
 * saves it (settings.update) so it survives a restart and reaches every window.
 */
export function ThemeSwitch({ value, onChange, disabled }: { value: Theme; onChange: (theme: Theme) => void; disabled?: boolean }) {
  const { t } = useI18n();
  const name = useId();
  return (
    <fieldset className="theme-switch" disabled={disabled}>
      <legend>{t('settings.theme')}</legend>
      {THEMES.map((theme) => (
        <label key={theme} className="radio">
          <input
            type="radio"
            name={name}
            value={theme}
            checked={value === theme}
            onChange={() => {
              applyTheme(theme);
              onChange(theme);
            }}
          />{' '}
          {t(`settings.theme.${theme}`)}
        </label>
      ))}
    </fieldset>
  );
}
