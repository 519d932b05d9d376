// @vitest-environment jsdom
/**
 * Issue 24 in the inbox: a message whose outcome is unknown (sent, its answer lost) is not called
 * failed (the buyer may have it), one being looked for on the marketplace says so, and a Discard
 * that checks first says so; a refused message keeps its reason with Retry / Discard.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueuedMessageView } from '../../../common/contract/contract.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { InboxScreen } from '../../../renderer/inbox/InboxScreen.js';
import { fakeApi, ok } from '../../support/fake-api.js';
import { conversation, message, queuedMessage, thread } from '../../support/fake-inbox.js';

beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(cleanup);

/** The thread's outbox as the core answers it now (a test changes it as the core would). */
function renderThread(queued: QueuedMessageView[], how: 'discarded' | 'checking' = 'checking') {
  const state = { queued };
  const fake = fakeApi({
    messages: {
      conversations: () => ok({ total: 1, conversations: [conversation()] }),
      thread: () => ok(thread({ messages: [message()], queued: state.queued })),
    },
    outbox: {
      retry: (p) => ok({ entryId: p.entryId }),
      discard: (p) => {
        // Checking: the entry stays, being looked for; discarded: it is gone.
        state.queued = how === 'checking' ? state.queued.map((q) => (q.entryId === p.entryId ? { ...q, state: 'pending', phase: 'checking' } : q)) : [];
        return ok({ entryId: p.entryId, how });
      },
    },
  });
  render(<InboxScreen api={fake.api} />);
  return { fake, state };
}

async function openThread() {
  fireEvent.click((await screen.findAllByRole('button', { name: /Order/ }))[0]!);
  return screen.findByRole('list', { name: 'Messages' });
}

const item = (entryId: number) => document.querySelector<HTMLElement>(`li[data-entry="${entryId}"]`)!;
const described = (el: HTMLElement) => document.getElementById(el.getAttribute('aria-describedby')!)!.textContent;

describe('inbox: a message whose outcome is unknown', () => {
  it('reads "not confirmed — the buyer may have it", and Retry and Discard say what they do', async () => {
    renderThread([queuedMessage({ entryId: 5, state: 'failed', phase: 'unknown', text: 'Sale mañana', lastError: 'The marketplace did not answer' })]);
    await openThread();
    await waitFor(() => expect(item(5)).not.toBeNull());
    const unknown = item(5);
    const line = within(unknown).getByRole('status');
    expect(line.textContent).toBe('? Not confirmed: the buyer may already have it (no answer came back from the marketplace).');
    expect(unknown.textContent).not.toMatch(/Not sent|failed/);
    // The icon is decoration: the words carry the state.
    expect(line.querySelector('[aria-hidden="true"]')!.textContent).toBe('? ');
    expect(within(unknown).queryByRole('alert')).toBeNull();
    expect(described(within(unknown).getByRole('button', { name: 'Retry' }))).toBe('Retry sends it again: the buyer won’t get it twice.');
    expect(described(within(unknown).getByRole('button', { name: 'Discard' }))).toBe(
      'Discard looks for it on the marketplace first, and drops it only if the buyer never got it.',
    );
  });

  it('Discard answered "checking" says so, and the message then reads "checking…" with no choices', async () => {
    const { fake } = renderThread([queuedMessage({ entryId: 5, state: 'failed', phase: 'unknown', text: 'Sale mañana', lastError: 'timeout' })]);
    await openThread();
    await waitFor(() => expect(item(5)).not.toBeNull());
    fireEvent.click(within(item(5)).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(fake.callsTo('outbox.discard')).toEqual([{ entryId: 5 }]));
    await waitFor(() =>
      expect(screen.getByText('Checking whether the buyer got the message: it is dropped only if they did not.').closest('[role=status]')).not.toBeNull(),
    );
    await waitFor(() => expect(item(5).getAttribute('data-phase')).toBe('checking'));
    expect(within(item(5)).getByRole('status').textContent).toBe('◷ Checking… looking for it in the conversation on the marketplace.');
    expect(within(item(5)).queryByRole('button')).toBeNull();
  });

  it('a refused message keeps "Not sent" with the marketplace’s reason and Retry / Discard; its Discard says nothing more', async () => {
    const { fake } = renderThread(
      [queuedMessage({ entryId: 7, state: 'failed', phase: 'refused', text: 'Hola', lastError: 'The text has character/s that is/are not supported.' })],
      'discarded',
    );
    await openThread();
    await waitFor(() => expect(item(7)).not.toBeNull());
    expect(within(item(7)).getByRole('alert').textContent).toBe('✕ Not sent: The text has character/s that is/are not supported.');
    expect(within(item(7)).getByRole('button', { name: 'Retry' }).getAttribute('aria-describedby')).toBeNull();
    fireEvent.click(within(item(7)).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(fake.callsTo('outbox.discard')).toEqual([{ entryId: 7 }]));
    await waitFor(() => expect(document.querySelector('li[data-entry="7"]')).toBeNull());
    expect(document.querySelector('.inbox-notice')).toBeNull();
  });
});
