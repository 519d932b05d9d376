import { describe, expect, it } from 'vitest';
import type { CountReviewView, GridColumnView, GridRowView } from '../../../common/contract/contract.js';
import { reportCsv } from '../../../renderer/stock/count/report.js';
import { gridCsv } from '../../../renderer/stock/csv.js';
import { cellsAnySpreadsheetSees, risky } from '../../support/spreadsheet-cells.js';

/** The grid CSV, its header labels and the count report go through common/csv-cell.ts (issue 25). */
describe('the app’s CSV exports use it', () => {
  const columns = [{ key: '64712', label: '=Depósito;+1', kind: 'store' }] as unknown as GridColumnView[];
  const row = { userProductId: 'MLAU1', title: 'Termo;=HYPERLINK("x")', itemIds: ['MLA1'], cells: {} } as unknown as GridRowView;

  it('grid CSV: titles and header labels, in both delimiters', () => {
    for (const d of [',', ';'] as const) {
      const text = gridCsv(columns, [row], d);
      for (const line of text.split('\r\n')) for (const cell of cellsAnySpreadsheetSees(line)) expect(risky(cell), cell).toBe(false);
    }
  });

  it('count report: a title with a leading TAB', () => {
    const review = {
      session: { id: 1, storeId: '64712' },
      lines: [{ userProductId: 'MLAU1', title: '\t=cmd|calc', expected: 1, counted: 2, difference: 1, moved: false, outcome: null }],
    } as unknown as CountReviewView;
    const text = reportCsv(review);
    for (const line of text.split('\r\n')) for (const cell of cellsAnySpreadsheetSees(line)) expect(risky(cell), cell).toBe(false);
  });
});
