import { act, cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { InboxContext } from '../../../renderer/inbox/context.js';
import { type InboxStore, createInboxStore } from '../../../renderer/inbox/store.js';
import { type FakeApi, type Handlers, fakeApi } from '../../support/fake-api.js';

/** Renders inbox components around a store on a fake API, in English. */
export function renderInbox(ui: (store: InboxStore) => ReactNode, handlers: Handlers = {}): { fake: FakeApi; store: InboxStore } & ReturnType<typeof render> {
  act(() => useI18nStore.getState().setLanguage('en'));
  const fake = fakeApi(handlers);
  const store = createInboxStore(fake.api);
  const r = render(<InboxContext.Provider value={{ api: fake.api, store }}>{ui(store)}</InboxContext.Provider>);
  return { fake, store, ...r };
}

export function resetRender() {
  cleanup();
}
