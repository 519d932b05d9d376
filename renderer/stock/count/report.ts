/**
 * A count session's report as CSV: one row per counted line with its variance, what the cell
 * showed just before Apply, whether it had moved since it was counted, and what became of it.
 */
import { csvText } from '../../../common/csv-cell.js';
import type { CountReviewView } from '../../../common/contract/contract.js';

export function reportCsv(r: CountReviewView): string {
  const head = ['user_product_id', 'title', 'store_id', 'expected', 'counted', 'difference', 'before_apply', 'changed_since_counted', 'outcome'];
  const rows = r.lines.map((l) => [
    l.userProductId,
    l.title,
    r.session.storeId,
    l.expected,
    l.counted,
    l.difference,
    l.before ?? '',
    l.moved ? 'yes' : 'no',
    l.result ?? '',
  ]);
  // No cell can start a formula, whichever separator a spreadsheet splits on.
  return csvText([head, ...rows]);
}

export const reportName = (r: CountReviewView) => `count-${r.session.id}-store-${r.session.storeId}.csv`;
