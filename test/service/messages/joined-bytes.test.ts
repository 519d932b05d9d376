import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinBytes } from '../../../main/service/messages/joined-bytes.js';

const part = fc.uint8Array({ maxLength: 40_000 }).map((a) => Buffer.from(a));

describe('joinBytes: one Buffer cut from a shared slab', () => {
  it('property: answers what Buffer.concat answers, and earlier answers never change after later ones', () => {
    fc.assert(
      fc.property(fc.array(fc.array(part, { maxLength: 12 }), { minLength: 1, maxLength: 40 }), (joins) => {
        const answers = joins.map((parts) => ({ parts, bytes: joinBytes(parts) }));
        for (const { parts, bytes } of answers) expect(bytes.equals(Buffer.concat(parts))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps every answer intact across a slab boundary and for joins larger than a quarter slab', () => {
    // 40 joins of 33 KB cross the 1 MB slab once; a 300 KB join gets a Buffer of its own.
    const pages = Array.from({ length: 40 }, (_, i) => [Buffer.alloc(100, i), Buffer.alloc(33_000, 255 - i)]);
    const answers = pages.map((parts) => joinBytes(parts));
    const big = joinBytes([Buffer.alloc(300 * 1024, 7)]);
    answers.forEach((bytes, i) => expect(bytes.equals(Buffer.concat(pages[i]!))).toBe(true));
    expect(big.length).toBe(300 * 1024);
    expect(big.every((b) => b === 7)).toBe(true);
    expect(joinBytes([]).length).toBe(0);
  });
});
