// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OperatorsView } from '../../../common/contract/contract.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { OperatorSwitch } from '../../../renderer/operators/OperatorSwitch.js';
import { OperatorsSettings } from '../../../renderer/operators/OperatorsSettings.js';
import { fail, fakeApi, ok } from '../../support/fake-api.js';

beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(cleanup);

const ana = { id: 1, name: 'Ana', createdAt: 1 };
const bruno = { id: 2, name: 'Bruno', createdAt: 2 };

/**
 * A fake core that keeps the operators and checks PINs as the real one answers: the right PIN
 * switches, a wrong one is `unauthorized`, and after `lockAfter` wrong ones `too_many_requests`
 * with the seconds in its cause.
 */
function core(initial: OperatorsView, pins: Record<number, string>, lockAfter = 5) {
  let view = initial;
  let wrong = 0;
  return fakeApi({
    operators: {
      list: () => ok(view),
      switch: (p) => {
        if (pins[p.id] !== p.pin) {
          wrong++;
          return wrong >= lockAfter
            ? { ok: false, error: { code: 'too_many_requests', message: 'Too many wrong PINs', status: 429, cause: [{ code: 'retry_after', seconds: 30 }] } }
            : fail('unauthorized', 'Wrong PIN', 401);
        }
        view = { ...view, current: view.operators.find((o) => o.id === p.id) ?? null };
        return ok(view);
      },
      signOut: () => ok((view = { ...view, current: null })),
      add: (p) => ok((view = { ...view, operators: [...view.operators, { id: view.operators.length + 1, name: p.name, createdAt: 3 }] })),
      remove: (p) => ok((view = { operators: view.operators.filter((o) => o.id !== p.id), current: view.current?.id === p.id ? null : view.current })),
    },
  });
}

describe('the operator switch in the frame', () => {
  it('shows nothing while the workstation has no operators', async () => {
    const f = core({ operators: [], current: null }, {});
    const { container } = render(<OperatorSwitch api={f.api} />);
    await waitFor(() => expect(f.callsTo('operators.list')).toHaveLength(1));
    expect(container.textContent).toBe('');
  });

  it('switches from the keyboard: a labelled dialog, a wrong PIN said and cleared, the right one switches and focus comes back', async () => {
    const user = userEvent.setup();
    const f = core({ operators: [ana, bruno], current: null }, { 1: '2468', 2: '1357' });
    render(<OperatorSwitch api={f.api} />);
    const button = await screen.findByRole('button', { name: 'Switch operator' });
    expect(screen.getByText('No operator')).toBeTruthy();

    button.focus();
    await user.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Switch operator' });
    const pin = within(dialog).getByLabelText('PIN');
    expect(document.activeElement).toBe(pin);
    expect((within(dialog).getByRole('combobox', { name: 'Operator' }) as HTMLSelectElement).value).toBe('1');

    await user.keyboard('9999{Enter}');
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Wrong PIN. Try again.');
    expect((pin as HTMLInputElement).value).toBe('');
    expect(pin.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(pin);

    // Shift+Tab to the operator list, Bruno picked there, Tab back to the PIN.
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(document.activeElement).toBe(within(dialog).getByRole('combobox', { name: 'Operator' }));
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Operator' }), 'Bruno');
    await user.keyboard('{Tab}');
    expect(document.activeElement).toBe(pin);
    await user.keyboard('1357{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Operator: Bruno')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Switch operator' }));
    expect(f.callsTo('operators.switch')).toEqual([
      { id: 1, pin: '9999' },
      { id: 2, pin: '1357' },
    ]);
  });

  it('Esc closes without switching and gives focus back; a short PIN is refused before it is sent', async () => {
    const user = userEvent.setup();
    const f = core({ operators: [ana], current: null }, { 1: '2468' });
    render(<OperatorSwitch api={f.api} />);
    await user.click(await screen.findByRole('button', { name: 'Switch operator' }));
    await user.keyboard('12{Enter}');
    expect(screen.getByRole('alert').textContent).toContain('A PIN is 4 to 8 digits.');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Switch operator' }));
    expect(f.callsTo('operators.switch')).toEqual([]);
  });

  it('says how long to wait once the operator is locked, and signs out to no operator', async () => {
    const user = userEvent.setup();
    const f = core({ operators: [ana, bruno], current: bruno }, { 1: '2468' }, 1);
    render(<OperatorSwitch api={f.api} />);
    expect(await screen.findByText('Operator: Bruno')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Switch operator' }));
    await user.keyboard('0000{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain('Too many wrong PINs. Try again in 30 seconds.');
    await user.click(screen.getByRole('button', { name: 'No operator' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('No operator')).toBeTruthy();
    expect(f.callsTo('operators.signOut')).toHaveLength(1);
  });

  it('reads in Spanish', async () => {
    act(() => useI18nStore.getState().setLanguage('es'));
    const user = userEvent.setup();
    const f = core({ operators: [ana], current: null }, { 1: '2468' });
    render(<OperatorSwitch api={f.api} />);
    await user.click(await screen.findByRole('button', { name: 'Cambiar de operador' }));
    await user.keyboard('1111{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain('PIN incorrecto');
  });
});

describe('Settings › Operators', () => {
  it('adds an operator with a name and a PIN (checked first) and removes one; the frame follows', async () => {
    const user = userEvent.setup();
    const f = core({ operators: [ana], current: ana }, { 1: '2468' });
    render(
      <>
        <OperatorSwitch api={f.api} />
        <OperatorsSettings api={f.api} />
      </>,
    );
    const section = await screen.findByRole('region', { name: 'Operators' });
    expect(await within(section).findByText('Ana (working now)')).toBeTruthy();
    await user.type(within(section).getByLabelText('Operator name'), 'Bruno');
    await user.type(within(section).getByLabelText('PIN (4 to 8 digits)'), '12');
    await user.click(within(section).getByRole('button', { name: 'Add operator' }));
    expect(within(section).getByText('A PIN is 4 to 8 digits.')).toBeTruthy();
    expect(f.callsTo('operators.add')).toEqual([]);
    await user.type(within(section).getByLabelText('PIN (4 to 8 digits)'), '34');
    await user.click(within(section).getByRole('button', { name: 'Add operator' }));
    expect((await within(section).findByRole('status')).textContent).toContain('Bruno was added.');
    expect(f.callsTo('operators.add')).toEqual([{ name: 'Bruno', pin: '1234' }]);
    expect(within(section).getByText('Bruno')).toBeTruthy();

    await user.click(within(section).getByRole('button', { name: 'Remove Ana' }));
    expect((await within(section).findByRole('status')).textContent).toContain('Ana was removed.');
    // The frame's copy is the same store: Ana is no longer working here.
    expect(screen.getByText('No operator')).toBeTruthy();
  });
});
