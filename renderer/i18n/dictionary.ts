import type { Key } from './locales/en.js';
import type { Entry } from './types.js';

export type { Key } from './locales/en.js';

/** A language's dictionary: exactly the keys of the English one (extra or missing keys do not compile). */
export type Dictionary = { readonly [K in Key]: Entry };
