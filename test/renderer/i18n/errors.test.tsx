// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_CODES, SERVICE_ERROR_CODES } from '../../../common/errors.js';
import type { Language } from '../../../common/contract/contract.js';
import { codeOfStatus, errorDetail, errorText, errorWords } from '../../../renderer/i18n/errors.js';
import { LANGUAGES, i18nFor, useI18nStore } from '../../../renderer/i18n/index.js';
import { failureText, queuedError } from '../../../renderer/inbox/words.js';
import { placeError } from '../../../renderer/stock/ListingDialog.js';

/** Every code an error as data can carry (common/errors.ts). */
const CODES = [...new Set<string>([...Object.values(ERROR_CODES), ...SERVICE_ERROR_CODES])];
/** A code as it is: lower-case words joined by underscores, or a dotted one (`body.invalid_official_store_id`). */
const SNAKE = /\b[a-z]+[._][a-z_.]+\b/;
const OTHERS: Language[] = ['es', 'pt-BR'];

/** The core's English messages, as they come (one per code, some with data the person needs). */
const MESSAGE = 'The request could not be completed';

afterEach(() => useI18nStore.getState().setLanguage('es'));

describe('errorText: a core error in the person’s language', () => {
  it('has a sentence for every code of common/errors.ts in every language, never a code, never the "other" one', () => {
    expect(CODES.length).toBeGreaterThan(40);
    for (const language of LANGUAGES) {
      const fallback = errorWords({ code: 'not_a_code_at_all', message: '' }, language).text;
      for (const code of CODES) {
        const text = errorWords({ code, message: '' }, language).text;
        expect(text.trim(), `${language} ${code}`).not.toBe('');
        expect(text, `${language} ${code}`).not.toMatch(SNAKE);
        expect(text, `${language} ${code}`).not.toMatch(/[{}]/);
        expect(text, `${language} ${code}: its own sentence`).not.toBe(fallback);
      }
    }
  });

  it('says different things for different codes in each language (no copy-pasted sentence)', () => {
    for (const language of LANGUAGES) {
      const texts = CODES.map((code) => errorWords({ code, message: '' }, language).text);
      // internal_error is in both sets; every other sentence is its own.
      expect(new Set(texts).size, language).toBe(texts.length);
    }
  });

  it('in English keeps the core’s message as it is', () => {
    for (const code of CODES) {
      expect(errorText({ code, message: MESSAGE }, 'en')).toBe(MESSAGE);
      expect(errorDetail({ code, message: MESSAGE }, 'en')).toBeUndefined();
    }
    expect(errorText({ code: 'bad_request', message: "The field 'text' is required" }, 'en')).toBe("The field 'text' is required");
  });

  it('in Spanish and Portuguese never shows the English message alone: the sentence, and the message as a detail', () => {
    for (const language of OTHERS) {
      for (const code of CODES) {
        const { text, detail } = errorWords({ code, message: MESSAGE }, language);
        expect(text, `${language} ${code}`).not.toBe(MESSAGE);
        expect(text.startsWith(MESSAGE), `${language} ${code}`).toBe(false);
        expect(text, `${language} ${code}`).not.toMatch(SNAKE);
        // Never lost: in the text, or kept as the detail (a tooltip), exactly one of the two.
        expect(text.includes(MESSAGE) !== (detail === MESSAGE), `${language} ${code}`).toBe(true);
      }
    }
  });

  it('keeps a message with data the person needs in sight in every language: a field, a line, the marketplace’s reason', () => {
    const field = { code: 'bad_request', message: "The field 'text' is required" };
    expect(errorText(field, 'es')).toBe("Falta un dato o alguno no es válido: revisalo e intentá de nuevo. (The field 'text' is required)");
    expect(errorText(field, 'pt-BR')).toBe("Falta um dado ou algum não é válido: verifique e tente de novo. (The field 'text' is required)");
    const remote = { code: 'remote_error', message: 'Item MLA123 is under review' };
    expect(errorText(remote, 'es')).toContain('Item MLA123 is under review');
    expect(errorText(remote, 'pt-BR')).toContain('Item MLA123 is under review');
    expect(errorText({ code: 'validation_error', message: 'title: Too small' }, 'pt-BR')).toContain('title: Too small');
    expect(errorDetail(field, 'es')).toBeUndefined();
  });

  it('says what to do for the codes a person meets most', () => {
    const say = (language: Language, code: string) => errorText({ code, message: 'x' }, language);
    expect(say('es', 'offline')).toMatch(/se envían cuando vuelve la conexión/);
    expect(say('pt-BR', 'offline')).toMatch(/enviadas quando a conexão voltar/);
    expect(say('es', 'session_expired')).toMatch(/iniciá sesión de nuevo/);
    expect(say('pt-BR', 'session_expired')).toMatch(/entre de novo/);
    expect(say('es', 'conflict')).toMatch(/Alguien lo cambió.*recargá/);
    expect(say('pt-BR', 'payload_too_large')).toMatch(/tamanho máximo/);
    expect(say('es', 'conversation_blocked')).toMatch(/bloqueó esta conversación/);
    expect(errorText({ code: 'offline', message: '' }, 'en')).toMatch(/sent when the connection returns/);
    expect(errorDetail({ code: 'offline', message: 'Transfers needs a connection to the marketplace' }, 'es')).toBe(
      'Transfers needs a connection to the marketplace',
    );
  });

  it('reads an unknown code as words, with its message, in every language', () => {
    for (const language of LANGUAGES) {
      const empty = errorText({ code: 'brand_new_failure', message: '' }, language);
      expect(empty, language).toContain('Brand new failure');
      expect(empty, language).not.toMatch(SNAKE);
      expect(errorText({ code: '', message: '' }, language), language).not.toMatch(/[{}_]|: \.$/);
    }
    expect(errorText({ code: 'brand_new_failure', message: 'The marketplace says no' }, 'en')).toBe('The marketplace says no');
    expect(errorText({ code: 'brand_new_failure', message: 'The marketplace says no' }, 'es')).toBe(
      'Algo salió mal: Brand new failure. (The marketplace says no)',
    );
  });

  it('uses the current language by default', () => {
    const e = { code: 'busy', message: 'The import is already in progress' };
    useI18nStore.getState().setLanguage('pt-BR');
    expect(errorText(e)).toBe('Isto já está em andamento: espere terminar e tente de novo.');
    expect(errorDetail(e)).toBe('The import is already in progress');
    useI18nStore.getState().setLanguage('en');
    expect(errorText(e)).toBe('The import is already in progress');
    expect(errorDetail(null)).toBeUndefined();
  });

  it('gives an error known by its status alone (a failed edit) the code of that status', () => {
    expect(codeOfStatus(409)).toBe('conflict');
    expect(codeOfStatus(400)).toBe('bad_request');
    expect(codeOfStatus(503)).toBe('server_error');
    expect(codeOfStatus(null)).toBe('remote_error');
    const refused = { code: codeOfStatus(409), message: 'The adjustment of -3 would take the stock below 0: the marketplace has 0' };
    expect(errorText(refused, 'en')).toBe(refused.message);
    expect(errorText(refused, 'es')).toContain('Alguien lo cambió');
    expect(errorText(refused, 'es')).toContain(refused.message);
  });

  it('is what the screens show: a listing field’s error, a refused message', () => {
    const store = { code: 'bad_request' as const, message: 'Store not found: 999', status: 400 };
    expect(placeError(store, [], 'en')).toEqual({ store: { '999': 'Store not found: 999' } });
    expect(placeError(store, [], 'es')).toEqual({
      store: { '999': 'Falta un dato o alguno no es válido: revisalo e intentá de nuevo. (Store not found: 999)' },
    });
    const blocked = { code: 'conversation_blocked', message: 'blocked_conversation_send_message_forbidden' };
    expect(failureText(i18nFor('pt-BR'), blocked)).not.toMatch(SNAKE);
    expect(failureText(i18nFor('en'), blocked)).toBe('The order was cancelled: messages can no longer be sent in this conversation.');
    expect(failureText(i18nFor('en'), queuedError('Receiver does not belong to order 7'))).toBe('Receiver does not belong to order 7');
    expect(failureText(i18nFor('es'), queuedError('Receiver does not belong to order 7'))).toBe(
      'El marketplace lo rechazó. (Receiver does not belong to order 7)',
    );
  });
});
