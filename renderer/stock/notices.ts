/**
 * The stock screens' status bar: the notice read out by the live region, and import / export
 * progress. A notice tells of the latest action only (issue 27): each action clears the one before,
 * an answer of an older action says nothing, and a saved edit's notice follows its cell when the
 * cell then fails or turns into a conflict (watchNoticeCell), never a past success beside it.
 */
import type { StoreApi } from 'zustand';
import { errorOfStatus, errorText, errorWords } from '../i18n/errors.js';
import { findRow, tr } from './selectors.js';
import type { StockKit, StockState } from './state.js';

export function noticeActions({ set, get }: StockKit): Pick<StockState, 'say' | 'sayError' | 'sayAbout' | 'act' | 'isLatest' | 'setActivity'> {
  let noticeSeq = 0;
  let actions = 0;
  return {
    act() {
      if (get().notice !== null) set({ notice: null });
      return ++actions;
    },

    isLatest: (action) => action === actions,

    sayAbout(about, key, vars) {
      set({ notice: { text: tr(key, vars), tone: 'info', about, seq: ++noticeSeq } });
    },

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

/** Replaces a saved edit's notice when its cell turns failed or conflict (the rows are read again after the core's stock.changed). */
export function watchNoticeCell(store: StoreApi<StockState>): void {
  store.subscribe((s, prev) => {
    const about = s.notice?.about;
    if (!about || s.pages === prev.pages) return;
    const cell = findRow(s, about.cell.userProductId)?.row.cells[about.cell.column];
    const vars = { column: about.columnName, product: about.product };
    if (cell?.state === 'failed') {
      const message = cell.error ? errorText(errorOfStatus(cell.error)) : '';
      s.say('edit.cellFailed', { ...vars, message }, 'error');
    } else if (cell?.state === 'conflict') s.say('edit.cellConflict', vars, 'error');
  });
}
