/**
 * The stock toolbar's actions by name in the component tests (issue 28), as a person reaches them:
 * Ctrl+K opens the command palette, the name is typed and its option clicked. A View control (a
 * store, a filter, saved views, columns, the reorder point) is then in the View options panel.
 */
import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

export async function runStockAction(user: UserEvent, name: string, typed = name): Promise<void> {
  await user.keyboard('{Control>}k{/Control}');
  const box = await screen.findByRole('combobox', { name: 'Command name' });
  await user.type(box, typed);
  await user.click(screen.getByRole('option', { name }));
  await waitFor(() => {
    if (screen.queryByRole('dialog', { name: 'Command palette' })) throw new Error('the palette is still open');
  });
}
