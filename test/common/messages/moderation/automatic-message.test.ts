import { describe, expect, it } from 'vitest';
import {
  AUTOMATIC_MESSAGE_MIN_LENGTH,
  AUTOMATIC_MESSAGE_THRESHOLD,
  AUTOMATIC_MESSAGE_WINDOW_MS,
  findIssues,
  moderate,
  normalizeForRepetition,
} from '../../../../common/messages/moderation/index.js';
import { expectClean, expectRejected } from './helpers.js';

const template = '¡Hola! Gracias por tu compra, tu pedido ya está en preparación.';

describe('normalizeForRepetition', () => {
  it('folds case and collapses whitespace, keeping accents and punctuation', () => {
    expect(normalizeForRepetition('  Hola   MUNDO\n\tGracias! ')).toBe('hola mundo gracias!');
    expect(normalizeForRepetition('Ñandú')).toBe('ñandú');
    expect(normalizeForRepetition('Ñandú')).not.toBe(normalizeForRepetition('Nandu'));
  });

  it('makes trivially different copies of a template identical', () => {
    const a = normalizeForRepetition(template);
    expect(normalizeForRepetition(template.toUpperCase())).toBe(a);
    expect(normalizeForRepetition(template.replace(/ /g, '  ') + '\n')).toBe(a);
    expect(normalizeForRepetition('ＨＯＬＡ')).toBe('hola'); // NFKC
  });
});

describe('AUTOMATIC_MESSAGE', () => {
  it('has documented constants', () => {
    expect(AUTOMATIC_MESSAGE_THRESHOLD).toBe(5);
    expect(AUTOMATIC_MESSAGE_WINDOW_MS).toBe(24 * 60 * 60 * 1000);
    expect(AUTOMATIC_MESSAGE_MIN_LENGTH).toBe(20);
  });

  it('passes below the threshold and without context', () => {
    expectClean(template);
    expectClean(template, {});
    expectClean(template, { identicalTextsInOtherPacks: AUTOMATIC_MESSAGE_THRESHOLD - 1 });
  });

  it('rejects at the threshold, the finding covering the whole text', () => {
    expectRejected(template, 'AUTOMATIC_MESSAGE', 'automatic.repeated-text', template, {
      identicalTextsInOtherPacks: AUTOMATIC_MESSAGE_THRESHOLD,
    });
    expect(moderate(template, { identicalTextsInOtherPacks: 50 }).status).toBe('rejected');
  });

  it('exempts short stock phrases', () => {
    expectClean('¡Gracias!', { identicalTextsInOtherPacks: 100 });
    expectClean('Ya fue despachado', { identicalTextsInOtherPacks: 100 });
  });

  it('is the lowest priority: a repeated text with personal data reports PERSONAL_DATA', () => {
    const text = `${template} Mi cel 11 4444-5555`;
    const verdict = moderate(text, { identicalTextsInOtherPacks: 9 });
    expect(verdict.status === 'rejected' && verdict.reason).toBe('PERSONAL_DATA');
    expect(
      findIssues(text, { identicalTextsInOtherPacks: 9 })
        .map((f) => f.reason)
        .sort(),
    ).toEqual(['AUTOMATIC_MESSAGE', 'PERSONAL_DATA']);
  });
});
