/**
 * What the composer shows while the seller types, from the server's own rules (rules.ts): the
 * length against the limit, the characters that would be refused (with their positions, for the
 * highlight), and the moderation findings that would get the message rejected. Pure: the
 * component and the tests call it with a text.
 */
import type { ConversationView } from '../../common/contract/contract.js';
import { type Finding, type UnsupportedCharacter, findIssues, textLength, unsupportedCharacters } from './rules.js';

export interface ComposerCheck {
  length: number;
  max: number;
  /** Characters over the limit (0 when within). */
  over: number;
  unsupported: UnsupportedCharacter[];
  /** Moderation findings (same engine as the server): the message would be rejected. */
  warnings: Finding[];
  /** Only whitespace. */
  empty: boolean;
  /** Template fields left in the text (`{tracking}`), as written: never sent literally (issue 27). */
  unfilled: string[];
  /** Sendable as far as the text rules go (warnings do not block: moderation decides on the server, after a confirmation). */
  sendable: boolean;
}

export function checkComposer(text: string, max: number): ComposerCheck {
  const length = textLength(text);
  const unsupported = unsupportedCharacters(text);
  const warnings = text.trim() === '' ? [] : findIssues(text);
  const empty = text.trim() === '';
  const over = Math.max(0, length - max);
  const unfilled = unfilledFields(text);
  return { length, max, over, unsupported, warnings, empty, unfilled, sendable: !empty && unsupported.length === 0 && over === 0 && unfilled.length === 0 };
}

/** A piece of the text for the highlight layer: plain, a refused character, or part of a moderation warning. */
export interface Segment {
  text: string;
  refused: boolean;
  /** The reason of the warning this piece belongs to (present only on warned pieces). */
  warning?: string;
}

/**
 * The text cut around the refused characters and the warned parts (indexes are UTF-16 offsets, as
 * unsupportedCharacters and findIssues give them), for the highlight layer under the text area.
 */
export function segments(text: string, unsupported: readonly UnsupportedCharacter[], findings: readonly Finding[] = []): Segment[] {
  const cuts = new Set<number>([0, text.length]);
  for (const u of unsupported) cuts.add(u.index).add(u.index + u.char.length);
  for (const f of findings) cuts.add(f.index).add(Math.min(text.length, f.index + f.match.length));
  const points = [...cuts].filter((n) => n >= 0 && n <= text.length).sort((a, b) => a - b);
  const out: Segment[] = [];
  for (let n = 0; n + 1 < points.length; n++) {
    const [a, b] = [points[n] as number, points[n + 1] as number];
    const refused = unsupported.some((u) => u.index <= a && a < u.index + u.char.length);
    const warning = findings.find((f) => f.index <= a && a < f.index + f.match.length)?.reason;
    const last = out[out.length - 1];
    // A refused character stays its own piece (one mark per character); plain and warned runs merge.
    if (last && !refused && !last.refused && last.warning === warning) last.text += text.slice(a, b);
    else out.push({ text: text.slice(a, b), refused, ...(warning !== undefined ? { warning } : {}) });
  }
  return out;
}

/** The quick reply fields (issue 15 §2), filled from the open conversation. */
export const TEMPLATE_FIELDS = ['buyer_first_name', 'product', 'order_id'] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];
export type TemplateValues = Record<TemplateField, string>;

/** What the fields say for a conversation; a field with no data is the empty string. */
export function templateValues(c: Pick<ConversationView, 'buyer' | 'product' | 'orderIds'> | null): TemplateValues {
  const first = c?.buyer.firstName?.trim() ?? '';
  return { buyer_first_name: first, product: c?.product?.trim() ?? '', order_id: c?.orderIds[0] !== undefined ? String(c.orderIds[0]) : '' };
}

/** A piece of a filled template: text as written, or a field with its value (empty when there is no data). */
export type TemplatePart = { text: string } | { field: TemplateField; value: string };

export interface FilledTemplate {
  text: string;
  parts: TemplatePart[];
  /** Fields the conversation has no data for (they were left empty). */
  missing: TemplateField[];
}

const FIELD = /\{(buyer_first_name|product|order_id)\}/g;
/** Anything written as a field: a name in braces. A buyer has no use for one, so it is never sent as written. */
const ANY_FIELD = /\{[A-Za-z_][A-Za-z0-9_]*\}/g;

/** The fields still in a text, each once, as written (`{tracking}`): unknown ones, or known ones typed by hand. */
export function unfilledFields(text: string): string[] {
  return [...new Set(text.match(ANY_FIELD) ?? [])];
}

/** The fields of a template this app cannot fill (`{tracking}`): they would be inserted as written. */
export function unknownFields(template: string): string[] {
  return unfilledFields(template).filter((f) => !(TEMPLATE_FIELDS as readonly string[]).includes(f.slice(1, -1)));
}

/** Fills `{buyer_first_name}`, `{product}` and `{order_id}`; other braces stay as written. */
export function fillTemplate(template: string, values: TemplateValues): FilledTemplate {
  const parts: TemplatePart[] = [];
  const missing = new Set<TemplateField>();
  let at = 0;
  for (const m of template.matchAll(FIELD)) {
    const field = m[1] as TemplateField;
    if (m.index > at) parts.push({ text: template.slice(at, m.index) });
    parts.push({ field, value: values[field] });
    if (values[field] === '') missing.add(field);
    at = m.index + m[0].length;
  }
  if (at < template.length) parts.push({ text: template.slice(at) });
  return { text: parts.map((p) => ('field' in p ? p.value : p.text)).join(''), parts, missing: [...missing] };
}
