/**
 * CSV cells a spreadsheet cannot run (issue 25). A spreadsheet reads a cell as a formula when it
 * starts with = + - @ (or their full-width forms) and some also after a leading TAB or CR; and a
 * spreadsheet set to another list separator (`;` in es and pt-BR, TAB when pasted) splits a line
 * where this file did not, so text after any `,` `;` TAB or line break can become the start of a
 * cell too. Every such start gets a `'` in front (what spreadsheets show as "this is text"), and a
 * cell holding any separator is quoted. A plain number ("-3", "+1.5") as the whole text is left as
 * it is: it is no formula.
 */

export type CsvDelimiter = ',' | ';';

// A formula start. After a space it is text to Excel, LibreOffice and Google Sheets (so the app's
// own notes, "-2 damaged, +5 sold", stay legible).
const FORMULA_START = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
// Where a spreadsheet may start a new cell, whichever separator it uses (kept by split).
const SEPARATORS = /([,;\t\r\n|])/;
const PLAIN_NUMBER = /^[+-]?(\d+([.,]\d+)?|[.,]\d+)$/;
const NEEDS_QUOTES = /[",;\t\r\n|]/;

/** The text with a `'` before every place a spreadsheet could start a formula. */
export function neutralizeFormulas(text: string): string {
  const parts = text.split(SEPARATORS);
  return parts
    .map((p, i) => {
      if (i % 2 === 1) return p;
      // A cell that would start with TAB or CR (the text's start, or right after another
      // separator): some spreadsheets read what follows as a formula.
      if (p === '' && /^[\t\r]$/.test(parts[i + 1] ?? '')) return "'";
      // A plain number is no formula as the whole text; a piece of a quoted cell split out by a
      // spreadsheet ends with the quote ("+1\"") and is one, so only the whole text is exempt.
      return FORMULA_START.test(p) && !(parts.length === 1 && PLAIN_NUMBER.test(p)) ? `'${p}` : p;
    })
    .join('');
}

/** One CSV field: numbers as they are, text neutralized and quoted when it holds a separator or quote. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const s = neutralizeFormulas(value);
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows as CSV text: CRLF line ends (what spreadsheets expect), a line end after the last row. */
export function csvText(rows: readonly (readonly (string | number | null | undefined)[])[], delimiter: CsvDelimiter = ','): string {
  return rows.map((row) => row.map(csvField).join(delimiter)).join('\r\n') + '\r\n';
}
