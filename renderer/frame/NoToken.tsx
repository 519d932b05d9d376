import { languageOf, translate } from '../i18n/index.js';
import './frame.css';

/** A browser page opened without the per-run token: say where to get it. */
export function NoToken() {
  return (
    <main className="notice" role="alert">
      <p>{translate(languageOf(navigator.language), 'frame.noToken')}</p>
    </main>
  );
}
