import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../../main/service/errors.js';
import { DEFAULT_LIMIT, MAX_LIMIT, newMessageId, parseLimit, parseMessageId, parseOffset, wantsNewFormat } from '../../../main/service/messages/messages.js';
import { parseOrderId, parsePackId } from '../../../main/service/messages/orders.js';

const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (isServiceError(e)) return e.message;
    throw e;
  }
  return 'ok';
};

describe('paging parameters', () => {
  it('limit: default 10, 1..100', () => {
    expect(parseLimit(undefined)).toBe(DEFAULT_LIMIT);
    expect(DEFAULT_LIMIT).toBe(10);
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit(String(MAX_LIMIT))).toBe(100);
    expect(message(() => parseLimit('0'))).toBe('The limit param must be greater than 0');
    expect(message(() => parseLimit('-7'))).toBe('The limit param must be greater than 0');
    for (const bad of ['101', 'ten', '', '1.0', ' 1', ['1', '2']]) expect(message(() => parseLimit(bad))).toBe('Invalid limit param');
  });

  it('offset: default 0, 0..999999999', () => {
    expect(parseOffset(undefined)).toBe(0);
    expect(parseOffset('0')).toBe(0);
    expect(parseOffset('999999999')).toBe(999999999);
    for (const bad of ['-1', '1000000000', 'x', '', ['0']]) expect(message(() => parseOffset(bad))).toBe('Invalid offset param');
  });
});

describe('ids', () => {
  it('message ids are 32 hex characters, folded to lower case; new ones have that form', () => {
    expect(parseMessageId('ABCDEF0123456789abcdef0123456789')).toBe('abcdef0123456789abcdef0123456789');
    expect(message(() => parseMessageId('abc'))).toBe('The specified message id does not exists');
    expect(message(() => parseMessageId('g'.repeat(32)))).toBe('The specified message id does not exists');
    const ids = new Set(Array.from({ length: 100 }, newMessageId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('order and pack ids are positive safe integers without leading zeros', () => {
    expect(parseOrderId('2000009000001')).toBe(2000009000001);
    expect(parsePackId('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    for (const bad of ['0', '01', '-1', '9007199254740992', '1e3', '', 'x']) {
      expect(
        message(() => parsePackId(bad)),
        bad,
      ).toBe(`Invalid pack id: '${bad}'`);
    }
  });
});

describe('x-format-new', () => {
  it('selects the current shape only for "true"', () => {
    expect(wantsNewFormat('true')).toBe(true);
    expect(wantsNewFormat(' TRUE ')).toBe(true);
    expect(wantsNewFormat(['true', 'false'])).toBe(true);
    for (const v of [undefined, 'false', '1', 'yes', '']) expect(wantsNewFormat(v)).toBe(false);
  });
});
