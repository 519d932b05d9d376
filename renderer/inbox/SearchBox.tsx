import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/index.js';
import { useInbox, useInboxActions } from './context.js';

/** How long typing pauses before the list is searched (one call per pause, not per key). */
export const SEARCH_DEBOUNCE_MS = 250;

/** Finds conversations by buyer, product title, order id or the words of a message (issue 15 §2). */
export function SearchBox() {
  const { t } = useI18n();
  const actions = useInboxActions();
  const search = useInbox((s) => s.search);
  const [value, setValue] = useState(search);

  useEffect(() => {
    if (value === search) return;
    const timer = setTimeout(() => void actions.setSearch(value), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value, search, actions]);

  return (
    <div className="search" role="search">
      {/* Named by aria-label, not a hidden label: its words are not text of the list. */}
      <input
        type="search"
        aria-label={t('inbox.search')}
        value={value}
        maxLength={200}
        placeholder={t('inbox.searchPlaceholder')}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void actions.setSearch(value);
          if (e.key === 'Escape' && value !== '') {
            e.preventDefault();
            setValue('');
            void actions.setSearch('');
          }
        }}
      />
      {value !== '' ? (
        <button
          type="button"
          className="link"
          aria-label={t('inbox.searchClear')}
          onClick={() => {
            setValue('');
            void actions.setSearch('');
          }}
        >
          <span aria-hidden="true">✕</span>
        </button>
      ) : null}
    </div>
  );
}
