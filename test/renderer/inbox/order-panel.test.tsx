// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationOrderView } from '../../../common/contract/contract.js';
import { useI18nStore } from '../../../renderer/i18n/index.js';
import { InboxScreen } from '../../../renderer/inbox/InboxScreen.js';
import { type Handlers, fakeApi, ok } from '../../support/fake-api.js';
import { BUYER, conversation, thread } from '../../support/fake-inbox.js';

/** Issue 15 §1: the list shows the buyer's name and the product; the side panel the order's context. */
beforeEach(() => act(() => useI18nStore.getState().setLanguage('en')));
afterEach(cleanup);

const termo: ConversationOrderView = {
  id: 2000009000001,
  status: 'paid',
  dateCreated: '2026-11-18T12:40:00.000Z',
  totalAmount: 91998,
  currencyId: 'ARS',
  items: [
    {
      itemId: 'MLA1400000001',
      title: 'Termo acero inoxidable 1L',
      quantity: 2,
      unitPrice: 45999,
      currencyId: 'ARS',
      picture: 'https://img.example.com/termo.jpg',
    },
  ],
  shipping: { id: 43000000001, logisticType: 'fulfillment', delivered: false },
};
const withOrder = conversation({
  buyer: { id: BUYER, nickname: 'COMPRADOR_TEST', firstName: 'Martín', lastName: 'Gómez' },
  product: 'Termo acero inoxidable 1L',
  orders: [termo],
});
const cancelled = conversation({
  packId: 2000009000003,
  orderIds: [2000009000003],
  buyer: { id: 99, nickname: 'SIN_NOMBRE', firstName: '', lastName: null },
  product: 'Mate de calabaza',
  orders: [
    {
      ...termo,
      id: 2000009000003,
      status: 'cancelled',
      items: [{ ...termo.items[0]!, itemId: 'MLA1400000002', title: 'Mate de calabaza', quantity: 1, unitPrice: 15999, picture: null }],
      shipping: { id: null, logisticType: 'cross_docking', delivered: false },
    },
  ],
  lastMessage: null,
});

function renderScreen() {
  const handlers: Handlers = {
    messages: {
      conversations: () => ok({ total: 2, conversations: [withOrder, cancelled] }),
      thread: (q) => ok(thread({ packId: q.packId })),
      quickReplies: () => ok([]),
    },
  };
  const fake = fakeApi(handlers);
  render(<InboxScreen api={fake.api} />);
  return fake;
}

describe('inbox: order context', () => {
  it('the list shows the buyer by name and the product of each conversation', async () => {
    renderScreen();
    const items = await screen.findAllByRole('button', { name: /Order/ });
    expect(items[0]!.querySelector('.buyer')!.textContent).toBe('Martín Gómez');
    expect(items[0]!.querySelector('.buyer')!.getAttribute('title')).toBe('COMPRADOR_TEST');
    expect(items[0]!.textContent).toContain('Termo acero inoxidable 1L');
    // No names: the nickname alone.
    expect(items[1]!.querySelector('.buyer')!.textContent).toBe('SIN_NOMBRE');
    expect(items[1]!.textContent).toContain('Mate de calabaza');
  });

  it('the side panel shows product with picture, quantity, status, shipping, amount and buyer', async () => {
    renderScreen();
    fireEvent.click((await screen.findAllByRole('button', { name: /Order/ }))[0]!);
    const panel = await screen.findByRole('complementary', { name: 'Order' });
    const order = within(panel).getByRole('region', { name: 'Order 2000009000001' });
    expect(within(order).getByRole<HTMLImageElement>('img', { name: 'Picture of Termo acero inoxidable 1L' }).src).toBe('https://img.example.com/termo.jpg');
    const text = order.textContent!;
    expect(text).toContain('Termo acero inoxidable 1L');
    expect(text).toContain('2 units');
    expect(text).toMatch(/ARS\s?45,999\.00/);
    expect(text).toContain('Paid');
    expect(text).toContain('Full (the marketplace ships it) · not delivered yet');
    expect(text).toMatch(/ARS\s?91,998\.00/);
    expect(text).toContain('Nov 18, 2026');
    expect(panel.querySelector('.order-buyer')!.textContent).toBe('Martín Gómez (COMPRADOR_TEST)');
  });

  it('a picture that does not load, or none, gives way to the initial; a cancelled order without shipment says so', async () => {
    renderScreen();
    fireEvent.click((await screen.findAllByRole('button', { name: /Order/ }))[0]!);
    const img = await screen.findByRole('img', { name: 'Picture of Termo acero inoxidable 1L' });
    fireEvent.error(img);
    expect(screen.queryByRole('img', { name: 'Picture of Termo acero inoxidable 1L' })).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: /Order/ })[1]!);
    const order = await screen.findByRole('region', { name: 'Order 2000009000003' });
    expect(order.textContent).toContain('1 unit');
    expect(order.textContent).toContain('Cancelled');
    expect(order.textContent).toContain('Collection (picked up from your warehouse) · no shipment');
    expect(order.querySelector('.order-picture.none')!.textContent).toBe('M');
  });

  it('a conversation without order details (an older core) shows the panel as before', async () => {
    const fake = fakeApi({
      messages: {
        conversations: () => ok({ total: 1, conversations: [conversation()] }),
        thread: (q) => ok(thread({ packId: q.packId })),
        quickReplies: () => ok([]),
      },
    });
    render(<InboxScreen api={fake.api} />);
    fireEvent.click(await screen.findByRole('button', { name: /Order/ }));
    const panel = await screen.findByRole('complementary', { name: 'Order' });
    expect(within(panel).queryByRole('region')).toBeNull();
    expect(panel.querySelector('.order-buyer')!.textContent).toBe('COMPRADOR_TEST');
  });
});
