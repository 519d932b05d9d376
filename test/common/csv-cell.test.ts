import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvField, csvText, neutralizeFormulas } from '../../common/csv-cell.js';
import { cellsAnySpreadsheetSees, risky } from '../support/spreadsheet-cells.js';

/**
 * CSV formula escaping (issue 25): a cell is safe whichever separator the spreadsheet splits on
 * (`,`, `;` in es and pt-BR, TAB, a line break) and whether or not it honours quotes. One shared
 * function; the grid CSV, the count report and the header labels all go through it
 * (test/renderer/stock/csv-formulas.test.ts).
 */
describe('csvField', () => {
  it('neutralizes a leading TAB or CR, text after ; , TAB and line breaks, and quotes what holds a separator', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('\t=1+1')).toBe(`"'\t'=1+1"`);
    expect(csvField('\r=1')).toBe(`"'\r'=1"`);
    expect(csvField('Termo;=HYPERLINK("http://x")')).toBe(`"Termo;'=HYPERLINK(""http://x"")"`);
    expect(csvField('a,@SUM(A1)')).toBe(`"a,'@SUM(A1)"`);
    expect(csvField('line\n+cmd')).toBe(`"line\n'+cmd"`);
    expect(csvField('＝1')).toBe("'＝1");
    // After a space it is text to every spreadsheet.
    expect(csvField(' =1')).toBe(' =1');
    // Numbers stay numbers, also as text.
    expect(csvField(-3)).toBe('-3');
    expect(csvField('-3')).toBe('-3');
    // Split out of a quoted cell it would read `-3"`: neutralized too.
    expect(csvField('a;-3')).toBe(`"a;'-3"`);
    expect(csvField(';+1')).toBe(`";'+1"`);
    expect(csvField('Mate de calabaza')).toBe('Mate de calabaza');
    expect(csvField(null)).toBe('');
  });

  it('for any text: no cell any spreadsheet splits out starts a formula; the text reads back', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ';', ',', '"', '|', '＝', ' ', '1'),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((a) => a.join('')),
        fc.constantFrom<',' | ';'>(',', ';'),
        (text, delimiter) => {
          const line = csvText([['x', text, 'y']], delimiter);
          for (const cell of cellsAnySpreadsheetSees(line)) expect(risky(cell), JSON.stringify({ text, cell })).toBe(false);
          // A spreadsheet that honours quotes and this delimiter reads the neutralized text back whole.
          const read = Papa.parse<string[]>(line, { delimiter, newline: '\r\n' }).data[0]!;
          expect(read).toEqual(['x', neutralizeFormulas(text), 'y']);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
