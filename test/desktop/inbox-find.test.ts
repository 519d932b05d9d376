import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DesktopCore } from '../../main/desktop/core.js';
import { openCore, value } from './helpers.js';

// The demo data: five conversations of one buyer (Martín Gómez), two of them blocked.
const TERMO = 2000003000001; // a pack whose order is 2000009000001
const YERBA = 2000009000002; // "Llegó perfecto, gracias." unread
const CANASTA = 2000009000005;
const BOMBILLA = 2000009000004; // blocked: fulfillment not delivered
const CALABAZA = 2000009000003; // blocked: cancelled order

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

async function core(dataDir?: string) {
  const o = await openCore(dataDir ? { dataDir } : {});
  return o;
}

const packs = async (c: DesktopCore, q: Parameters<DesktopCore['api']['messages']['conversations']>[0]) =>
  value(await c.api.messages.conversations(q))
    .conversations.map((x) => x.packId)
    .sort();

describe('finding conversations (issue 15 §2)', () => {
  it('searches by message text, buyer, product title and order id, and combines a search with a filter', async () => {
    const o = await core();
    closers.push(o.close);
    const c = o.core;
    expect(await packs(c, { search: 'perfecto' })).toEqual([YERBA]);
    expect(await packs(c, { search: 'llego' })).toEqual([YERBA]);
    expect(await packs(c, { search: 'Gómez' })).toEqual([TERMO, CALABAZA, BOMBILLA, CANASTA, YERBA].sort());
    expect(await packs(c, { search: 'comprador_test' })).toHaveLength(5);
    expect(await packs(c, { search: 'calabaza' })).toEqual([CALABAZA]);
    expect(await packs(c, { search: String(CANASTA) })).toEqual([CANASTA]);
    // An order id finds its pack.
    expect(await packs(c, { search: '2000009000001' })).toEqual([TERMO]);
    expect(await packs(c, { search: 'nothing-like-this' })).toEqual([]);
    expect(await packs(c, { search: 'Gómez', filter: 'blocked' })).toEqual([CALABAZA, BOMBILLA].sort());
    const one = value(await c.api.messages.conversations({ search: 'perfecto', limit: 1 }));
    expect(one.total).toBe(1);
  });

  it('filters: unread, to reply, blocked and with attachments', async () => {
    const o = await core();
    closers.push(o.close);
    const c = o.core;
    const all = value(await c.api.messages.conversations({ limit: 100 })).conversations;
    expect(all).toHaveLength(5);
    const unread = all.filter((x) => x.unread > 0).map((x) => x.packId);
    const toReply = all.filter((x) => x.needsReply).map((x) => x.packId);
    expect(unread).toContain(YERBA);
    expect(toReply.length).toBeLessThan(5);
    expect(await packs(c, { filter: 'unread' })).toEqual(unread.sort());
    expect(await packs(c, { filter: 'to_reply' })).toEqual(toReply.sort());
    expect(await packs(c, { filter: 'blocked' })).toEqual([CALABAZA, BOMBILLA].sort());
    expect(await packs(c, { filter: 'with_attachments' })).toEqual([]);
    const staged = value(await c.api.messages.stageFile({ name: 'guia.pdf', type: 'application/pdf', bytes: new Uint8Array([37, 80, 68, 70]) }));
    value(await c.api.messages.send({ packId: CANASTA, text: 'Te adjunto la guía', fileIds: [staged.fileId] }));
    expect(await packs(c, { filter: 'with_attachments' })).toEqual([CANASTA]);
    // The message just sent is found by its words at once (the index follows the insert).
    expect(await packs(c, { search: 'adjunto guia' })).toEqual([CANASTA]);
  });
});

describe('the list read again after a change', () => {
  it('a message sent moves its conversation first and is found at once, even by a search asked before; a read conversation is no longer unread', async () => {
    const o = await core();
    closers.push(o.close);
    const c = o.core;
    const before = value(await c.api.messages.conversations({ limit: 100 })).conversations;
    expect(before.find((x) => x.packId === YERBA)!.unread).toBeGreaterThan(0);
    // The same list and search asked twice with nothing written in between answer the same.
    expect(value(await c.api.messages.conversations({ limit: 100 })).conversations).toEqual(before);
    expect(await packs(c, { search: 'zarzaparrilla' })).toEqual([]);
    expect(await packs(c, { search: 'zarzaparrilla' })).toEqual([]);

    value(await c.api.messages.send({ packId: CANASTA, text: 'Te mando la zarzaparrilla mañana' }));
    expect(await packs(c, { search: 'zarzaparrilla' })).toEqual([CANASTA]);
    const after = value(await c.api.messages.conversations({ limit: 100 })).conversations;
    expect(after[0]!.packId).toBe(CANASTA);
    expect(after[0]!.lastMessage?.text).toBe('Te mando la zarzaparrilla mañana');

    value(await c.api.messages.thread({ packId: YERBA }));
    const read = value(await c.api.messages.conversations({ limit: 100 })).conversations;
    expect(read.find((x) => x.packId === YERBA)!.unread).toBe(0);
    expect(await packs(c, { filter: 'unread' })).not.toContain(YERBA);
  });
});

describe('drafts (issue 15 §2)', () => {
  it('keep each conversation’s text across a close and reopen of the core on the same data folder; an empty text forgets it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stockroom-drafts-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const first = await core(dir);
    expect(value(await first.core.api.messages.drafts())).toEqual([]);
    expect(value(await first.core.api.messages.saveDraft({ packId: YERBA, text: 'Hola Martín, ' }))).toEqual({ packId: YERBA, saved: true });
    value(await first.core.api.messages.saveDraft({ packId: CANASTA, text: 'primero' }));
    value(await first.core.api.messages.saveDraft({ packId: CANASTA, text: 'segundo' }));
    value(await first.core.api.messages.saveDraft({ packId: BOMBILLA, text: 'x' }));
    expect(value(await first.core.api.messages.saveDraft({ packId: BOMBILLA, text: '  ' }))).toEqual({ packId: BOMBILLA, saved: false });
    await first.core.close();

    const second = await core(dir);
    closers.push(() => second.core.close());
    const drafts = value(await second.core.api.messages.drafts());
    expect(drafts.map((d) => [d.packId, d.text])).toEqual([
      [YERBA, 'Hola Martín, '],
      [CANASTA, 'segundo'],
    ]);
  });
});
