/**
 * A count session's report as CSV: one row per counted line with its variance, what the cell
 * showed just before Apply, whether it had moved since it was counted, what became of it, and who counted it.
 */
import { csvText } from '../../../common/csv-cell.js';
import type { CountReviewView } from '../../../common/contract/contract.js';

export function reportCsv(r: CountReviewView): string {
  const head = ['user_product_id', 'title', 'store_id', 'expected', 'counted', 'difference', 'before_apply', 'changed_since_counted', 'outcome', 'counted_by'];
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
    // Who counted it: the workstation's operator, else the account (issue 27).
    l.countedBy ?? r.session.author,
  ]);
  // No cell can start a formula, whichever separator a spreadsheet splits on.
  return csvText([head, ...rows]);
}

export const reportName = (r: CountReviewView) => `count-${r.session.id}-store-${r.session.storeId}.csv`;
