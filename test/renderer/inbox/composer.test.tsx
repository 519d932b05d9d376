// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Composer } from '../../../renderer/inbox/Composer.js';
import { checkComposer, segments } from '../../../renderer/inbox/compose.js';
import { fail, ok } from '../../support/fake-api.js';
import { renderInbox, resetRender } from './render.js';

afterEach(resetRender);

const PACK = 2000003000001;
const box = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Your reply' });
const type = (text: string) => fireEvent.change(box(), { target: { value: text } });
const sendButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Send' });
const counter = () => document.querySelector('.counter')!;

describe('composer: counter', () => {
  it('counts against 350 for a seller and refuses the 351st character', () => {
    renderInbox(() => <Composer packId={PACK} blocked={null} />);
    expect(counter().textContent).toBe('0 / 350');
    expect(sendButton().disabled).toBe(true);
    type('Hola');
    expect(counter().textContent).toBe('4 / 350');
    expect(counter().getAttribute('aria-label')).toBe('4 of 350 characters');
    expect(sendButton().disabled).toBe(false);
    type('a'.repeat(350));
    expect(counter().getAttribute('data-over')).toBe('false');
    expect(sendButton().disabled).toBe(false);
    type('a'.repeat(352));
    expect(counter().textContent).toContain('352 / 350');
    expect(counter().getAttribute('data-over')).toBe('true');
    expect(screen.getByText('2 characters over the limit of 350.')).toBeTruthy();
    expect(sendButton().disabled).toBe(true);
  });

  it('counts against 3,500 for a buyer', () => {
    renderInbox(() => <Composer packId={PACK} blocked={null} role="buyer" />);
    type('a'.repeat(351));
    expect(counter().textContent).toBe('351 / 3,500');
    expect(sendButton().disabled).toBe(false);
    type('a'.repeat(3501));
    expect(screen.getByText('1 character over the limit of 3,500.')).toBeTruthy();
    expect(sendButton().disabled).toBe(true);
  });

  it('counts an allowed emoticon as one character, with its skin tone', () => {
    renderInbox(() => <Composer packId={PACK} blocked={null} />);
    type('Gracias 👍🏽');
    expect(counter().textContent).toBe('9 / 350');
    expect(document.querySelectorAll('mark')).toHaveLength(0);
  });
});

describe('composer: characters outside the allowed set', () => {
  it('highlights them in place before sending, names them, and disables Send', () => {
    renderInbox(() => <Composer packId={PACK} blocked={null} />);
    type('Te lo envío ’hoy’ ☎ ok');
    const marks = within(screen.getByTestId('composer-highlight')).getAllByText((_, el) => el?.tagName === 'MARK');
    expect(marks.map((m) => m.textContent)).toEqual(['’', '’', '☎']);
    // The highlight layer is the same text: the marks sit exactly under the refused characters.
    expect(screen.getByTestId('composer-highlight').textContent).toBe('Te lo envío ’hoy’ ☎ ok\n');
    expect(screen.getByText(/These characters cannot be sent: ’ \(U\+2019\) and ☎ \(U\+260E\)/)).toBeTruthy();
    expect(box().getAttribute('aria-invalid')).toBe('true');
    expect(sendButton().disabled).toBe(true);
    type('Te lo envío hoy ok');
    expect(document.querySelectorAll('mark')).toHaveLength(0);
    expect(sendButton().disabled).toBe(false);
  });

  it('cuts the text around the refused characters (pure helper)', () => {
    const text = 'a’b🏴c';
    const check = checkComposer(text, 350);
    expect(segments(text, check.unsupported)).toEqual([
      { text: 'a', refused: false },
      { text: '’', refused: true },
      { text: 'b', refused: false },
      { text: '🏴', refused: true },
      { text: 'c', refused: false },
    ]);
  });
});

describe('composer: moderation pre-check (same rules as the server)', () => {
  it('warns about personal data, a payment link and a social network, one line per reason, without blocking Send', () => {
    renderInbox(() => <Composer packId={PACK} blocked={null} />);
    type('Escribime a martin.gomez@example.com o por instagram.com/aurora');
    const warnings = within(screen.getByRole('group', { name: 'Before sending' })).getAllByRole('listitem');
    const reasons = warnings.map((w) => w.getAttribute('data-reason'));
    expect(reasons).toContain('PERSONAL_DATA');
    expect(reasons).toContain('SOCIAL_NETWORK_LINK');
    expect(warnings.find((w) => w.getAttribute('data-reason') === 'PERSONAL_DATA')!.textContent).toContain(
      '“martin.gomez@example.com” looks like personal data',
    );
    expect(sendButton().disabled).toBe(false);
    type('Te lo despachamos hoy.');
    expect(screen.queryByRole('group', { name: 'Before sending' })).toBeNull();
  });

  it('warns about out-of-place language in the words of the current language', async () => {
    const { useI18nStore } = await import('../../../renderer/i18n/index.js');
    renderInbox(() => <Composer packId={PACK} blocked={null} />);
    act(() => useI18nStore.getState().setLanguage('es'));
    fireEvent.change(screen.getByRole('textbox', { name: 'Tu respuesta' }), { target: { value: 'sos un boludo' } });
    expect(screen.getByText('“boludo” suena ofensivo: esos mensajes se rechazan.')).toBeTruthy();
  });
});

describe('composer: blocked conversations', () => {
  const cases = [
    ['blocked_by_cancelled_order', 'The order was cancelled: messages can no longer be sent in this conversation.'],
    ['blocked_by_mediation', 'A mediation is in process: messages cannot be sent until it ends.'],
    ['blocked_by_fulfillment', 'The purchase is shipped by Full and has not been delivered yet: you can write once it is delivered.'],
  ] as const;
  for (const [reason, words] of cases) {
    it(`explains ${reason} and disables the composer`, () => {
      renderInbox(() => <Composer packId={PACK} blocked={reason} />);
      expect(screen.getByRole('note').textContent).toContain(words);
      expect(box().disabled).toBe(true);
      expect(sendButton().disabled).toBe(true);
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'choose files' }).disabled).toBe(true);
      expect(screen.getByRole<HTMLButtonElement>('button', { name: /Quick replies/ }).disabled).toBe(true);
    });
  }
});

describe('composer: sending', () => {
  it('sends with Ctrl+Enter, shows "queued" and clears the draft', async () => {
    const { fake } = renderInbox(() => <Composer packId={PACK} blocked={null} />, {
      messages: { send: () => ok({ status: 'queued', entryId: 7, warnings: [] }) },
    });
    type('Sale hoy');
    fireEvent.keyDown(box(), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Queued: it is sent when the app is online.'));
    expect(fake.callsTo('messages.send')).toEqual([{ packId: PACK, text: 'Sale hoy' }]);
    expect(box().value).toBe('');
  });

  it('shows the marketplace reason of a failed send and retries the same draft', async () => {
    let n = 0;
    const { fake } = renderInbox(() => <Composer packId={PACK} blocked={null} />, {
      messages: {
        send: () =>
          ++n === 1
            ? fail('forbidden', 'You can not send the message because a mediation is in process', 403)
            : ok({ status: 'queued', entryId: 8, warnings: [] }),
      },
    });
    type('Hola');
    fireEvent.click(sendButton());
    const alert = await screen.findByRole('alert');
    // The marketplace's refusal is said in words (SPEC 7.6 mediation block).
    expect(alert.textContent).toContain('Not sent: A mediation is in process: messages cannot be sent until it ends.');
    expect(box().value).toBe('Hola');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Queued'));
    expect(fake.callsTo('messages.send')).toHaveLength(2);
  });
});

describe('composer: quick replies', () => {
  it('inserts a saved reply and saves the current text as a new one', async () => {
    const replies = [{ id: 'thanks', title: 'Thanks', text: '¡Gracias por tu compra!' }];
    const { fake } = renderInbox(() => <Composer packId={PACK} blocked={null} />, {
      messages: { quickReplies: () => ok(replies), saveQuickReplies: (p) => ok(p.replies.map((r) => ({ ...r }))) },
    });
    fireEvent.click(screen.getByRole('button', { name: /Quick replies/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Insert “Thanks”' }));
    expect(box().value).toBe('¡Gracias por tu compra!');
    // One way to save: the new reply's text starts as what is in the reply box.
    fireEvent.click(screen.getByRole('button', { name: /Quick replies/ }));
    expect((await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Text' })).value).toBe('¡Gracias por tu compra!');
    expect(screen.queryByRole('button', { name: 'Save this reply as a quick reply' })).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Gracias 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save quick reply' }));
    await waitFor(() => expect(fake.callsTo('messages.saveQuickReplies')).toHaveLength(1));
    const saved = (fake.callsTo('messages.saveQuickReplies')[0] as { replies: { title: string; text: string }[] }).replies;
    expect(saved.map((r) => [r.title, r.text])).toEqual([
      ['Thanks', '¡Gracias por tu compra!'],
      ['Gracias 2', '¡Gracias por tu compra!'],
    ]);
    expect(await screen.findByRole('button', { name: 'Insert “Gracias 2”' })).toBeTruthy();
  });
});
