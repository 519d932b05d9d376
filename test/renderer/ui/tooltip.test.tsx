// @vitest-environment jsdom
import * as Popover from '@radix-ui/react-popover';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Tooltip } from '../../../renderer/ui/Tooltip.js';

afterEach(cleanup);

/** A panel (a Radix layer, as the View options are) with an icon-only Close under a tooltip. */
function Panel() {
  return (
    <>
      <button type="button">Before</button>
      <Popover.Root defaultOpen>
        <Popover.Anchor />
        <Popover.Content aria-label="Options" onOpenAutoFocus={(e) => e.preventDefault()}>
          <button type="button">First</button>
          <Tooltip label="Close the options" shortcut="Control+W">
            <Popover.Close aria-label="Close the options">×</Popover.Close>
          </Tooltip>
        </Popover.Content>
      </Popover.Root>
    </>
  );
}

describe('the tooltip', () => {
  it('opens on keyboard focus without taking it, describes the button and shows its shortcut', async () => {
    const user = userEvent.setup();
    render(<Panel />);
    screen.getByRole('button', { name: 'First' }).focus();
    await user.tab();
    const close = screen.getByRole('button', { name: 'Close the options' });
    expect(document.activeElement).toBe(close);
    const tip = await screen.findByRole('tooltip');
    expect(close.getAttribute('aria-describedby')).toBe(tip.id);
    // The label, then the shortcut in the platform's words.
    expect(tip.textContent).toBe('Close the optionsCtrl+W');
    expect(tip.querySelector('kbd')?.textContent).toBe('Ctrl+W');
    expect(document.activeElement).toBe(close);
  });

  it('is closed by any key, and keys (a scanner’s burst) never open it again', async () => {
    const user = userEvent.setup();
    render(<Panel />);
    screen.getByRole('button', { name: 'First' }).focus();
    await user.tab();
    await screen.findByRole('tooltip');
    await user.keyboard('7790001234565');
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close the options' }));
  });

  it('lets Esc through to the panel behind it: one Esc closes the panel, tooltip and all', async () => {
    const user = userEvent.setup();
    render(<Panel />);
    screen.getByRole('button', { name: 'First' }).focus();
    await user.tab();
    await screen.findByRole('tooltip');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Options' })).toBeNull();
  });

  it('does not open when code gives the button focus after Esc (a dialog handing focus back)', async () => {
    const user = userEvent.setup();
    render(
      <>
        <input aria-label="Box" />
        <Tooltip label="Command palette">
          <button type="button">Commands</button>
        </Tooltip>
      </>,
    );
    const box = screen.getByRole('textbox', { name: 'Box' });
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') screen.getByRole('button', { name: 'Commands' }).focus();
    });
    box.focus();
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Commands' }));
    expect(screen.queryByRole('tooltip')).toBeNull();
    // Tab away and back: now it is keyboard navigation.
    await user.tab({ shift: true });
    await user.tab();
    expect((await screen.findByRole('tooltip')).textContent).toBe('Command palette');
  });
});
