import { findIssues } from '../common/messages/moderation/engine.js';
import type { Row } from './lib/report.js';

/**
 * Moderation on adversarial 3,500-character texts (the longest a buyer may send): patterns that
 * make a careless regex backtrack. The worst input's time, under an absolute limit (a person
 * waits on it before a send is answered). The unit test checks what is found on these texts; how
 * long it takes is measured here, never in a timed test (issue 26).
 */
export const ADVERSARIAL_TEXTS = [
  '1 '.repeat(1750),
  '1-'.repeat(1750),
  'a.'.repeat(1750),
  'a@'.repeat(1750),
  '+1'.repeat(1750),
  'cel ' + '1 '.repeat(1748),
  'arroba '.repeat(500),
  'a'.repeat(3500),
  'cerrá el '.repeat(388),
  '@a '.repeat(1166) + 'insta',
  'ab.'.repeat(1166) + 'com',
  'x (at) y (dot) '.repeat(233),
];

const ROUNDS = 20;

/** Median over ROUNDS of `fn`'s time in ms. */
function medianMs(fn: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(ROUNDS / 2)]!;
}

export function benchModeration(): Row[] {
  let worst = { ms: 0, text: '' };
  for (const text of ADVERSARIAL_TEXTS) {
    const ms = medianMs(() => findIssues(text, { identicalTextsInOtherPacks: 10 }));
    if (ms > worst.ms) worst = { ms, text };
  }
  return [
    {
      section: 'messages',
      name: 'moderation of an adversarial 3,500-character text (worst of 12)',
      value: worst.ms,
      unit: 'ms',
      limit: { max: 50, unit: 'ms' },
      note: `median of ${ROUNDS} per text; the worst starts "${worst.text.slice(0, 12)}…"`,
    },
  ];
}
