/**
 * What the composer shows while the seller types, from the server's own rules (rules.ts): the
 * length against the limit, the characters that would be refused (with their positions, for the
 * highlight), and the moderation findings that would get the message rejected. Pure: the
 * component and the tests call it with a text.
 */
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
  /** Sendable as far as the text rules go (warnings do not block: moderation decides on the server). */
  sendable: boolean;
}

export function checkComposer(text: string, max: number): ComposerCheck {
  const length = textLength(text);
  const unsupported = unsupportedCharacters(text);
  const warnings = text.trim() === '' ? [] : findIssues(text);
  const empty = text.trim() === '';
  const over = Math.max(0, length - max);
  return { length, max, over, unsupported, warnings, empty, sendable: !empty && unsupported.length === 0 && over === 0 };
}

/** A piece of the text for the highlight layer: plain, or a refused character. */
export interface Segment {
  text: string;
  refused: boolean;
}

/** The text cut around the refused characters (their indexes are UTF-16 offsets from unsupportedCharacters). */
export function segments(text: string, unsupported: readonly UnsupportedCharacter[]): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  for (const u of unsupported) {
    if (u.index > at) out.push({ text: text.slice(at, u.index), refused: false });
    out.push({ text: u.char, refused: true });
    at = u.index + u.char.length;
  }
  if (at < text.length) out.push({ text: text.slice(at), refused: false });
  return out;
}

/** One warning per reason (the first match of each), so the list stays short. */
export function warningsByReason(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => (seen.has(f.reason) ? false : (seen.add(f.reason), true)));
}
