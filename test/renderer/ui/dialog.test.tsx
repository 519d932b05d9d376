// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Dialog } from '../../../renderer/ui/Dialog.js';

afterEach(cleanup);

/** A page with a button behind the dialog and a count of the keys that reach the page. */
function Page({ children, initialFocus }: { children: ReactNode; initialFocus?: 'first' | 'dialog' }) {
  const [open, setOpen] = useState(true);
  const [keys, setKeys] = useState<string[]>([]);
  return (
    <div onKeyDown={(e) => setKeys((k) => [...k, e.key])}>
      <button type="button">Behind</button>
      <output aria-label="keys">{keys.join(',')}</output>
      {open ? (
        <Dialog title="Move stock" describedBy="what" onClose={() => setOpen(false)} {...(initialFocus ? { initialFocus } : {})}>
          <p id="what">From one store to another.</p>
          {children}
        </Dialog>
      ) : (
        <p>closed</p>
      )}
    </div>
  );
}

describe('the modal dialog (Radix, CSP-safe)', () => {
  it('is a labelled, described modal dialog with focus on its first control, and injects no <style>', () => {
    const styles = document.querySelectorAll('style').length;
    render(
      <Page>
        <button type="button">One</button>
        <button type="button">Two</button>
      </Page>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Move stock' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('aria-describedby')).toBe('what');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'One' }));
    expect(document.querySelectorAll('style').length).toBe(styles);
    expect(dialog.closest('[style]')).toBeNull();
  });

  it('focuses the control marked data-autofocus', () => {
    render(
      <Page>
        <button type="button">One</button>
        <input aria-label="Quantity" data-autofocus />
      </Page>,
    );
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Quantity' }));
  });

  it('with initialFocus="dialog" focuses the dialog itself, where Enter presses nothing', async () => {
    const user = userEvent.setup();
    let pressed = 0;
    render(
      <Page initialFocus="dialog">
        <button type="button" onClick={() => pressed++}>
          Keep mine
        </button>
      </Page>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Move stock' });
    expect(document.activeElement).toBe(dialog);
    await user.keyboard('{Enter}');
    expect(pressed).toBe(0);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('keeps Tab inside (both ways) and takes focus back from outside', async () => {
    const user = userEvent.setup();
    render(
      <Page>
        <button type="button">One</button>
        <button type="button">Two</button>
      </Page>,
    );
    const one = screen.getByRole('button', { name: 'One' });
    const two = screen.getByRole('button', { name: 'Two' });
    await user.tab();
    expect(document.activeElement).toBe(two);
    await user.tab();
    expect(document.activeElement).toBe(one);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(two);
    screen.getByRole('button', { name: 'Behind' }).focus();
    await waitFor(() => expect(document.activeElement).toBe(two));
  });

  it('closes on Esc, which never reaches the page behind; a click on the overlay keeps it open', async () => {
    const user = userEvent.setup();
    render(
      <Page>
        <button type="button">One</button>
      </Page>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Move stock' });
    fireEvent.pointerDown(dialog.parentElement!);
    fireEvent.mouseDown(dialog.parentElement!);
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.keyboard('a');
    expect(screen.getByLabelText('keys').textContent).toBe('a');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('closed')).toBeTruthy();
    expect(screen.getByLabelText('keys').textContent).toBe('a');
  });
});
