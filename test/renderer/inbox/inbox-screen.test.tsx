// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { InboxScreen } from '../../../renderer/inbox/InboxScreen.js';
import { type Handlers, fail, fakeApi, ok } from '../../support/fake-api.js';
import { SELLER, conversation, message, queuedMessage, thread } from '../../support/fake-inbox.js';
import { syncStatus } from '../../support/sync-status.js';

beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(cleanup);

const martin = conversation();
const sofia = conversation({
  packId: 2000009000002,
  buyer: { id: 99, nickname: null },
  orderIds: [2000009000002],
  unread: 0,
  needsReply: false,
  lastMessage: { id: 'x', text: 'Gracias', date: '2026-11-17T10:00:00Z', fromSeller: true, moderation: 'clean' },
});
const cancelled = conversation({
  packId: 2000009000003,
  orderIds: [2000009000003],
  unread: 0,
  needsReply: false,
  blocked: 'blocked_by_cancelled_order',
  lastMessage: null,
});

function renderScreen(handlers: Handlers) {
  const fake = fakeApi(handlers);
  render(<InboxScreen api={fake.api} />);
  return fake;
}

const listHandlers: Handlers = {
  messages: {
    conversations: (q) => {
      const all = [martin, sofia, cancelled];
      const filtered = q?.filter === 'unread' ? all.filter((c) => c.unread > 0) : q?.filter === 'to_reply' ? all.filter((c) => c.needsReply) : all;
      return ok({ total: filtered.length, conversations: filtered });
    },
  },
};

describe('inbox: conversation list', () => {
  it('shows the conversations with the buyer, the order and states in words', async () => {
    renderScreen(listHandlers);
    const items = await screen.findAllByRole('button', { name: /Order|Orders/ });
    expect(items).toHaveLength(3);
    expect(items[0]!.textContent).toContain('COMPRADOR_TEST');
    expect(items[0]!.textContent).toContain('Order 2000009000001');
    expect(items[0]!.textContent).toContain('1 unread');
    expect(items[0]!.textContent).toContain('To reply');
    expect(items[1]!.textContent).toContain('Buyer 99');
    expect(items[1]!.textContent).toContain('You: Gracias');
    expect(items[2]!.textContent).toContain('Blocked');
    expect(items[2]!.textContent).toContain('No messages yet');
    expect(screen.getByText('3 conversations')).toBeTruthy();
  });

  it('filters unread and to reply, with an empty state', async () => {
    const fake = renderScreen(listHandlers);
    await screen.findByText('3 conversations');
    fireEvent.click(screen.getByRole('button', { name: 'Unread' }));
    await screen.findByText('1 conversation');
    expect(screen.getByRole('button', { name: 'Unread' }).getAttribute('aria-pressed')).toBe('true');
    expect(fake.callsTo('messages.conversations').at(-1)).toEqual({ filter: 'unread', limit: 50, offset: 0 });
    fake.on({ messages: { conversations: () => ok({ total: 0, conversations: [] }) } });
    fireEvent.click(screen.getByRole('button', { name: 'To reply' }));
    expect(await screen.findByText('Nothing waits for your reply.')).toBeTruthy();
  });

  it('shows a loading state, then an error in words with a retry', async () => {
    let n = 0;
    renderScreen({ messages: { conversations: () => (++n === 1 ? fail('busy', 'The data is not open', 503) : ok({ total: 1, conversations: [martin] })) } });
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Something went wrong: The data is not open');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('1 conversation')).toBeTruthy();
  });

  it('moves between conversations with the arrow keys', async () => {
    renderScreen(listHandlers);
    const items = await screen.findAllByRole('button', { name: /Order/ });
    items[0]!.focus();
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(items[1]!, { key: 'End' });
    expect(document.activeElement).toBe(items[2]);
  });
});

describe('inbox: thread', () => {
  const rejected = message({
    id: 'r1',
    fromSeller: true,
    text: 'Escribime a lucia@example.com',
    moderation: { status: 'rejected', reason: 'PERSONAL_DATA' },
    message_date: { received: '2026-11-18T14:00:00Z', available: null, notified: null, created: '2026-11-18T14:00:00Z', read: null },
  });
  const readOwn = message({
    id: 'o1',
    fromSeller: true,
    text: 'Sí, incluye funda.',
    message_date: {
      received: '2026-11-18T13:20:00Z',
      available: '2026-11-18T13:20:01Z',
      notified: null,
      created: '2026-11-18T13:20:00Z',
      read: '2026-11-18T13:30:00Z',
    },
  });
  const pending = message({ id: 'p1', fromSeller: true, text: 'Te lo mando hoy', moderation: { status: 'pending' } });
  const question = message({ id: 'q1' });

  it('opens a conversation: messages oldest first, read state, moderation status, and a rejected message’s reason in words', async () => {
    const fake = renderScreen({
      ...listHandlers,
      messages: { ...listHandlers.messages, thread: () => ok(thread({ messages: [rejected, pending, readOwn, question] })) },
    });
    fireEvent.click((await screen.findAllByRole('button', { name: /Order/ }))[0]!);
    const list = await screen.findByRole('list', { name: 'Messages' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('data-id'))).toEqual(['q1', 'o1', 'p1', 'r1']);
    expect(items[0]!.textContent).toContain('COMPRADOR_TEST wrote');
    expect(items[1]!.textContent).toContain('Delivered');
    expect(items[1]!.textContent).toMatch(/Read Nov 18, 2026/);
    expect(items[2]!.textContent).toContain('Being reviewed');
    expect(items[2]!.textContent).toContain('Not read yet');
    const note = within(items[3]!).getByRole('note');
    expect(note.querySelector('p')!.textContent).toBe(
      'Rejected: the buyer did not receive this message. It contains personal or contact data (phone, e-mail, ID number, bank account, address).',
    );
    expect(within(note).getByRole('button', { name: 'Edit and resend' })).toBeTruthy();
    expect(fake.callsTo('messages.thread')[0]).toEqual({ packId: martin.packId, limit: 50, offset: 0 });
    expect(screen.getByRole('heading', { name: 'Conversation with COMPRADOR_TEST' })).toBeTruthy();
    // The order panel.
    expect(within(screen.getByRole('complementary', { name: 'Order' })).getByText('Open')).toBeTruthy();
  });

  it('explains every SPEC 2.8 reason in the current language', async () => {
    const reasons = [
      'OUT_OF_PLACE_LANGUAGE',
      'SOCIAL_NETWORK_LINK',
      'LINK_SHORT_URL',
      'AUTOMATIC_MESSAGE',
      'PERSONAL_DATA',
      'LINK_PAYMENT',
      'EVASION_CLAIM_SELLER',
    ];
    const messages = reasons.map((reason, n) => message({ id: `r${n}`, fromSeller: true, text: `t${n}`, moderation: { status: 'rejected', reason } }));
    renderScreen({ ...listHandlers, messages: { ...listHandlers.messages, thread: () => ok(thread({ messages })) } });
    act(() => useI18nStore.getState().setLanguage('pt-BR'));
    fireEvent.click((await screen.findAllByRole('button', { name: /Venda/ }))[0]!);
    const notes = await screen.findAllByRole('note');
    expect(new Set(notes.map((n) => n.textContent)).size).toBe(7);
    expect(notes.map((n) => n.textContent).join('\n')).toContain('Contém um link encurtado');
  });

  it('shows queued, sending and failed messages; a failed one shows the marketplace reason and retries', async () => {
    const fake = renderScreen({
      ...listHandlers,
      messages: {
        ...listHandlers.messages,
        thread: () =>
          ok(
            thread({
              messages: [question],
              queued: [
                queuedMessage({
                  entryId: 5,
                  state: 'failed',
                  text: 'Hola',
                  files: ['factura.pdf'],
                  lastError: 'The text has character/s that is/are not supported.',
                }),
                queuedMessage({ entryId: 6, state: 'pending', text: 'Otro', createdAt: Date.parse('2026-11-18T15:01:00Z') }),
                queuedMessage({ entryId: 7, state: 'in_flight', text: 'Más', createdAt: Date.parse('2026-11-18T15:02:00Z') }),
              ],
            }),
          ),
      },
      outbox: { retry: (p) => ok({ entryId: p.entryId }), discard: (p) => ok({ entryId: p.entryId, how: 'discarded' }) },
    });
    fireEvent.click((await screen.findAllByRole('button', { name: /Order/ }))[0]!);
    const failed = await screen.findByRole('alert');
    expect(failed.textContent).toContain('Not sent: The text has character/s that is/are not supported.');
    expect(screen.getByText('Queued: it is sent when the app is online')).toBeTruthy();
    expect(screen.getByText('Sending…')).toBeTruthy();
    expect(screen.getByText('factura.pdf')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fake.callsTo('outbox.retry')).toEqual([{ entryId: 5 }]));
  });

  it('shows the blocked reason in the composer of a cancelled order', async () => {
    renderScreen({
      ...listHandlers,
      messages: {
        ...listHandlers.messages,
        thread: () => ok(thread({ messages: [], conversation_status: { status: 'blocked', substatus: 'blocked_by_cancelled_order' } })),
      },
    });
    fireEvent.click((await screen.findAllByRole('button', { name: /Order/ }))[2]!);
    expect((await screen.findByRole('note')).textContent).toContain('The order was cancelled');
    // A blocked conversation does not invite writing above a disabled composer (issue 15 §3).
    expect(screen.getByText('No messages in this conversation.')).toBeTruthy();
    expect(screen.queryByText(/Write the first one below/)).toBeNull();
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Your reply' }).disabled).toBe(true);
  });

  it('previews image attachments from their bytes and saves other files through the main process', async () => {
    const withFiles = message({
      id: 'a1',
      message_attachments: [
        {
          filename: 'aa.png',
          original_filename: 'foto.png',
          type: 'image/png',
          size: 2048,
          potential_security_threat: false,
          creation_date: '2026-11-18T13:05:00Z',
        },
        {
          filename: 'bb.pdf',
          original_filename: 'factura.pdf',
          type: 'application/pdf',
          size: 4096,
          potential_security_threat: false,
          creation_date: '2026-11-18T13:05:00Z',
        },
        {
          filename: 'cc.exe',
          original_filename: 'virus.exe',
          type: 'application/octet-stream',
          size: 10,
          potential_security_threat: true,
          creation_date: '2026-11-18T13:05:00Z',
        },
      ],
    });
    const created: Blob[] = [];
    URL.createObjectURL = (b: Blob) => (created.push(b), `blob:fake/${created.length}`);
    URL.revokeObjectURL = () => undefined;
    const fake = renderScreen({
      ...listHandlers,
      messages: {
        ...listHandlers.messages,
        thread: () => ok(thread({ messages: [withFiles] })),
        readAttachment: () => ok({ name: 'foto.png', type: 'image/png', size: 4, bytes: new Uint8Array([137, 80, 78, 71]) }),
        saveAttachment: () => ok({ saved: true, path: '/home/lucia/factura.pdf' }),
      },
    });
    fireEvent.click((await screen.findAllByRole('button', { name: /Order/ }))[0]!);
    const img = await screen.findByRole<HTMLImageElement>('img', { name: 'Preview of foto.png' });
    expect(img.src).toBe('blob:fake/1');
    expect(created[0]!.type).toBe('image/png');
    expect(fake.callsTo('messages.readAttachment')).toEqual([{ attachmentId: 'aa.png' }]);
    expect(screen.getByText(/This file may be dangerous/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save virus.exe' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save factura.pdf' }));
    expect((await screen.findByText(/Saved to \/home\/lucia\/factura.pdf/)).textContent).toBeTruthy();
    expect(fake.callsTo('messages.saveAttachment')).toEqual([{ attachmentId: 'bb.pdf' }]);
  });

  it('loads older messages on demand, keeping the order oldest first', async () => {
    const page = (offset: number) => Array.from({ length: offset === 0 ? 50 : 10 }, (_, n) => message({ id: `m${offset + n}`, text: `mensaje ${offset + n}` }));
    const fake = renderScreen({
      ...listHandlers,
      messages: {
        ...listHandlers.messages,
        thread: (q) => ok(thread({ messages: page(q.offset ?? 0), paging: { limit: 50, offset: q.offset ?? 0, total: 60 } })),
      },
    });
    fireEvent.click((await screen.findAllByRole('button', { name: /Order/ }))[0]!);
    const list = await screen.findByRole('list', { name: 'Messages' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(50);
    fireEvent.click(screen.getByRole('button', { name: 'Show older messages' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(60));
    // Newest first from the API, so the oldest (m59) is now at the top.
    expect(within(list).getAllByRole('listitem')[0]!.getAttribute('data-id')).toBe('m59');
    expect(within(list).getAllByRole('listitem')[59]!.getAttribute('data-id')).toBe('m0');
    expect(fake.callsTo('messages.thread').at(-1)).toEqual({ packId: martin.packId, limit: 50, offset: 50 });
    expect(screen.queryByRole('button', { name: 'Show older messages' })).toBeNull();
  });

  it('re-reads the open thread when a new message of its conversation arrives', async () => {
    let text = 'primero';
    const fake = renderScreen({
      ...listHandlers,
      messages: { ...listHandlers.messages, thread: () => ok(thread({ messages: [message({ id: text, text })] })) },
    });
    fireEvent.click((await screen.findAllByRole('button', { name: /Order/ }))[0]!);
    await screen.findByText('primero');
    text = 'segundo';
    act(() =>
      fake.emit({
        type: 'messages.new',
        messages: [{ packId: martin.packId, id: 'x', text: 'segundo', date: '2026-11-18T16:00:00Z', fromUserId: SELLER + 2 }],
      }),
    );
    expect(await screen.findByText('segundo')).toBeTruthy();
  });
});

describe('inbox: the list follows the replica', () => {
  it('reads the list again when a pull ends (the first pull of an account announces no message as new)', async () => {
    let pulled = false;
    const fake = renderScreen({
      messages: { conversations: () => (pulled ? ok({ total: 1, conversations: [martin] }) : ok({ total: 0, conversations: [] })) },
    });
    await screen.findByText('No conversations yet. Messages from buyers appear here.');
    pulled = true;
    act(() => fake.emit({ type: 'sync.status', status: syncStatus({ lastPullAt: 1_764_000_000_000 }) }));
    expect((await screen.findAllByRole('button', { name: /Order 2000009000001/ })).length).toBe(1);
    // A status with the same pull reads nothing more.
    const reads = fake.callsTo('messages.conversations').length;
    act(() => fake.emit({ type: 'sync.status', status: syncStatus({ lastPullAt: 1_764_000_000_000 }) }));
    await screen.findByText('1 conversation');
    expect(fake.callsTo('messages.conversations')).toHaveLength(reads);
  });
});
