/**
 * The attachment rules checked on drop, before any byte is read (SPEC 7.6 and 8): 25 MB per file,
 * 25 files per message, no path separators or control characters in the name, a name of 1-255
 * characters, no empty file. The server checks the same again on send.
 */
import { type FileNameProblem, MAX_FILENAME_LENGTH, fileNameProblem } from '../../common/messages/file-names.js';
import { assessThreat } from '../../common/messages/threat.js';

export const MAX_FILE_BYTES = 25 * 1024 * 1024;
export const MAX_FILES = 25;
export const MAX_NAME_LENGTH = MAX_FILENAME_LENGTH;

export type RefusalReason = 'tooBig' | 'empty' | 'tooMany' | 'badName' | 'controlName' | 'invisibleName' | 'dotsName' | 'longName' | 'emptyName' | 'duplicate';

export interface Refusal {
  name: string;
  reason: RefusalReason;
}

export interface FileLike {
  name: string;
  size: number;
}

const REASONS: Record<FileNameProblem, RefusalReason> = {
  separator: 'badName',
  empty: 'emptyName',
  control: 'controlName',
  invisible: 'invisibleName',
  dots: 'dotsName',
  too_long: 'longName',
};

/** Why a file's name is refused, or null (the service's own rules, common/messages/file-names.ts). */
export function nameProblem(name: string): RefusalReason | null {
  const problem = fileNameProblem(name);
  return problem ? REASONS[problem] : null;
}

/**
 * Splits dropped files into accepted and refused, given how many are already attached. Files are
 * taken in order until the message holds MAX_FILES; each later one is refused as `tooMany`. The same
 * name and size as a file already attached is refused as a duplicate (a double drop).
 */
export function admitFiles<F extends FileLike>(already: readonly FileLike[], dropped: readonly F[]): { accepted: F[]; refused: Refusal[] } {
  const accepted: F[] = [];
  const refused: Refusal[] = [];
  const held = [...already];
  for (const f of dropped) {
    const bad = nameProblem(f.name);
    if (bad) refused.push({ name: f.name, reason: bad });
    else if (f.size > MAX_FILE_BYTES) refused.push({ name: f.name, reason: 'tooBig' });
    else if (f.size === 0) refused.push({ name: f.name, reason: 'empty' });
    else if (held.some((h) => h.name === f.name && h.size === f.size)) refused.push({ name: f.name, reason: 'duplicate' });
    else if (held.length >= MAX_FILES) refused.push({ name: f.name, reason: 'tooMany' });
    else {
      accepted.push(f);
      held.push(f);
    }
  }
  return { accepted, refused };
}

/**
 * Whether the marketplace will flag the file as a potential threat (an executable, a script, a
 * macro document: common/messages/threat.ts, the rules the service applies on upload), from its
 * name and type on drop, and from its first bytes once read. Flagged files are still sent.
 */
export function flaggedFile(name: string, type: string, head: Uint8Array = new Uint8Array(0)): boolean {
  const mediaType = type.split(';')[0]?.trim().toLowerCase();
  return assessThreat({ filename: name, mediaType: mediaType === '' ? undefined : mediaType, head }).threat;
}
