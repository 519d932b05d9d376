/**
 * Scan to count keeps a tally (issue 27): the scans as they came, and the list the person reads,
 * one line per product with its units (200 scans of one product: one line of 200), in the order
 * each product was first scanned (numbered from 1, the oldest). Codes that matched nothing, and
 * products that belong to another store, stay in the list flagged, never applied. Apply writes one
 * adjustment per product with its total (one history row each), not one per unit.
 */

/** What became of a scan: counted, a code nothing matches, or a product stocked at another store only. */
export type ScanOutcome = 'ok' | 'unknown' | 'other';

/** One scan, as it came. */
export interface ScanLine {
  seq: number;
  code: string;
  userProductId: string | null;
  title: string | null;
  picture: string | null;
  /** Units the scan adds (the units per scan when it came). */
  delta: number;
  outcome: ScanOutcome;
}

/** One line of the list: a product (or an unknown code) and what its scans add up to. */
export interface TallyLine {
  /** The product's id, or the code of an unknown one. */
  key: string;
  code: string;
  userProductId: string | null;
  title: string | null;
  picture: string | null;
  outcome: ScanOutcome;
  scans: number;
  units: number;
  /** The newest scan of this line (the list marks the line the last scan went to). */
  lastSeq: number;
}

/** The list of `scans` (newest first, as the store keeps them): one line per product, oldest first. */
export function tallyOf(scans: readonly ScanLine[]): TallyLine[] {
  const lines = new Map<string, TallyLine>();
  for (let i = scans.length - 1; i >= 0; i--) {
    const s = scans[i]!;
    const key = s.userProductId !== null ? `${s.outcome === 'other' ? 'other:' : ''}${s.userProductId}` : `code:${s.code}`;
    const line = lines.get(key);
    if (line) {
      line.scans += 1;
      line.units += s.delta;
      line.lastSeq = s.seq;
    } else {
      lines.set(key, {
        key,
        code: s.code,
        userProductId: s.userProductId,
        title: s.title,
        picture: s.picture,
        outcome: s.outcome,
        scans: 1,
        units: s.delta,
        lastSeq: s.seq,
      });
    }
  }
  return [...lines.values()];
}

/** The lines Apply writes: counted products with units. */
export function toApply(scans: readonly ScanLine[]): TallyLine[] {
  return tallyOf(scans).filter((l) => l.outcome === 'ok' && l.units > 0);
}
