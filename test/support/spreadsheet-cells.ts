import Papa from 'papaparse';

/** How a spreadsheet could read a CSV line, for the tests of formula escaping (common/csv-cell.ts). */
const TRIGGERS = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
const NUMBER = /^[+-]?(\d+([.,]\d+)?|[.,]\d+)$/;

/** Every cell a spreadsheet could see in `line`: split on any separator, quotes honoured or not. */
export function cellsAnySpreadsheetSees(line: string): string[] {
  const naive = line.split(/[,;\t\r\n|]/);
  const quoted = [',', ';', '\t'].flatMap((d) => Papa.parse<string[]>(line, { delimiter: d, newline: '\r\n' }).data.flat());
  return [...naive, ...quoted];
}

/** Whether a spreadsheet could read `cell` as a formula. */
export const risky = (cell: string) => (TRIGGERS.test(cell) && !NUMBER.test(cell)) || /^[\t\r]/.test(cell);
