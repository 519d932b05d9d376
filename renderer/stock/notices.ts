/** The stock screens' status bar: the notice read out by the live region, and import / export progress. */
import { errorWords } from '../i18n/errors.js';
import { tr } from './selectors.js';
import type { StockKit, StockState } from './state.js';

export function noticeActions({ set }: StockKit): Pick<StockState, 'say' | 'sayError' | 'setActivity'> {
  let noticeSeq = 0;
  return {
    say(key, vars, tone = 'info', action) {
      set({ notice: { text: tr(key, vars), tone, ...(action ? { action } : {}), seq: ++noticeSeq } });
    },

    sayError(key, error) {
      const words = errorWords(error);
      set({ notice: { text: tr(key, { message: words.text }), tone: 'error', ...(words.detail ? { detail: words.detail } : {}), seq: ++noticeSeq } });
    },

    setActivity(a) {
      set({ activity: a });
    },
  };
}
