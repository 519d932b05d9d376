/** The Stock tab as the frame mounts it: the stock store (created once per window by the frame) given to the screens. */
import { memo } from 'react';
import { useStore } from 'zustand';
import { useI18n } from '../i18n/index.js';
import { StockScreen } from './StockScreen.js';
import { type StockStore, StockStoreContext } from './store.js';
import { stockText } from './words.js';

export { createStockStore, type StockStore } from './store.js';

/**
 * Memoized: the frame re-renders on its own events (a tab click, the sync status, the summary after
 * every stock change); the stock screens follow their store and the language, not the frame.
 */
export const StockTab = memo(function StockTab({ store }: { store: StockStore }) {
  return (
    <StockStoreContext.Provider value={store}>
      <StockScreen />
    </StockStoreContext.Provider>
  );
});

/** An import or export in progress, in words, for the status bar's progress bar (null when none). */
export function useStockActivity(store: StockStore): { label: string; done: number; total: number } | null {
  const activity = useStore(store, (s) => s.activity);
  const { language } = useI18n();
  if (!activity) return null;
  return {
    label: stockText(language, activity.kind === 'import' ? 'progress.import' : 'progress.export', { done: activity.done, total: activity.total }),
    done: activity.done,
    total: activity.total,
  };
}
