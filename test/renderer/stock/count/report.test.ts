import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { CountReviewView } from '../../../../common/contract/contract.js';
import { reportCsv, reportName } from '../../../../renderer/stock/count/report.js';

const session: CountReviewView['session'] = {
  id: 7,
  storeId: '64712',
  storeLabel: 'Depósito Palermo',
  filter: null,
  blind: false,
  state: 'applied',
  author: 'seller',
  createdAt: 0,
  updatedAt: 0,
  appliedAt: 1,
  lines: 2,
  counted: 2,
};
const line = (over: Partial<CountReviewView['lines'][number]>): CountReviewView['lines'][number] => ({
  userProductId: 'MLAU1',
  title: 'Termo',
  counted: 15,
  expected: 12,
  difference: 3,
  current: 15,
  before: 12,
  moved: false,
  outcome: 'queued',
  result: 'sent',
  ...over,
});

/** The report CSV (issue 27): what the cell showed just before Apply, whether it had moved, and what became of the line. */
describe('the count report as CSV', () => {
  it('writes before_apply, changed_since_counted from it, and the outcome as it is now', () => {
    const r: CountReviewView = {
      session,
      lines: [line({}), line({ userProductId: 'MLAU2', title: '=cmd', counted: 9, expected: 12, difference: -3, before: 11, moved: true, result: 'conflict' })],
      uncounted: 0,
      totals: { over: 1, under: 1, matched: 0, moved: 1 },
    };
    const rows = Papa.parse<Record<string, string>>(reportCsv(r), { header: true, skipEmptyLines: true }).data;
    expect(rows).toEqual([
      {
        user_product_id: 'MLAU1',
        title: 'Termo',
        store_id: '64712',
        expected: '12',
        counted: '15',
        difference: '3',
        before_apply: '12',
        changed_since_counted: 'no',
        outcome: 'sent',
        counted_by: 'seller',
      },
      {
        user_product_id: 'MLAU2',
        title: "'=cmd",
        store_id: '64712',
        expected: '12',
        counted: '9',
        difference: '-3',
        before_apply: '11',
        changed_since_counted: 'yes',
        outcome: 'conflict',
        counted_by: 'seller',
      },
    ]);
    expect(reportName(r)).toBe('count-7-store-64712.csv');
  });
});
