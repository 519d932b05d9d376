/**
 * What a client file name may be (SPEC 7.6 and this app's own rules), checked the same on drop in
 * the inbox, before queueing, and by the service on upload. The name is metadata only: it never
 * becomes part of a path on disk.
 */

/** Longest accepted file name, in characters. */
export const MAX_FILENAME_LENGTH = 255;

/** What is wrong with a client file name, or undefined when it is acceptable. */
export type FileNameProblem = 'separator' | 'empty' | 'control' | 'invisible' | 'dots' | 'too_long';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/**
 * Format characters that change how a name reads without being seen: bidirectional controls
 * (U+202E makes "fdp.exe" read as "exe.pdf"), zero-width characters, the byte order mark and the
 * other invisible formatting of Unicode's Cf category.
 */
const INVISIBLE = /\p{Cf}/u;

export function fileNameProblem(name: string | undefined): FileNameProblem | undefined {
  if (name !== undefined && /[/\\]/.test(name)) return 'separator';
  if (name === undefined || name.trim() === '') return 'empty';
  if (CONTROL.test(name)) return 'control';
  if (INVISIBLE.test(name)) return 'invisible';
  // ".", "..": names a save dialog or a file system reads as a folder.
  if (/^\.+$/.test(name.trim())) return 'dots';
  if ([...name].length > MAX_FILENAME_LENGTH) return 'too_long';
  return undefined;
}

/** What a name with no acceptable character left is shown as. */
export const UNNAMED_FILE = 'file';

/**
 * A name from elsewhere (the marketplace's attachments) made to follow the same rules before it
 * is shown or offered as a save name: separators become `_`, control and invisible format
 * characters (U+202E and the like) are removed, a name of dots only or nothing becomes `file`,
 * and it is cut to MAX_FILENAME_LENGTH characters. An acceptable name is returned as it is.
 */
export function displayFileName(name: string): string {
  if (fileNameProblem(name) === undefined) return name;
  const cleaned = name.replace(/[/\\]/g, '_').replace(new RegExp(CONTROL.source, 'gu'), '').replace(new RegExp(INVISIBLE.source, 'gu'), '').trim();
  const cut = [...cleaned].slice(0, MAX_FILENAME_LENGTH).join('');
  return cut === '' || /^\.+$/.test(cut) ? UNNAMED_FILE : cut;
}
