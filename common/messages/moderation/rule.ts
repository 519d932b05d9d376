/**
 * What a rule is, and the helper most rules are built with. A rule has a stable id (used in
 * findings and tests), the reason it rejects with, a plain-English message for the UI, and a
 * `find` function over the prepared text. To add a rule: write it in the file of its reason
 * family, add it to that file's exported list, and add true- and false-positive tests.
 */
import type { PreparedText, View } from './prepared.js';
import { locate } from './prepared.js';
import type { Finding, ModerationContext, ModerationReason } from './types.js';

export interface Rule {
  readonly id: string;
  readonly reason: ModerationReason;
  readonly message: string;
  find(text: PreparedText, context: ModerationContext): Finding[];
}

export interface PatternRuleDefinition {
  id: string;
  reason: ModerationReason;
  message: string;
  /** Which normalized view to match (default `folded`: lower case, accents removed, ñ kept). */
  view?: View;
  /**
   * What to find. The `g` and `d` flags are added. When the pattern has a named group `hit`, the
   * finding covers that group only (context around it can then be matched without being reported).
   */
  pattern: RegExp;
  /** Extra check on a match (checksums, exclusions that a regex says badly). */
  accept?: (match: RegExpExecArray, view: string, text: PreparedText) => boolean;
  /**
   * A cheap test that every match of `pattern` passes (a literal the pattern cannot match
   * without, such as "@" for an e-mail address): when the view fails it, `pattern` is not run.
   * It must only ever skip texts where `pattern` finds nothing; a test checks that on texts
   * built from the rules' own examples and words.
   */
  requires?: RegExp;
}

/** A rule built by `patternRule`; its regexes are exposed for tests. */
export interface PatternRule extends Rule {
  readonly view: View;
  readonly pattern: RegExp;
  readonly requires: RegExp | undefined;
}

export function finding(rule: Pick<Rule, 'id' | 'reason' | 'message'>, text: PreparedText, view: View, start: number, end: number): Finding {
  const { index, match } = locate(text, view, start, end);
  return { reason: rule.reason, rule: rule.id, match, index, message: rule.message };
}

export function patternRule(def: PatternRuleDefinition): PatternRule {
  const view = def.view ?? 'folded';
  const flags = new Set([...def.pattern.flags, 'g', 'd']);
  const pattern = new RegExp(def.pattern.source, [...flags].join(''));
  // Without g and y, test() keeps no state between texts.
  const requires = def.requires && new RegExp(def.requires.source, def.requires.flags.replace(/[gy]/g, ''));
  const rule: PatternRule = {
    id: def.id,
    reason: def.reason,
    message: def.message,
    view,
    pattern,
    requires,
    find(text) {
      const subject = text[view];
      if (requires && !requires.test(subject)) return [];
      const found: Finding[] = [];
      pattern.lastIndex = 0;
      for (let m = pattern.exec(subject); m !== null; m = pattern.exec(subject)) {
        if (m[0] === '') {
          pattern.lastIndex++;
          continue;
        }
        if (def.accept && !def.accept(m, subject, text)) continue;
        const [start, end] = m.indices?.groups?.['hit'] ?? m.indices?.[0] ?? [m.index, m.index + m[0].length];
        found.push(finding(rule, text, view, start, end));
      }
      return found;
    },
  };
  return rule;
}

/** The rest of a URL after its domain: no spaces, and not ending in punctuation that ends the sentence. */
export const URL_REST = String.raw`(?:[^\s]*[^\s.,;:!?)\]}'"»])?`;

/**
 * Each domain from its first dot on ("bit.ly" → ".ly"), without repeats: a text in which none of
 * them occurs contains none of the domains.
 */
export const domainTails = (domains: readonly string[]): string[] => [...new Set(domains.map((d) => d.slice(d.indexOf('.'))))];

/** Alternation of literal words, longest first, regex-escaped. */
export function alternation(words: readonly string[]): string {
  return [...words]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');
}

/** The characters of a view just before `index` (at most `length`). */
export const before = (view: string, index: number, length: number) => view.slice(Math.max(0, index - length), index);
/** The characters of a view from `index` (at most `length`). */
export const after = (view: string, index: number, length: number) => view.slice(index, index + length);
