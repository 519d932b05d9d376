import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../../main/service/errors.js';
import { SECURE_EMAIL, parseSendRequest, textField, userIdValue } from '../../../main/service/messages/send-request.js';

const failure = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (isServiceError(e)) return `${e.status} ${e.message}`;
    throw e;
  }
  throw new Error('expected a ServiceError');
};

describe('parseSendRequest', () => {
  it('reads ids given as digit strings or integers', () => {
    expect(parseSendRequest({ from: { user_id: '12' }, to: { user_id: 34 }, text: 'hola' })).toEqual({
      fromUserId: 12,
      toUserId: 34,
      toEmail: null,
      legacy: null,
      text: 'hola',
      attachments: undefined,
    });
  });

  it('keeps the older addressing when given', () => {
    const req = parseSendRequest({ from: { user_id: '1' }, to: { user_id: '2', resource: 'orders', site_id: 'MLA', resource_id: '99' }, text: 'x' });
    expect(req.legacy).toEqual({ siteId: 'MLA', resourceId: 99 });
    const noId = parseSendRequest({ from: { user_id: '1' }, to: { user_id: '2', resource: 'orders', site_id: 'MLA', resource_id: null } });
    expect(noId.legacy).toEqual({ siteId: 'MLA', resourceId: null });
  });

  it('checks in the documented order', () => {
    expect(failure(() => parseSendRequest(undefined))).toBe('400 A JSON body is required');
    expect(failure(() => parseSendRequest({ to: 'x' }))).toBe("400 The field 'from' is required");
    expect(failure(() => parseSendRequest({ from: { user_id: 'a' } }))).toBe("400 Invalid 'from' user id");
    expect(failure(() => parseSendRequest({ from: { user_id: '1' }, to: { user_id: 'b' } }))).toBe("400 Invalid 'to' user id");
    expect(failure(() => parseSendRequest({ from: { user_id: '1' }, to: { user_id: 1, resource: 'x' } }))).toBe('400 Sender and received must not be equals');
    expect(failure(() => parseSendRequest({ from: { user_id: '1' }, to: { user_id: 0, resource: 'x' } }))).toBe(
      "400 The field 'to.email' must be a secure email",
    );
    expect(failure(() => parseSendRequest({ from: { user_id: '1' }, to: { user_id: 2, resource: 'x' } }))).toBe("400 Invalid field 'to.resource'");
    expect(failure(() => parseSendRequest({ from: { user_id: '1' }, to: { user_id: 2, resource_id: 5 } }))).toBe("400 The field 'to.resource' is required");
    expect(failure(() => parseSendRequest({ from: { user_id: '1' }, to: { user_id: 2, resource: 'orders', resource_id: 'x' } }))).toBe(
      "400 The field 'to.site_id' is required",
    );
    expect(failure(() => parseSendRequest({ from: { user_id: '1' }, to: { user_id: 2, resource: 'orders', site_id: 'ML', resource_id: 'x' } }))).toBe(
      "400 The field 'to.site_id' has an invalid value",
    );
    expect(failure(() => parseSendRequest({ from: { user_id: '1' }, to: { user_id: 2, resource: 'orders', site_id: 'MLA', resource_id: 'x' } }))).toBe(
      "400 Invalid field 'to.resource_id'",
    );
  });

  it('text is checked later (it needs the sender role), only its presence and type here', () => {
    expect(failure(() => textField(undefined))).toBe("400 The field 'text' is required");
    expect(failure(() => textField(null))).toBe("400 The field 'text' is required");
    expect(failure(() => textField(['a']))).toBe("400 The field 'text' must be a string");
    expect(textField('')).toBe('');
  });
});

describe('userIdValue', () => {
  it('accepts digits and safe non-negative integers; 0 only for the recipient', () => {
    expect(userIdValue('1780493260', false)).toBe(1780493260);
    expect(userIdValue(1780493260, false)).toBe(1780493260);
    expect(userIdValue('0', true)).toBe(0);
    expect(userIdValue('0', false)).toBeUndefined();
    for (const bad of ['', ' 1', '1 ', '+1', '1e3', '0x10', '12345678901234567', -1, 1.5, Number.NaN, 2 ** 53, true, {}, []]) {
      expect(userIdValue(bad, true), String(bad)).toBeUndefined();
    }
  });
});

describe('SECURE_EMAIL', () => {
  it('accepts the marketplace relay addresses only', () => {
    for (const ok of ['mgomez.8k2j3+2-ogeytsnjzgu4dk@mail.mercadolibre.com', 'a@mail.mercadolivre.com', 'buyer_1@mail.mercadolibre.com']) {
      expect(SECURE_EMAIL.test(ok), ok).toBe(true);
    }
    for (const bad of [
      'martin@gmail.com',
      'a@mercadolibre.com',
      'a@mail.mercadolibre.com.ar',
      'A@MAIL.MERCADOLIBRE.COM',
      '.a@mail.mercadolibre.com',
      'a b@mail.mercadolibre.com',
      '@mail.mercadolibre.com',
    ]) {
      expect(SECURE_EMAIL.test(bad), bad).toBe(false);
    }
  });
});
