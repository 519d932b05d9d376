/** The stock screens' status bar: the notice read out by the live region, and import / export progress. */
import { tr } from './selectors.js';
import type { StockKit, StockState } from './state.js';

export function noticeActions({ set }: StockKit): Pick<StockState, 'say' | 'setActivity'> {
  let noticeSeq = 0;
  return {
    say(key, vars, tone = 'info', action) {
      set({ notice: { text: tr(key, vars), tone, ...(action ? { action } : {}), seq: ++noticeSeq } });
    },

    setActivity(a) {
      set({ activity: a });
    },
  };
}
