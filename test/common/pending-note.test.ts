import { describe, expect, it } from 'vitest';
import { minute } from '../../common/pending-note.js';

/** The exports' notes say when in local time with its offset, not in UTC (issue 27). */
describe('the time of an export note', () => {
  const at = Date.UTC(2026, 10, 23, 14, 2);
  it('is the local wall clock with its offset', () => {
    expect(minute(at, -180)).toBe('2026-11-23 11:02 -03:00');
    expect(minute(at, 330)).toBe('2026-11-23 19:32 +05:30');
    expect(minute(Date.UTC(2026, 10, 23, 1, 5), -180)).toBe('2026-11-22 22:05 -03:00');
  });
  it("defaults to the machine's offset at that moment", () => {
    const offset = -new Date(at).getTimezoneOffset();
    expect(minute(at)).toBe(minute(at, offset));
    expect(minute(at)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d [+-]\d\d:\d\d$/);
  });
});
