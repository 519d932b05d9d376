import { expect } from 'vitest';
import { findIssues, moderate, type ModerationContext, type ModerationReason } from '../../../../common/messages/moderation/index.js';

/** Asserts the text is rejected for `reason`, with a finding of `rule` whose match is `match` (when given). */
export function expectRejected(text: string, reason: ModerationReason, rule: string, match?: string, context?: ModerationContext) {
  const verdict = moderate(text, context);
  const found = verdict.findings.map((f) => `${f.rule}: ${f.match}`);
  expect(verdict.status, `${JSON.stringify(text)} → ${JSON.stringify(found)}`).toBe('rejected');
  if (verdict.status !== 'rejected') return;
  expect(verdict.reason, `${JSON.stringify(text)} → ${JSON.stringify(found)}`).toBe(reason);
  const finding = verdict.findings.find((f) => f.rule === rule);
  expect(finding, `${JSON.stringify(text)}: no ${rule} in ${JSON.stringify(found)}`).toBeDefined();
  if (!finding) return;
  expect(text.slice(finding.index, finding.index + finding.match.length)).toBe(finding.match);
  if (match !== undefined) expect(finding.match).toBe(match);
}

/** Asserts that no rule at all finds anything in the text. */
export function expectClean(text: string, context?: ModerationContext) {
  const findings = findIssues(text, context);
  expect(
    findings.map((f) => `${f.rule}: ${f.match}`),
    JSON.stringify(text),
  ).toEqual([]);
  expect(moderate(text, context)).toEqual({ status: 'clean', findings: [] });
}

/** Asserts that no finding of `reason` is reported (other families may still find something). */
export function expectNoFindingOf(text: string, reason: ModerationReason) {
  const findings = findIssues(text).filter((f) => f.reason === reason);
  expect(
    findings.map((f) => `${f.rule}: ${f.match}`),
    JSON.stringify(text),
  ).toEqual([]);
}
