import type { BrandAccountView } from '../../common/contract/contract.js';
import type { I18n } from '../i18n/index.js';

/** An account in words: "First Last (nickname)", the nickname alone when the names are empty. */
export function accountName(i: I18n, a: BrandAccountView | undefined, userId: number): string {
  if (!a) return i.t('brands.userUnknown', { id: String(userId) });
  const full = [a.firstName, a.lastName].filter((s) => s.trim() !== '').join(' ');
  return full === '' ? a.nickname : i.t('order.buyerName', { name: full, nickname: a.nickname });
}
