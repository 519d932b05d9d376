// @vitest-environment jsdom
/**
 * The inbox through a seller's day (issue 27), in jsdom on the fake API: unfilled template fields
 * refused, a warned text sent only after a confirmation, a refused reply said as refused (never
 * "queued"), a dangerous file flagged on drop, draft files kept with the draft, and a rejected
 * message whose correction was delivered without "Edit and resend".
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Composer } from '../../../renderer/inbox/Composer.js';
import { ConversationList } from '../../../renderer/inbox/ConversationList.js';
import { DropZone } from '../../../renderer/inbox/DropZone.js';
import { QuickReplies } from '../../../renderer/inbox/QuickReplies.js';
import { Thread } from '../../../renderer/inbox/Thread.js';
import { ok } from '../../support/fake-api.js';
import { conversation, message, queuedMessage, thread } from '../../support/fake-inbox.js';
import { syncStatus } from '../../support/sync-status.js';
import { renderInbox, resetRender } from './render.js';

afterEach(resetRender);

const PACK = 2000003000001;
const box = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Your reply' });
const type = (text: string) => fireEvent.change(box(), { target: { value: text } });
const sendButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Send' });

let staged = 0;
const stageFile = (p: { name: string; bytes: Uint8Array; type?: string }) =>
  ok({ fileId: (++staged).toString(16).padStart(32, '0'), name: p.name, size: p.bytes.byteLength, type: p.type ?? null });

describe('template fields (issue 27)', () => {
  it('names an unfilled field and refuses to send until it is replaced', () => {
    const { fake } = renderInbox(() => <Composer packId={PACK} blocked={null} />, {
      messages: { send: () => ok({ status: 'queued', entryId: 1, warnings: [] }) },
    });
    type('Tu código de seguimiento es {tracking}.');
    expect(screen.getByText(/\{tracking\} is a field this app cannot fill \(it fills \{buyer_first_name\}, \{product\}, and \{order_id\}\)/)).toBeTruthy();
    expect(sendButton().disabled).toBe(true);
    fireEvent.keyDown(box(), { key: 'Enter', ctrlKey: true });
    expect(fake.callsTo('messages.send')).toEqual([]);
    type('Tu código de seguimiento es AR123456789.');
    expect(screen.queryByText(/cannot fill/)).toBeNull();
    expect(sendButton().disabled).toBe(false);
  });

  it('warns in a quick reply’s preview of a field it does not know', async () => {
    renderInbox(() => <QuickReplies packId={PACK} disabled={false} text="" conversation={conversation()} max={350} />, {
      messages: { quickReplies: () => ok([{ id: 'q1', title: 'Envío', text: 'Hola {buyer_first_name}, tu envío es {tracking}' }]) },
    });
    fireEvent.click(screen.getByRole('button', { name: /Quick replies/ }));
    await screen.findByText(/Not a field this app fills: \{tracking\}/);
  });
});

describe('moderation warnings (issue 27)', () => {
  it('sends a warned text only after the person confirms it; typing again asks again', async () => {
    const { fake } = renderInbox(() => <Composer packId={PACK} blocked={null} />, {
      messages: { send: () => ok({ status: 'queued', entryId: 1, warnings: [] }) },
    });
    type('Escribime a juan.perez@gmail.com y lo coordinamos');
    expect(document.querySelectorAll('.warnings .warning').length).toBeGreaterThan(0);
    fireEvent.click(sendButton());
    const ask = screen.getByRole('alertdialog');
    expect(ask.textContent).toMatch(/moderation warning.*will probably reject it\. Send it anyway\?/);
    expect(fake.callsTo('messages.send')).toEqual([]);
    fireEvent.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(sendButton());
    type('Escribime a juan.perez@gmail.com y lo vemos');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(sendButton());
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Send anyway' }));
    await waitFor(() => expect(fake.callsTo('messages.send')).toEqual([{ packId: PACK, text: 'Escribime a juan.perez@gmail.com y lo vemos' }]));
  });

  it('sends a clean text at once', async () => {
    const { fake } = renderInbox(() => <Composer packId={PACK} blocked={null} />, {
      messages: { send: () => ok({ status: 'queued', entryId: 1, warnings: [] }) },
    });
    type('Sale mañana por la mañana.');
    fireEvent.click(sendButton());
    await waitFor(() => expect(fake.callsTo('messages.send')).toHaveLength(1));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('a reply the marketplace refused (issue 27)', () => {
  it('is said as refused in the composer, and as being sent while online, never "queued when online"', async () => {
    let queued = [queuedMessage({ entryId: 7, state: 'pending', text: '¿Te llegó bien?' })];
    const { store, fake } = renderInbox(() => <Composer packId={PACK} blocked={null} />, {
      messages: {
        send: () => ok({ status: 'queued', entryId: 7, warnings: [] }),
        thread: () => ok(thread({ queued })),
        conversations: () => ok({ total: 1, conversations: [conversation()] }),
      },
      sync: { status: () => ok(syncStatus({ mode: 'online', online: true })) },
    });
    let stop = () => undefined as void;
    act(() => {
      stop = store.getState().start();
    });
    await act(() => store.getState().open(conversation()));
    type('¿Te llegó bien?');
    fireEvent.click(sendButton());
    await screen.findByText('Queued: it is being sent now.');
    act(() => fake.emit({ type: 'sync.status', status: syncStatus({ mode: 'online', online: false }) }));
    await screen.findByText('Queued: it is sent when the app is online.');
    queued = [queuedMessage({ entryId: 7, state: 'failed', text: '¿Te llegó bien?', lastError: 'The order was cancelled' })];
    await act(() => store.getState().refreshThread());
    expect(screen.getByRole('alert').textContent).toContain('Not sent: the marketplace refused it.');
    expect(screen.queryByText(/Queued/)).toBeNull();
    stop();
  });

  it('has a "not sent" badge in the list, and a filter of its own', async () => {
    const { fake, store } = renderInbox(() => <ConversationList />, {
      messages: { conversations: () => ok({ total: 1, conversations: [conversation({ queued: 0, failed: 1 })] }) },
    });
    await act(() => store.getState().loadList());
    expect(document.querySelector('.badge.failed')!.textContent).toBe('✕ 1 not sent');
    expect(screen.queryByText(/queued/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Not sent' }));
    await waitFor(() => expect(fake.callsTo('messages.conversations').some((p) => (p as { filter?: string }).filter === 'failed')).toBe(true));
  });
});

describe('attachments (issue 27)', () => {
  function setup(handlers = {}) {
    const r = renderInbox(
      () => (
        <DropZone packId={PACK} disabled={false}>
          <div data-testid="thread">thread</div>
          <Composer packId={PACK} blocked={null} />
        </DropZone>
      ),
      {
        messages: {
          stageFile,
          discardFile: (p: { fileId: string }) => ok({ fileId: p.fileId }),
          saveDraft: (p: { packId: number }) => ok({ packId: p.packId, saved: true }),
        },
        ...handlers,
      },
    );
    const drop = (files: File[]) => {
      const dataTransfer = { files, types: ['Files'], dropEffect: 'none' };
      const on = screen.getByTestId('thread');
      fireEvent.dragEnter(on, { dataTransfer });
      fireEvent.dragOver(on, { dataTransfer });
      fireEvent.drop(on, { dataTransfer });
    };
    const row = (name: string) =>
      within(screen.getByRole('list', { name: 'Files to send' }))
        .getByText(name)
        .closest('li')!;
    return { ...r, drop, row };
  }

  it('flags a dangerous file on drop, by its name or by its first bytes, and never calls it just "Ready"', async () => {
    const { drop, row } = setup();
    drop([
      new File(['MZ\x90\x00'], 'setup.exe', { type: 'application/x-msdownload' }),
      new File(['MZ\x90\x00'], 'factura.pdf', { type: 'application/pdf' }),
      new File(['%PDF-1.4'], 'guia.pdf', { type: 'application/pdf' }),
    ]);
    expect(row('setup.exe').getAttribute('data-flagged')).toBe('true');
    await waitFor(() => expect(row('guia.pdf').getAttribute('data-state')).toBe('ready'));
    await waitFor(() => expect(row('setup.exe').getAttribute('data-state')).toBe('ready'));
    await waitFor(() => expect(row('factura.pdf').getAttribute('data-state')).toBe('ready'));
    for (const name of ['setup.exe', 'factura.pdf']) {
      expect(row(name).textContent).toContain('Flagged: the buyer is warned that it may be harmful');
      expect(row(name).textContent).not.toContain('Ready');
    }
    expect(row('guia.pdf').getAttribute('data-flagged')).toBe('false');
    expect(row('guia.pdf').textContent).toContain('Ready');
  });

  it('saves the staged files with the draft, and restores the files the core kept', async () => {
    const { drop, row, fake, store } = setup();
    type('Te mando la factura');
    drop([new File(['%PDF-1.4'], 'factura.pdf', { type: 'application/pdf' })]);
    await waitFor(() => expect(row('factura.pdf').getAttribute('data-state')).toBe('ready'));
    const fileId = store.getState().drafts[PACK]!.files[0]!.fileId;
    await waitFor(() => expect(fake.callsTo('messages.saveDraft').at(-1)).toEqual({ packId: PACK, text: 'Te mando la factura', fileIds: [fileId] }));
    resetRender();

    const again = setup({
      messages: {
        stageFile,
        drafts: () =>
          ok([
            {
              packId: PACK,
              text: 'Te mando la factura',
              updatedAt: 1,
              files: [{ fileId: 'a'.repeat(32), name: 'factura.pdf', size: 8, type: 'application/pdf' }],
            },
          ]),
      },
    });
    await act(() => again.store.getState().loadDrafts());
    expect(box().value).toBe('Te mando la factura');
    expect(again.row('factura.pdf').getAttribute('data-state')).toBe('ready');
    expect(again.row('factura.pdf').textContent).toContain('Ready');
  });
});

describe('a rejected message and its corrected copy (issue 27)', () => {
  const rejected = message({ id: 'r1', fromSeller: true, text: 'Escribime a juan@gmail.com', moderation: { status: 'rejected', reason: 'personal_data' } });
  const stamp = (m: ReturnType<typeof message>, at: string) => ({ ...m, message_date: { ...m.message_date, created: at } });
  async function show(messages: ReturnType<typeof message>[]) {
    const { store } = renderInbox(() => <Thread conversation={conversation()} />, { messages: { thread: () => ok(thread({ messages })) } });
    await act(() => store.getState().open(conversation()));
  }

  it('offers Edit and resend while no later reply was delivered', async () => {
    const pending = message({ id: 'p1', fromSeller: true, text: 'Escribime por acá', moderation: { status: 'pending' } });
    await show([stamp(pending, '2026-11-18T14:10:00Z'), stamp(rejected, '2026-11-18T14:00:00Z')]);
    expect(screen.getByRole('button', { name: 'Edit and resend' })).toBeTruthy();
  });

  it('no longer offers it once the corrected copy was delivered', async () => {
    const corrected = message({ id: 'c1', fromSeller: true, text: 'Escribime por acá', moderation: { status: 'clean' } });
    await show([stamp(corrected, '2026-11-18T14:10:00Z'), stamp(rejected, '2026-11-18T14:00:00Z')]);
    expect(screen.queryByRole('button', { name: 'Edit and resend' })).toBeNull();
    expect(screen.getByText('Corrected and sent again below.')).toBeTruthy();
  });
});
