import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL_TEXTS } from '../../../../bench/moderation.js';
import { MODERATION_REASONS, REASON_PRIORITY, RULES, findIssues, moderate, type Finding } from '../../../../common/messages/moderation/index.js';

const reasonOf = (text: string) => {
  const verdict = moderate(text);
  return verdict.status === 'rejected' ? verdict.reason : null;
};

const locatedCorrectly = (text: string, findings: Finding[]) => {
  for (const f of findings) expect(text.slice(f.index, f.index + f.match.length)).toBe(f.match);
};

describe('rules', () => {
  it('priority lists each of the seven reasons exactly once', () => {
    expect(REASON_PRIORITY).toHaveLength(7);
    expect([...REASON_PRIORITY].sort()).toEqual([...MODERATION_REASONS].sort());
  });

  it('have unique ids, a known reason and a message', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const prefixes: Record<string, string> = {
      PERSONAL_DATA: 'personal.',
      SOCIAL_NETWORK_LINK: 'social.',
      LINK_SHORT_URL: 'short-url.',
      LINK_PAYMENT: 'payment.',
      EVASION_CLAIM_SELLER: 'claim.',
      OUT_OF_PLACE_LANGUAGE: 'language.',
      AUTOMATIC_MESSAGE: 'automatic.',
    };
    for (const rule of RULES) {
      expect(MODERATION_REASONS).toContain(rule.reason);
      expect(rule.id.startsWith(prefixes[rule.reason] ?? '?')).toBe(true);
      expect(rule.message).toMatch(/^Looks like .+\.$|^The same text .+\.$/);
    }
  });
});

describe('moderate', () => {
  it('is clean with no findings for an ordinary message', () => {
    expect(moderate('¡Hola! Tu pedido 2000009000001 ya fue despachado 📦. Llega el 15/03. Gracias 🙂')).toEqual({
      status: 'clean',
      findings: [],
    });
  });

  it('reports the highest-priority reason and every finding', () => {
    const text = 'boludo, mi cel 11 4444-5555, bit.ly/abc, pagame por fuera y cerrá el reclamo';
    const verdict = moderate(text);
    expect(verdict.status).toBe('rejected');
    if (verdict.status !== 'rejected') return;
    expect(verdict.reason).toBe('EVASION_CLAIM_SELLER');
    expect(new Set(verdict.findings.map((f) => f.reason))).toEqual(
      new Set(['OUT_OF_PLACE_LANGUAGE', 'PERSONAL_DATA', 'LINK_SHORT_URL', 'LINK_PAYMENT', 'EVASION_CLAIM_SELLER']),
    );
    expect(verdict.findings).toEqual(findIssues(text));
  });

  it.each([
    ['pagame por fuera, mi cel 11 4444-5555', 'LINK_PAYMENT'],
    ['mi cel 11 4444-5555, seguime en instagram.com/x', 'PERSONAL_DATA'],
    ['seguime en instagram.com/x o bit.ly/abc', 'SOCIAL_NETWORK_LINK'],
    ['boludo, mirá bit.ly/abc', 'LINK_SHORT_URL'],
    ['boludo', 'OUT_OF_PLACE_LANGUAGE'],
  ])('follows REASON_PRIORITY: %s → %s', (text, reason) => expect(reasonOf(text)).toBe(reason));

  it('is stateless between calls (global regexes are reset)', () => {
    const text = 'mi cel 11 4444-5555 y el fijo 11 5555-6666';
    const first = findIssues(text);
    expect(first).toHaveLength(2);
    findIssues('otro texto con ana@x.com');
    expect(findIssues(text)).toEqual(first);
  });
});

describe('findIssues', () => {
  it('orders findings by position', () => {
    const findings = findIssues('cerrá el reclamo, escribime a ana@x.com, boludo');
    expect(findings.map((f) => f.reason)).toEqual(['EVASION_CLAIM_SELLER', 'PERSONAL_DATA', 'OUT_OF_PLACE_LANGUAGE']);
    expect(findings.map((f) => f.index)).toEqual([...findings.map((f) => f.index)].sort((a, b) => a - b));
  });

  it('gives UTF-16 indexes into the original text after emoji, decomposed accents and fullwidth letters', () => {
    const texts = ['👍🏽🤷‍♀️ Escribime a ana@x.com', 'mi tele\u0301fono es 1144445555', 'ＭＩ ＣＥＬ 11 4444-5555 ok', 'hola\u200B, boludo'];
    for (const text of texts) {
      const findings = findIssues(text);
      expect(findings.length, text).toBeGreaterThan(0);
      locatedCorrectly(text, findings);
    }
    const [f] = findIssues('mi tele\u0301fono es 1144445555');
    expect(f?.match).toBe('1144445555');
    expect(f?.index).toBe('mi tele\u0301fono es '.length);
  });

  it('gives each finding a plain-English message', () => {
    const [f] = findIssues('escribime a martin.gomez@example.com');
    expect(f).toEqual({
      reason: 'PERSONAL_DATA',
      rule: 'personal.email',
      match: 'martin.gomez@example.com',
      index: 12,
      message: 'Looks like an e-mail address: messages with personal data are rejected.',
    });
  });

  it('answers on adversarial 3,500-character texts (how fast: bench/moderation.ts)', () => {
    // Texts that make a careless regex backtrack; each still gets its findings. Their time is a
    // figure of `npm run bench`, never an assertion here.
    for (const text of ADVERSARIAL_TEXTS) {
      locatedCorrectly(text, findIssues(text, { identicalTextsInOtherPacks: 10 }));
      expect(['clean', 'rejected']).toContain(moderate(text).status);
    }
  });

  it('property: never throws, and every finding points at its match in the original text', () => {
    const token = fc.constantFrom(
      'cel',
      ' ',
      '11',
      '4444-5555',
      '@',
      'gmail',
      '.com',
      'arroba',
      'pix',
      'reclamo',
      'cerrá',
      'el',
      'ñ',
      'é',
      '\u0301',
      '👍🏽',
      'ｂｉｔ．ｌｙ',
      '/x',
      '\u00AD',
      '$',
      '15.999',
      'boludo',
      'insta',
      '\n',
      'İ',
      'ß',
      'ﬁ',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (tokens) => {
        const text = tokens.join('');
        locatedCorrectly(text, findIssues(text));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        locatedCorrectly(text, findIssues(text));
      }),
    );
  });
});
