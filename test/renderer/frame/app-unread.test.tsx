// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../renderer/frame/App.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { ok } from '../../support/fake-api.js';
import { fakeStockroom, giveGridASize } from '../../support/fake-stock.js';
import { settingsView } from '../../support/fake-settings.js';

beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(cleanup);

// Past the welcome: the person chose the demo data before.
const settings = settingsView({ firstRun: false });

/** The whole frame on the stock grid's fake, with `unread` conversations unread. */
function renderApp(unread: { n: number }) {
  giveGridASize();
  const fake = fakeStockroom();
  fake.answers['settings.get'] = () => ok(settings);
  fake.answers['messages.conversations'] = () => ok({ total: unread.n, conversations: [] });
  render(<App api={fake.api} />);
  return fake;
}

describe('the Inbox tab’s unread count', () => {
  it('shows the count at start and follows the inbox.unread event', async () => {
    const fake = renderApp({ n: 2 });
    expect(await screen.findByRole('tab', { name: 'Inbox (2 unread)' })).toBeTruthy();
    act(() => fake.emit({ type: 'inbox.unread', conversations: 5 }));
    expect(screen.getByRole('tab', { name: 'Inbox (5 unread)' })).toBeTruthy();
    act(() => fake.emit({ type: 'inbox.unread', conversations: 0 }));
    expect(screen.getByRole('tab', { name: 'Inbox' })).toBeTruthy();
  });

  it('reads it again when messages arrive', async () => {
    const unread = { n: 0 };
    const fake = renderApp(unread);
    await screen.findByRole('tab', { name: 'Inbox' });
    unread.n = 1;
    act(() => fake.emit({ type: 'messages.new', messages: [] }));
    expect(await screen.findByRole('tab', { name: 'Inbox (1 unread)' })).toBeTruthy();
  });

  it('stock edits read nothing of the inbox or the brands (a scanner fires one a second)', async () => {
    const fake = renderApp({ n: 1 });
    await screen.findByRole('tab', { name: 'Inbox (1 unread)' });
    // The grid's first page is on screen: every call of the start has been made.
    await screen.findAllByRole('row');
    const before = fake.calls.length;
    act(() => fake.emit({ type: 'stock.changed', userProductIds: ['MLAU100000001'] }));
    // The grid answers the event with its own reads; wait for them, then look at what was called.
    await waitFor(() => expect(fake.calls.length).toBeGreaterThan(before));
    const after = fake.calls.slice(before).map((c) => c.channel);
    expect(after.filter((c) => c.startsWith('messages.') || c.startsWith('brands.'))).toEqual([]);
    expect(fake.callsTo('brands.list')).toEqual([]);
    expect(fake.callsTo('messages.conversations')).toHaveLength(1);
  });
});
