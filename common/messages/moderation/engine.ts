/**
 * The moderation engine: runs every rule over a normalized view of the text (see prepared.ts) and
 * turns the findings into a verdict. The reason of a rejected verdict is the reason of the
 * highest-priority finding, per REASON_PRIORITY.
 */
import { automaticMessageRules } from './automatic-message.js';
import { claimEvasionRules } from './claim-evasion.js';
import { languageRules } from './language.js';
import { paymentLinkRules } from './payment-link.js';
import { personalDataRules } from './personal-data.js';
import { prepare } from './prepared.js';
import type { Rule } from './rule.js';
import { shortUrlRules } from './short-url.js';
import { socialNetworkRules } from './social-network.js';
import type { Finding, ModerationContext, ModerationReason, Verdict } from './types.js';

/**
 * Which reason a rejected message reports when several apply, most important first:
 * 1. EVASION_CLAIM_SELLER: a seller pressing a buyer about a claim is the most serious abuse;
 * 2. LINK_PAYMENT: paying outside the platform loses the buyer's protection (fraud risk);
 * 3. PERSONAL_DATA: contact or identity data moving the conversation off the platform;
 * 4. SOCIAL_NETWORK_LINK: the same, through a social network;
 * 5. LINK_SHORT_URL: a hidden destination;
 * 6. OUT_OF_PLACE_LANGUAGE: rude, but not a transaction risk;
 * 7. AUTOMATIC_MESSAGE: only about how the text was sent, not what it says.
 */
export const REASON_PRIORITY: readonly ModerationReason[] = [
  'EVASION_CLAIM_SELLER',
  'LINK_PAYMENT',
  'PERSONAL_DATA',
  'SOCIAL_NETWORK_LINK',
  'LINK_SHORT_URL',
  'OUT_OF_PLACE_LANGUAGE',
  'AUTOMATIC_MESSAGE',
];

/** Every rule, grouped by reason family in priority order. */
export const RULES: readonly Rule[] = [
  ...claimEvasionRules,
  ...paymentLinkRules,
  ...personalDataRules,
  ...socialNetworkRules,
  ...shortUrlRules,
  ...languageRules,
  ...automaticMessageRules,
];

const priority = (reason: ModerationReason) => REASON_PRIORITY.indexOf(reason);
const overlaps = (a: Finding, b: Finding) => a.index < b.index + Math.max(1, b.match.length) && b.index < a.index + Math.max(1, a.match.length);

/**
 * Every finding in the text, ordered by position (then priority). Findings of the same reason
 * that overlap are reported once (the longest match wins, then the earlier rule), so the composer
 * does not show "phone number" twice for one number.
 */
export function findIssues(text: string, context: ModerationContext = {}): Finding[] {
  const prepared = prepare(text);
  const all: { f: Finding; order: number }[] = [];
  for (let order = 0; order < RULES.length; order++) {
    for (const f of (RULES[order] as Rule).find(prepared, context)) all.push({ f, order });
  }
  if (all.length === 0) return [];
  all.sort((a, b) => b.f.match.length - a.f.match.length || a.order - b.order);
  const kept: Finding[] = [];
  for (const { f } of all) {
    if (!kept.some((k) => k.reason === f.reason && overlaps(k, f))) kept.push(f);
  }
  return kept.sort((a, b) => a.index - b.index || priority(a.reason) - priority(b.reason));
}

/** Clean, or rejected with the reason of the highest-priority finding and every finding. */
export function moderate(text: string, context: ModerationContext = {}): Verdict {
  const findings = findIssues(text, context);
  if (findings.length === 0) return { status: 'clean', findings: [] };
  const reason = REASON_PRIORITY.find((r) => findings.some((f) => f.reason === r));
  return { status: 'rejected', reason: reason ?? (findings[0] as Finding).reason, findings };
}
