import { afterEach, describe, expect, it } from 'vitest';
import type { StockroomEvent } from '../../common/contract/contract.js';
import { openCore, until, value } from './helpers.js';

type Opened = Awaited<ReturnType<typeof openCore>>;
let opened: Opened | null = null;
afterEach(async () => {
  await opened?.close();
  opened = null;
});

function record(o: Opened): StockroomEvent[] {
  const seen: StockroomEvent[] = [];
  o.core.events.on('event', (e) => seen.push(e));
  return seen;
}

const unreadEvents = (seen: StockroomEvent[]) => seen.flatMap((e) => (e.type === 'inbox.unread' ? [e.conversations] : []));

describe('what asks for the person’s attention: the unread badge and a clicked notification', () => {
  it('tells the number of conversations with unread messages when a profile opens, and again when reading one lowers it', async () => {
    opened = await openCore();
    const seen = record(opened);
    const api = opened.core.api;
    const unread = value(await api.messages.conversations({ filter: 'unread', limit: 100 }));
    expect(unread.total).toBeGreaterThan(0);
    await until(() => unreadEvents(seen).length > 0, 'the first unread count');
    // The badge's count is the unread filter's total: one rule for the tab label and the dock.
    expect(unreadEvents(seen)).toEqual([unread.total]);

    value(await api.messages.thread({ packId: unread.conversations[0]!.packId }));
    await until(() => unreadEvents(seen).length > 1, 'the count after a read');
    expect(unreadEvents(seen)).toEqual([unread.total, unread.total - 1]);
    expect(value(await api.messages.conversations({ filter: 'unread' })).total).toBe(unread.total - 1);
  });

  it('leaves the count alone for a read without marking or of a read conversation; the next real read lowers it by one', async () => {
    opened = await openCore();
    const seen = record(opened);
    const api = opened.core.api;
    await until(() => unreadEvents(seen).length > 0, 'the first unread count');
    const unread = value(await api.messages.conversations({ filter: 'unread', limit: 1 })).conversations[0]!;
    value(await api.messages.thread({ packId: unread.packId, markAsRead: false }));
    const read = value(await api.messages.conversations({ limit: 100 })).conversations.find((c) => c.unread === 0)!;
    value(await api.messages.thread({ packId: read.packId }));
    value(await api.messages.thread({ packId: unread.packId }));
    await until(() => unreadEvents(seen).length > 1, 'the count after a read');
    expect(unreadEvents(seen)).toHaveLength(2);
    expect(unreadEvents(seen)[1]).toBe(unreadEvents(seen)[0]! - 1);
  });

  it('reads one conversation by its pack, as a clicked notification opens it', async () => {
    opened = await openCore();
    const api = opened.core.api;
    const all = value(await api.messages.conversations({ limit: 100 }));
    const target = all.conversations.at(-1)!;
    const one = value(await api.messages.conversations({ packId: target.packId }));
    expect(one).toEqual({ total: 1, conversations: [target] });
    expect(value(await api.messages.conversations({ packId: 999_999_999 }))).toEqual({ total: 0, conversations: [] });
  });

  it('sends the renderer what a clicked notification was about', async () => {
    opened = await openCore();
    const seen = record(opened);
    opened.core.reveal({ screen: 'conversation', packId: 2000000001 });
    opened.core.reveal({ screen: 'conflicts', cell: null });
    expect(seen.filter((e) => e.type === 'app.reveal')).toEqual([
      { type: 'app.reveal', target: { screen: 'conversation', packId: 2000000001 } },
      { type: 'app.reveal', target: { screen: 'conflicts', cell: null } },
    ]);
  });
});
