import { describe, expect, it } from 'vitest';
import { UNNAMED_FILE, displayFileName, fileNameProblem } from '../../../common/messages/file-names.js';
import { Pager, PullError } from '../../../main/sync/paging.js';

describe('a paged listing is read within what it announced and a ceiling (issue 25)', () => {
  it('reads an honest listing to its end, short pages included', () => {
    const p = new Pager('stores', 1000, 50);
    expect(p.next(120, 50)).toBe(50);
    expect(p.next(120, 40)).toBe(90);
    expect(p.next(120, 30)).toBeNull();
    expect(new Pager('stores', 1000, 50).next(0, 0)).toBeNull();
  });

  it('allows one page of entries added while paging, then refuses a pager that never ends', () => {
    const p = new Pager('orders', 1_000_000, 100);
    let offset: number | null = 0;
    let pages = 0;
    expect(() => {
      for (; offset !== null; pages++) offset = p.next(offset + 200, 100);
    }).toThrow(new PullError('orders: the marketplace kept paging past the 200 entries it announced (300 read in 3 pages)', false, 200));
    expect(pages).toBe(2);
  });

  it('refuses a total over the ceiling before any work is sized from it, and pages larger than asked', () => {
    expect(() => new Pager('items', 1000, 100).next(1e9, 100)).toThrow(/announced 1000000000 entries, more than the 1000/);
    expect(() => new Pager('items', 1000, 100).next(10, 101)).toThrow(/a page of 101 entries, more than the 100 asked for/);
  });
});

describe("the remote's file names under the app's own rules", () => {
  it('keeps an acceptable name as it is and makes any other one acceptable', () => {
    expect(displayFileName('factura 12.pdf')).toBe('factura 12.pdf');
    for (const [raw, shown] of [
      ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
      ['..\\..\\startup\\run.bat', '.._.._startup_run.bat'],
      ['a/b\u0000c\u200B.txt', 'a_bc.txt'],
      ['..', UNNAMED_FILE],
      ['\u202E', UNNAMED_FILE],
      ['', UNNAMED_FILE],
      ['x'.repeat(300), 'x'.repeat(255)],
    ] as const) {
      expect(displayFileName(raw)).toBe(shown);
      expect(fileNameProblem(displayFileName(raw))).toBeUndefined();
    }
  });
});
