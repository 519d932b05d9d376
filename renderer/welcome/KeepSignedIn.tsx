import type { TokenProtection } from '../../common/contract/contract.js';
import { useI18n } from '../i18n/index.js';
import './keep-signed-in.css';

/**
 * "Don't keep me signed in on this computer", with what keeping it means here: protected by the
 * system's keychain, or stored without one (obfuscated or as is). Used by the connect flow and Settings.
 */
export function KeepSignedIn({
  protection,
  keep,
  onChange,
  disabled,
}: {
  protection: TokenProtection;
  keep: boolean;
  onChange: (keep: boolean) => void;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  const weak = protection !== 'keychain';
  return (
    <div className="keep-signed-in" data-protection={protection}>
      {weak ? (
        <p className="protection-warning" role="note">
          <span aria-hidden="true">⚠ </span>
          {t(protection === 'obfuscated' ? 'welcome.protection.obfuscated' : 'welcome.protection.none')}
        </p>
      ) : (
        <p className="hint">{t('welcome.protection.keychain')}</p>
      )}
      <label className="checkbox">
        <input type="checkbox" checked={!keep} disabled={disabled} onChange={(e) => onChange(!e.target.checked)} /> {t('welcome.dontKeep')}
      </label>
      <p className="hint">{t('welcome.dontKeepHint')}</p>
    </div>
  );
}
