// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxEntryView } from '../../../common/views.js';
import { App } from '../../../renderer/frame/App.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { ok } from '../../support/fake-api.js';
import { conversation, thread } from '../../support/fake-inbox.js';
import { COLUMNS, cell, fakeStockroom, giveGridASize, sampleRows } from '../../support/fake-stock.js';
import { settingsView } from '../../support/fake-settings.js';
import { syncStatus } from '../../support/sync-status.js';

/**
 * The status bar's failed count opens what failed (issue 27, renderer/frame/FailedChooser.tsx):
 * the grid's failed cells when only stock changes failed, the inbox at the conversation when only
 * replies did, and a small choice of the two when both did, from the mouse or the keyboard.
 */
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(cleanup);

const PACK = 2000003000007;

/** A failed outbox entry: a reply in PACK, or a stock change. */
function failedEntry(id: number, kind: 'message' | 'stock'): OutboxEntryView {
  return {
    id,
    kind,
    state: 'failed',
    phase: 'refused',
    createdAt: 1,
    updatedAt: 1,
    attempts: 1,
    nextAttemptAt: 0,
    lastStatus: 400,
    lastError: 'refused',
    stock: kind === 'stock' ? { userProductId: 'MLAU100000002', type: 'selling_address', storeId: null, op: 'adjust', delta: 1, quantity: null } : null,
    message: kind === 'message' ? { packId: PACK, text: 'Sale mañana', files: [] } : null,
  };
}

/** The whole frame with `stock` failed stock changes (in the grid's second row) and `replies` failed replies in PACK. */
async function renderApp(stock: number, replies: number) {
  giveGridASize();
  const rows = sampleRows(5);
  if (stock > 0) {
    const column = COLUMNS.find((c) => c.key === 'selling_address')!;
    rows[1]!.cells.selling_address = cell(rows[1]!.userProductId, column, 7, { state: 'failed' });
  }
  const fake = fakeStockroom(rows);
  const entries = [
    ...Array.from({ length: stock }, (_, i) => failedEntry(i + 1, 'stock')),
    ...Array.from({ length: replies }, (_, i) => failedEntry(100 + i, 'message')),
  ];
  fake.answers['settings.get'] = () => ok(settingsView({ firstRun: false }));
  fake.answers['sync.status'] = () => ok(syncStatus({ failed: stock + replies }));
  fake.answers['outbox.list'] = (payload) => {
    const kind = (payload as { kind?: string }).kind;
    const list = entries.filter((e) => kind === undefined || e.kind === kind);
    return ok({ total: list.length, entries: list });
  };
  fake.answers['messages.conversations'] = () => ok({ total: 1, conversations: [conversation({ packId: PACK, queued: 0 })] });
  fake.answers['messages.thread'] = (payload) => ok(thread({ packId: (payload as { packId: number }).packId }));
  render(<App api={fake.api} />);
  await screen.findAllByRole('row');
  const failedButton = await screen.findByRole('button', { name: new RegExp(`${stock + replies} failed`) });
  return { fake, failedButton };
}

const selectedTab = () => screen.getAllByRole('tab').find((t) => t.getAttribute('aria-selected') === 'true')?.textContent ?? '';

/** The grid was asked for its failed cells, and the inbox not opened. */
async function gridShowsFailed(fake: Awaited<ReturnType<typeof renderApp>>['fake']) {
  await waitFor(() => expect(fake.callsTo('stock.grid').some((p) => (p as { filter?: string }).filter === 'failed')).toBe(true));
  expect(selectedTab()).toMatch(/^Stock/);
  expect(fake.callsTo('messages.thread')).toEqual([]);
}

/** The inbox is open on PACK under its 'Not sent' filter. */
async function inboxOpensPack(fake: Awaited<ReturnType<typeof renderApp>>['fake']) {
  await waitFor(() => expect(fake.callsTo('messages.thread').map((p) => (p as { packId: number }).packId)).toContain(PACK));
  expect(selectedTab()).toMatch(/^Inbox/);
  expect(fake.callsTo('messages.conversations').some((p) => (p as { filter?: string }).filter === 'failed')).toBe(true);
}

describe('the failed count opens what failed (issue 27)', () => {
  it('only stock changes failed: the grid’s failed cells, no choice', async () => {
    const { fake, failedButton } = await renderApp(2, 0);
    await userEvent.click(failedButton);
    await gridShowsFailed(fake);
    expect(screen.queryByRole('dialog', { name: 'What was not sent' })).toBeNull();
  });

  it('only replies failed: the inbox at the conversation, no choice', async () => {
    const { fake, failedButton } = await renderApp(0, 1);
    await userEvent.click(failedButton);
    await inboxOpensPack(fake);
    expect(screen.queryByRole('dialog', { name: 'What was not sent' })).toBeNull();
    expect(fake.callsTo('stock.grid').some((p) => (p as { filter?: string }).filter === 'failed')).toBe(false);
  });

  it('both failed: the choice lists both with their counts; Esc closes it and nothing opens', async () => {
    const { fake, failedButton } = await renderApp(2, 1);
    await userEvent.click(failedButton);
    const dialog = await screen.findByRole('dialog', { name: 'What was not sent' });
    const stockChoice = screen.getByRole('button', { name: '2 stock changes' });
    expect(screen.getByRole('button', { name: '1 reply' })).toBeTruthy();
    expect(dialog.contains(stockChoice)).toBe(true);
    // The first choice has the focus, so the keyboard can answer at once.
    await waitFor(() => expect(document.activeElement).toBe(stockChoice));
    const gridCalls = fake.callsTo('stock.grid').length;
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'What was not sent' })).toBeNull());
    expect(
      fake
        .callsTo('stock.grid')
        .slice(gridCalls)
        .some((p) => (p as { filter?: string }).filter === 'failed'),
    ).toBe(false);
    expect(fake.callsTo('messages.thread')).toEqual([]);
    expect(selectedTab()).toMatch(/^Stock/);
  });

  it('both failed: Tab then Enter on the replies opens the inbox at the conversation', async () => {
    const { fake, failedButton } = await renderApp(2, 1);
    await userEvent.click(failedButton);
    await screen.findByRole('dialog', { name: 'What was not sent' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: '2 stock changes' })));
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '1 reply' }));
    await userEvent.keyboard('{Enter}');
    await inboxOpensPack(fake);
    expect(screen.queryByRole('dialog', { name: 'What was not sent' })).toBeNull();
  });

  it('both failed: Enter on the stock changes opens the grid’s failed cells', async () => {
    const { fake, failedButton } = await renderApp(2, 1);
    await userEvent.click(failedButton);
    await screen.findByRole('dialog', { name: 'What was not sent' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: '2 stock changes' })));
    await userEvent.keyboard('{Enter}');
    await gridShowsFailed(fake);
    expect(screen.queryByRole('dialog', { name: 'What was not sent' })).toBeNull();
  });
});
