/**
 * A dictionary entry: one ICU MessageFormat string, formatted with FormatJS (intl-messageformat).
 * `{name}` is an argument; `{count, plural, =0 {…} one {# …} other {# …}}` chooses by the language's
 * plural rules (Intl.PluralRules, with `=0` where a language says "none" rather than "0 …");
 * `{code, select, a {…} other {{label}}}` chooses words by a code of the core.
 */
export type Entry = string;

/** The values of a message's arguments. Numbers given to a plain `{name}` are formatted in the language. */
export type Vars = Record<string, string | number>;
