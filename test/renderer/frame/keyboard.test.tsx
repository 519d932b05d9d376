// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../renderer/frame/App.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { ok } from '../../support/fake-api.js';
import { fakeStockroom, giveGridASize } from '../../support/fake-stock.js';
import { settingsView } from '../../support/fake-settings.js';

/**
 * The frame from the keyboard (issue 28): "Skip to the grid" is the first Tab stop and lands on
 * the grid's active cell; the sections are one Tab stop (the open one), arrows, Home and End move
 * between them and Enter opens one; the mark and the name head the row.
 */
beforeEach(() => {
  act(() => useI18nStore.getState().setLanguage('en'));
});
afterEach(cleanup);

async function openFrame() {
  giveGridASize();
  const fake = fakeStockroom();
  fake.answers['settings.get'] = () => ok(settingsView({ firstRun: false }));
  fake.answers['messages.conversations'] = () => ok({ total: 0, conversations: [] });
  render(<App api={fake.api} />);
  await screen.findByRole('gridcell', { name: /^Depósito Palermo, Producto 0:/ });
  return userEvent.setup();
}

describe('the frame from the keyboard', () => {
  it('"Skip to the grid" comes first and puts the focus on the grid’s active cell', async () => {
    const user = await openFrame();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to the grid' });
    expect(document.activeElement).toBe(skip);
    await user.keyboard('{Enter}');
    const active = document.activeElement as HTMLElement;
    expect(active.getAttribute('role')).toBe('gridcell');
    expect(active.tabIndex).toBe(0);
    expect(active.closest('[role="grid"]')).not.toBeNull();
  });

  it('the tabs are one Tab stop; arrows, Home and End move, Enter opens, and the skip link then leads to the screen', async () => {
    const user = await openFrame();
    expect(screen.getByRole('banner').textContent).toContain('Stockroom');
    expect(screen.getByRole('main').contains(screen.getByRole('tabpanel'))).toBe(true);
    await user.tab();
    await user.tab();
    const stock = screen.getByRole('tab', { name: 'Stock' });
    expect(document.activeElement).toBe(stock);
    expect(screen.getAllByRole('tab').map((t) => t.tabIndex)).toEqual([0, -1, -1, -1]);
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Inbox' }));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Settings' }));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(stock);
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Settings' }));
    // Moving is not opening: Stock is still the open tab until Enter.
    expect(stock.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');
    const settings = screen.getByRole('tab', { name: 'Settings' });
    expect(settings.getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('tab').map((t) => t.tabIndex)).toEqual([-1, -1, -1, 0]);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(stock);
    // Off the Stock tab the skip link leads to the open screen.
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Skip to the content' }));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('a click alone opens a tab (voice control and screen readers send no mouse down), as a mouse down does', async () => {
    await openFrame();
    const inbox = screen.getByRole('tab', { name: 'Inbox' });
    act(() => inbox.click());
    expect(inbox.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').id).toBe('panel-inbox');
  });
});
