/**
 * The shape of a dictionary entry: a plain string with `{name}` placeholders, or plural forms
 * chosen with `Intl.PluralRules` from the `count` variable (`one` and `other` always; `zero`,
 * `two`, `few`, `many` when a language needs them).
 */
export interface Plural {
  one: string;
  other: string;
  zero?: string;
  two?: string;
  few?: string;
  many?: string;
}

export type Entry = string | Plural;

export type Vars = Record<string, string | number>;
