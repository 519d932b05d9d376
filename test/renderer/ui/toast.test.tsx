// @vitest-environment jsdom
import * as Popover from '@radix-ui/react-popover';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster, toast, toasts } from '../../../renderer/ui/Toast.js';

afterEach(() => {
  cleanup();
  act(() => toasts.setState({ items: [] }));
  vi.useRealTimers();
});

const WORDS = { label: 'Notification', region: 'Notifications ({hotkey})', dismiss: 'Dismiss' };

function Page() {
  return (
    <>
      <input aria-label="Search" />
      <Toaster words={{ ...WORDS, region: 'Notifications (F8)' }} />
    </>
  );
}

describe('toasts', () => {
  it('shows a confirmation in the notifications region, announced politely, without taking focus', async () => {
    render(<Page />);
    const search = screen.getByRole('textbox', { name: 'Search' });
    search.focus();
    act(() => toast('Exported 3 rows.'));
    const region = screen.getByRole('region', { name: 'Notifications (F8)' });
    expect(within(region).getByText('Exported 3 rows.')).toBeTruthy();
    // Radix says it through a polite status of its own: the label, then the text.
    await waitFor(() =>
      expect(screen.getAllByRole('status').some((s) => s.getAttribute('aria-live') === 'polite' && s.textContent?.includes('Exported 3 rows.'))).toBe(true),
    );
    expect(document.activeElement).toBe(search);
  });

  it('is dismissed by its button, and keeps at most three', async () => {
    const user = userEvent.setup();
    render(<Page />);
    act(() => {
      for (const n of [1, 2, 3, 4]) toast(`Saved ${n}.`);
    });
    const region = screen.getByRole('region', { name: 'Notifications (F8)' });
    expect(within(region).queryByText('Saved 1.')).toBeNull();
    expect(
      within(region)
        .getAllByText(/^Saved \d\.$/)
        .map((e) => e.textContent),
    ).toEqual(['Saved 2.', 'Saved 3.', 'Saved 4.']);
    // From the keyboard (jsdom has no pointer capture for Radix's swipe on a click).
    within(region).getAllByRole('button', { name: 'Dismiss' })[0]!.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(region).queryByText('Saved 2.')).toBeNull());
    expect(toasts.getState().items.map((t) => t.text)).toEqual(['Saved 3.', 'Saved 4.']);
  });

  it('goes by itself after its time (a fake clock)', () => {
    vi.useFakeTimers();
    render(<Page />);
    act(() => toast('View “Sin Full” saved.'));
    expect(screen.getByText('View “Sin Full” saved.')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(7000);
    });
    expect(screen.getByText('View “Sin Full” saved.')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.queryByText('View “Sin Full” saved.')).toBeNull();
    expect(toasts.getState().items).toEqual([]);
  });

  it('does not keep Esc from a panel opened before it: one Esc closes both', async () => {
    const user = userEvent.setup();
    render(
      <>
        <Popover.Root defaultOpen>
          <Popover.Anchor />
          <Popover.Content aria-label="View options">
            <button type="button">Save view</button>
          </Popover.Content>
        </Popover.Root>
        <Toaster words={WORDS} />
      </>,
    );
    screen.getByRole('button', { name: 'Save view' }).focus();
    act(() => toast('View saved.'));
    expect(screen.getByText('View saved.')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'View options' })).toBeNull();
    expect(screen.queryByText('View saved.')).toBeNull();
  });
});
