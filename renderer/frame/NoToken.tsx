import { wordsFor } from './words.js';

/** A browser page opened without the per-run token: say where to get it. */
export function NoToken() {
  const lang = navigator.language.startsWith('pt') ? 'pt-BR' : navigator.language.startsWith('en') ? 'en' : 'es';
  return (
    <main className="notice" role="alert">
      <p>{wordsFor(lang).noToken}</p>
    </main>
  );
}
