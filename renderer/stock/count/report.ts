/** A count session's report as CSV: one row per counted line with its variance and what the apply did. */
import type { CountReviewView } from '../../../preload/contract.js';

const cell = (v: string | number | null): string => {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  // A title starting like a formula is kept as text by spreadsheets.
  const s = /^[=+\-@]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function reportCsv(r: CountReviewView): string {
  const head = ['user_product_id', 'title', 'store_id', 'expected', 'counted', 'difference', 'changed_since_counted', 'outcome'];
  const rows = r.lines.map((l) => [l.userProductId, l.title, r.session.storeId, l.expected, l.counted, l.difference, l.moved ? 'yes' : 'no', l.outcome ?? '']);
  return [head, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

export const reportName = (r: CountReviewView) => `count-${r.session.id}-store-${r.session.storeId}.csv`;
