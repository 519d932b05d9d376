import type { Key, en } from './locales/en.js';

export type { Key } from './locales/en.js';

/** A language's dictionary: exactly the keys of the English one (extra or missing keys do not compile). */
export type Dictionary = { readonly [K in Key]: string };

/**
 * The keys whose message chooses words by a code of the core (`{code, select, … other {{label}}}`):
 * the ones `translateCode` takes. Read from the English text, so a key only compiles there once its
 * message is a code `select`.
 */
export type CodeKey = { [K in Key]: (typeof en)[K] extends `{code, select, ${string}` ? K : never }[Key];
