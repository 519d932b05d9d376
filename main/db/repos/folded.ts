import { foldForSearch } from '../../../common/search-fold.js';

/**
 * The folded copies the inbox's search reads (migration 030), written with the text they fold so
 * a search never folds a row itself. Null names fold as empty, as the search compares them.
 */
export function userFolded(u: { nickname: string; first_name: string | null; last_name: string | null }): {
  nickname_folded: string;
  name_folded: string;
} {
  return { nickname_folded: foldForSearch(u.nickname), name_folded: foldForSearch(`${u.first_name ?? ''} ${u.last_name ?? ''}`) };
}

export const titleFolded = (title: string): string => foldForSearch(title);
