// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { Composer } from '../../../renderer/inbox/Composer.js';
import { checkComposer, fillTemplate, segments, templateValues } from '../../../renderer/inbox/compose.js';
import { InboxScreen } from '../../../renderer/inbox/InboxScreen.js';
import { type Handlers, fakeApi, ok } from '../../support/fake-api.js';
import { conversation, message, thread } from '../../support/fake-inbox.js';
import { renderInbox, resetRender } from './render.js';

beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(() => {
  resetRender();
  cleanup();
});

const PACK = 2000003000001;
const box = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Your reply' });
const martin = conversation({ buyer: { id: 1780493262, nickname: 'COMPRADOR_TEST', firstName: 'Martín', lastName: 'Gómez' }, product: 'Termo acero 1L' });

describe('quick replies as templates (issue 15 §2)', () => {
  it('fills the fields from the conversation, marks an empty one, and checks the filled text (pure helpers)', () => {
    const filled = fillTemplate('Hola {buyer_first_name}: tu {product} (venta {order_id}) sale hoy. {otro}', templateValues(martin));
    expect(filled.text).toBe('Hola Martín: tu Termo acero 1L (venta 2000009000001) sale hoy. {otro}');
    expect(filled.missing).toEqual([]);
    const nameless = fillTemplate('Hola {buyer_first_name}!', templateValues(conversation()));
    expect(nameless.text).toBe('Hola !');
    expect(nameless.missing).toEqual(['buyer_first_name']);
    // The rules run on the filled text: a field can push it over the limit.
    const long = fillTemplate(`${'a'.repeat(340)} {product}`, templateValues(martin));
    expect(checkComposer(long.text, 350).over).toBe(5);
  });

  it('previews each reply filled for the open conversation with the composer’s warnings, and inserts the filled text', async () => {
    const replies = [
      { id: 'ship', title: 'Shipped', text: 'Hola {buyer_first_name}, tu {product} (venta {order_id}) ya salió.' },
      { id: 'mail', title: 'Mail', text: 'Escribime a ventas@example.com, {buyer_first_name}' },
    ];
    const { store } = renderInbox(() => <Composer packId={PACK} blocked={null} />, {
      messages: { quickReplies: () => ok(replies), saveDraft: (p) => ok({ packId: p.packId, saved: true }) },
    });
    act(() => store.setState({ selected: martin }));
    fireEvent.click(screen.getByRole('button', { name: /Quick replies/ }));
    const panel = await screen.findByRole('group', { name: 'Quick replies' });
    const [ship, mail] = within(panel)
      .getAllByRole('listitem')
      .filter((li) => li.classList.contains('quick-reply'));
    expect(ship!.querySelector('.preview-text')!.textContent).toBe('Hola Martín, tu Termo acero 1L (venta 2000009000001) ya salió.');
    expect(ship!.querySelectorAll('.field')).toHaveLength(3);
    expect(ship!.querySelector('.warning')).toBeNull();
    expect(mail!.querySelector('.preview-text')!.textContent).toBe('Escribime a ventas@example.com, Martín');
    expect(mail!.querySelector('.warning[data-reason="PERSONAL_DATA"]')!.textContent).toContain('“ventas@example.com” looks like personal data');

    fireEvent.click(within(ship!).getByRole('button', { name: 'Insert “Shipped”' }));
    expect(box().value).toBe('Hola Martín, tu Termo acero 1L (venta 2000009000001) ya salió.');
  });

  it('shows an empty field in the preview when the conversation has no data for it', async () => {
    const replies = [{ id: 'hi', title: 'Hi', text: 'Hola {buyer_first_name}, gracias por tu compra.' }];
    const { store } = renderInbox(() => <Composer packId={PACK} blocked={null} />, { messages: { quickReplies: () => ok(replies) } });
    act(() => store.setState({ selected: conversation() }));
    fireEvent.click(screen.getByRole('button', { name: /Quick replies/ }));
    const item = (await screen.findByRole('button', { name: 'Insert “Hi”' })).closest('li')!;
    expect(item.querySelector('.field.missing')!.textContent).toBe('[no buyer’s first name]');
    expect(item.textContent).toContain('This conversation has no buyer’s first name: left empty.');
    fireEvent.click(within(item).getByRole('button', { name: 'Insert “Hi”' }));
    expect(box().value).toBe('Hola , gracias por tu compra.');
  });
});

describe('every moderation warning at once (issue 15 §2)', () => {
  it('lists each finding, several of one reason too, and highlights each warned part in place', () => {
    renderInbox(() => <Composer packId={PACK} blocked={null} />);
    const text = 'Mi mail es ana@example.com o ana.2@example.com, y mi instagram.com/aurora';
    fireEvent.change(box(), { target: { value: text } });
    const warnings = within(screen.getByRole('group', { name: 'Before sending' })).getAllByRole('listitem');
    const personal = warnings.filter((w) => w.getAttribute('data-reason') === 'PERSONAL_DATA');
    expect(personal.map((w) => w.textContent)).toEqual([expect.stringContaining('ana@example.com'), expect.stringContaining('ana.2@example.com')]);
    expect(warnings.some((w) => w.getAttribute('data-reason') === 'SOCIAL_NETWORK_LINK')).toBe(true);
    const marks = [...screen.getByTestId('composer-highlight').querySelectorAll('mark.warn')].map((m) => m.textContent);
    expect(marks).toEqual(expect.arrayContaining(['ana@example.com', 'ana.2@example.com']));
    expect(marks.some((m) => m!.includes('instagram.com/aurora'))).toBe(true);
    // The highlight layer is still exactly the text.
    expect(screen.getByTestId('composer-highlight').textContent).toBe(`${text}\n`);
  });

  it('cuts refused characters and warned parts apart (pure helper)', () => {
    const text = 'a’ ana@example.com';
    const check = checkComposer(text, 350);
    expect(segments(text, check.unsupported, check.warnings)).toEqual([
      { text: 'a', refused: false },
      { text: '’', refused: true },
      { text: ' ', refused: false },
      { text: 'ana@example.com', refused: false, warning: 'PERSONAL_DATA' },
    ]);
  });
});

describe('edit and resend a rejected message (issue 15 §2)', () => {
  it('puts the rejected text into the reply box, focused, to fix and send again', async () => {
    const rejected = message({ id: 'r1', fromSeller: true, text: 'Llamame al 11 5555 1234', moderation: { status: 'rejected', reason: 'PERSONAL_DATA' } });
    const handlers: Handlers = {
      messages: {
        conversations: () => ok({ total: 1, conversations: [martin] }),
        thread: () => ok(thread({ messages: [rejected] })),
        drafts: () => ok([]),
        saveDraft: (p) => ok({ packId: p.packId, saved: p.text.trim() !== '' }),
        send: () => ok({ status: 'queued', entryId: 1, warnings: [] }),
      },
    };
    const fake = fakeApi(handlers);
    render(<InboxScreen api={fake.api} />);
    fireEvent.click(await screen.findByRole('button', { name: /Order/ }));
    const note = await screen.findByRole('note');
    fireEvent.click(within(note).getByRole('button', { name: 'Edit and resend' }));
    expect(box().value).toBe('Llamame al 11 5555 1234');
    expect(document.activeElement).toBe(box());
    // The composer shows why it would be rejected again, before sending.
    expect(
      within(screen.getByRole('group', { name: 'Before sending' }))
        .getAllByRole('listitem')[0]!
        .getAttribute('data-reason'),
    ).toBe('PERSONAL_DATA');
    fireEvent.change(box(), { target: { value: 'Te escribo por acá' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(fake.callsTo('messages.send')).toEqual([{ packId: martin.packId, text: 'Te escribo por acá' }]));
  });
});

describe('drafts and search in the store (issue 15 §2)', () => {
  it('saves a draft after typing pauses, clears it on send, and restores kept drafts', async () => {
    const { fake, store } = renderInbox(() => <Composer packId={PACK} blocked={null} />, {
      messages: {
        drafts: () => ok([{ packId: 77, text: 'kept', updatedAt: 1 }]),
        saveDraft: (p) => ok({ packId: p.packId, saved: p.text.trim() !== '' }),
        send: () => ok({ status: 'queued', entryId: 1, warnings: [] }),
        thread: () => ok(thread()),
        conversations: () => ok({ total: 0, conversations: [] }),
      },
    });
    fireEvent.change(box(), { target: { value: 'Hola' } });
    fireEvent.change(box(), { target: { value: 'Hola Martín' } });
    await waitFor(() => expect(fake.callsTo('messages.saveDraft')).toEqual([{ packId: PACK, text: 'Hola Martín' }]));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(fake.callsTo('messages.saveDraft').at(-1)).toEqual({ packId: PACK, text: '' }));
    await act(() => store.getState().loadDrafts());
    expect(store.getState().drafts[77]?.text).toBe('kept');
  });

  it('searches the list with the typed words and the chosen filter', async () => {
    const handlers: Handlers = {
      messages: {
        conversations: (q) => ok(q?.search === 'termo' ? { total: 1, conversations: [martin] } : { total: 0, conversations: [] }),
        drafts: () => ok([]),
      },
    };
    const fake = fakeApi(handlers);
    render(<InboxScreen api={fake.api} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Blocked' }));
    expect(await screen.findByText('No blocked conversations.')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search conversations' }), { target: { value: 'termo' } });
    await waitFor(() => expect(fake.callsTo('messages.conversations').at(-1)).toEqual({ filter: 'blocked', limit: 50, offset: 0, search: 'termo' }));
    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    expect(await screen.findByRole('button', { name: /Order/ })).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search conversations' }), { target: { value: 'nada' } });
    expect(await screen.findByText('No conversation matches “nada”.')).toBeTruthy();
  });
});
