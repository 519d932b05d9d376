// The detector is pure; .tsx so the renderer's tsconfig (with the DOM types scanner.ts needs) checks it.
import { describe, expect, it } from 'vitest';
import { SCAN_KEY_INTERVAL_MS, SCAN_LEAD_GAP_MS, SCAN_MIN_LENGTH, SCAN_PAUSE_MS, ScanDetector } from '../../../renderer/stock/scanner.js';

/**
 * The scanner detector (renderer/stock/scanner.ts) on keys with given times: a burst of at least
 * SCAN_MIN_LENGTH characters, on average under SCAN_KEY_INTERVAL_MS apart, ending in Enter, is a
 * scan; anything a person types is not.
 */
function feed(d: ScanDetector<string>, keys: string[], gap: number, t0 = 1000, begin?: () => string) {
  let at = t0;
  let last = null;
  for (const key of keys) {
    last = d.key({ key, at }, begin);
    at += gap;
  }
  return { result: last, at };
}
const chars = (code: string) => [...code, 'Enter'];

describe('ScanDetector', () => {
  it('takes a fast burst ending in Enter as a scan, with the code as typed', () => {
    const d = new ScanDetector<string>();
    expect(feed(d, chars('TERM0001'), 5).result).toEqual({ code: 'TERM0001', start: undefined });
    expect(feed(d, chars('00123457'), SCAN_KEY_INTERVAL_MS - 1, 5000).result).toMatchObject({ code: '00123457' });
  });

  it('a burst ending in Tab is a scan as well (scanners set to end with Tab); Shift+Tab or a slow burst is not', () => {
    const d = new ScanDetector<string>();
    expect(feed(d, [...'TERM0001', 'Tab'], 5).result).toEqual({ code: 'TERM0001', start: undefined });
    const shifted = feed(d, [...'TERM0001'], 5, 5000);
    expect(d.key({ key: 'Tab', at: shifted.at, shiftKey: true })).toBeNull();
    // A slow scanner (40 ms a key) is a person to the detector, whichever key ends it.
    expect(feed(d, [...'00123457', 'Tab'], 40, 9000).result).toBeNull();
  });

  it('a count typed by hand is not a scan, nor a short fast one', () => {
    const d = new ScanDetector<string>();
    expect(feed(d, chars('1200'), 120).result).toBeNull();
    // At the limit: on average exactly the interval is a person.
    expect(feed(d, chars('1200'), SCAN_KEY_INTERVAL_MS, 5000).result).toBeNull();
    expect(feed(d, chars('40'), 2, 9000).result).toBeNull();
    expect(SCAN_MIN_LENGTH).toBe(4);
    expect(feed(d, chars('4000'.slice(0, SCAN_MIN_LENGTH - 1)), 2, 12000).result).toBeNull();
  });

  it('averages the gaps: one slow key in a fast burst (a busy machine) is still a scan', () => {
    const d = new ScanDetector<string>();
    const times = [0, 5, 10, 15, 70, 75, 80, 85, 90];
    const keys = chars('7790001234565'.slice(0, 8));
    let result = null;
    keys.forEach((key, i) => (result = d.key({ key, at: 1000 + times[i]! })));
    expect(result).toEqual({ code: '77900012', start: undefined });
  });

  it('a pause starts a new burst: what a person typed before a scan is not part of its code', () => {
    const d = new ScanDetector<string>();
    let n = 0;
    d.key({ key: '1', at: 0 }, () => `start ${++n}`);
    d.key({ key: '2', at: 150 }, () => `start ${++n}`);
    const { result } = feed(d, chars('MLA1400000005'), 3, 150 + SCAN_PAUSE_MS + 1, () => `start ${++n}`);
    expect(result).toEqual({ code: 'MLA1400000005', start: 'start 3' });
  });

  it('keys a person typed right before a scan (no pause) are left out of its code', () => {
    const d = new ScanDetector<string>();
    let at = 0;
    let result = null;
    // A person's keys, and the scanner's first one as long after the last (still no pause).
    for (const key of 'TermoM') d.key({ key, at: (at += SCAN_LEAD_GAP_MS) }, () => `before ${key}`);
    for (const key of chars('LA1400000010')) result = d.key({ key, at: (at += 4) }, () => `before ${key}`);
    expect(SCAN_LEAD_GAP_MS).toBeLessThan(SCAN_PAUSE_MS);
    expect(result).toEqual({ code: 'MLA1400000010', start: 'before M' });
  });

  it('an Enter after a pause, a modified key or a non-character key in between is not a scan', () => {
    const d = new ScanDetector<string>();
    const late = feed(d, [...'12345'], 2);
    expect(d.key({ key: 'Enter', at: late.at + SCAN_PAUSE_MS + 1 })).toBeNull();

    feed(d, [...'12345'], 2, 5000);
    expect(d.key({ key: 'ArrowDown', at: 5011 })).toBeNull();
    expect(d.key({ key: 'Enter', at: 5012 })).toBeNull();

    // Ctrl+V and such are not characters: the burst breaks.
    feed(d, [...'1234'], 2, 9000);
    expect(d.key({ key: 'v', at: 9009, ctrlKey: true })).toBeNull();
    expect(d.key({ key: 'Enter', at: 9010 })).toBeNull();
  });

  it('Shift (a scanner types capitals with it) neither counts nor breaks the burst', () => {
    const d = new ScanDetector<string>();
    let at = 0;
    let result = null;
    for (const key of ['Shift', 'T', 'Shift', 'E', 'Shift', 'R', 'Shift', 'M', '0', '0', '0', '1', 'Enter']) result = d.key({ key, at: (at += 3) });
    expect(result).toMatchObject({ code: 'TERM0001' });
  });

  it('forgets a burst once answered, and on reset', () => {
    const d = new ScanDetector<string>();
    const { at } = feed(d, chars('TERM0001'), 5);
    expect(d.key({ key: 'Enter', at: at + 1 })).toBeNull();
    feed(d, [...'TERM0001'], 5, 5000);
    d.reset();
    expect(d.key({ key: 'Enter', at: 5041 })).toBeNull();
  });
});
