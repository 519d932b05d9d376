/**
 * How a search compares words (issue 27): accents and case do not count, so "nunez", "NUÑEZ" and
 * "Núñez" are the same and "joao" finds "João". One rule for every runtime: the inbox's search in
 * main/db folds both sides with it, as FTS5's `remove_diacritics 2` folds message text.
 */
const MARKS = /\p{M}+/gu;

export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase().normalize('NFC');
}
