import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StockroomApi } from '../../common/contract/api.js';
import type { StockroomEvent } from '../../common/contract/contract.js';
import { demo } from '../support/fixtures.js';
import { waitFor } from '../support/wait.js';
import { failure, value } from './helpers.js';

/** What a transport gives the suite: the API as the renderer sees it, and how to tear it down. */
export interface TransportUnderTest {
  api: StockroomApi;
  close(): Promise<void>;
}

const palermo = { userProductId: demo.userProducts.termo, type: 'seller_warehouse' as const, storeId: demo.stores.palermo };

/** No stack, no file path, no Node internals in anything a renderer receives. */
function expectNoStack(x: unknown): void {
  const text = JSON.stringify(x);
  expect(text).not.toMatch(/"stack"|\n\s+at |\.ts:\d+|node:internal/);
}

/**
 * The contract of `window.stockroom`, run unchanged against every transport (IPC handlers, the
 * browser bridge over HTTP): the same calls give the same answers and the same error values.
 */
export function contractSuite(name: string, open: () => Promise<TransportUnderTest>): void {
  describe(`window.stockroom contract over ${name}`, () => {
    let t: TransportUnderTest;
    let api: StockroomApi;
    beforeAll(async () => {
      t = await open();
      api = t.api;
    });
    afterAll(() => t.close());

    it('starts local-only on the demo data, as the demo seller', async () => {
      const settings = value(await api.settings.get());
      expect(settings).toMatchObject({ mode: 'local-only', baseUrl: null, hasAccessToken: false });
      const session = value(await api.session.status());
      expect(session).toMatchObject({ mode: 'local-only', signedIn: true, via: 'demo', user: { id: demo.seller.id, nickname: 'DEPOSITO_NORTE' } });
      const status = value(await api.sync.status());
      expect(status).toMatchObject({ mode: 'local-only', online: false, pending: 0, conflicts: 0 });
    });

    it('pages the stock grid with the seller stores as columns, and finds a product by item id', async () => {
      const grid = value(await api.stock.grid({ limit: 2 }));
      expect(grid.total).toBe(5);
      expect(grid.rows.map((r) => r.userProductId)).toEqual([demo.userProducts.termo, demo.userProducts.mate]);
      // The showroom is not a stock location: no column (SPEC 2.2 tags).
      expect(grid.columns.map((c) => c.key)).toEqual([demo.stores.palermo, demo.stores.avellaneda, 'selling_address', 'platform_facility']);
      expect(grid.rows[0]!.cells[demo.stores.palermo]).toMatchObject({ shown: 12, state: 'synced', editable: true });
      const scan = value(await api.stock.grid({ search: demo.items.canasta }));
      expect(scan.rows.map((r) => r.userProductId)).toEqual([demo.userProducts.canasta]);
      expect(scan.total).toBe(1);
    });

    it('applies an adjustment and a count, and records both in the cell history', async () => {
      const before = value(await api.stock.cell(palermo)).shown;
      const adjusted = value(await api.stock.adjust({ ...palermo, delta: 5, ref: 'received' }));
      expect(adjusted.shown).toBe(before + 5);
      const counted = value(await api.stock.count({ ...palermo, quantity: 40 }));
      expect(counted.shown).toBe(40);
      expect(value(await api.stock.cell(palermo))).toMatchObject({ shown: 40, state: 'synced' });
      const history = value(await api.stock.history({ ...palermo, limit: 2 }));
      expect(history.map((h) => [h.kind, h.from_quantity, h.to_quantity])).toEqual([
        ['count', before + 5, 40],
        ['adjustment', before, before + 5],
      ]);
      expect(history[1]!.ref).toBe('received');
    });

    it('answers a payload that does not match the schema with bad_request, and changes nothing', async () => {
      const before = value(await api.stock.cell(palermo)).shown;
      for (const bad of [
        { ...palermo, delta: 'five' },
        { ...palermo, delta: 1, extra: true },
        { ...palermo, userProductId: '../../etc', delta: 1 },
        null,
        'adjust',
      ]) {
        const error = failure(await api.stock.adjust(bad as never));
        expect(error.code).toBe('bad_request');
        expect(error.status).toBe(400);
        expect(typeof error.message).toBe('string');
        expectNoStack(error);
      }
      expect(value(await api.stock.cell(palermo)).shown).toBe(before);
    });

    it("answers the service's errors as data with the spec's code and message", async () => {
      const locked = failure(await api.stock.count({ userProductId: demo.userProducts.termo, type: 'platform_facility', quantity: 1 }));
      expect(locked).toMatchObject({
        code: 'bad_request',
        status: 400,
        message: 'Stock of type platform_facility is managed by the platform and cannot be edited',
      });
      const foreign = failure(
        await api.stock.cell({ userProductId: demo.userProducts.otherSellers, type: 'seller_warehouse', storeId: demo.stores.otherSellers }),
      );
      expect(foreign).toMatchObject({ code: 'forbidden', status: 403 });
      const rule = failure(await api.stock.count({ userProductId: demo.userProducts.bombilla, type: 'selling_address', quantity: 3 }));
      expect(rule.message).toBe('You cannot modify selling address stock in items without inventory id.');
      const range = failure(await api.stock.adjust({ ...palermo, delta: -1_000_000 }));
      expect(range.code).toBe('bad_request');
      for (const e of [locked, foreign, rule, range]) expectNoStack(e);
    });

    it('lists conversations with unread and to-reply filters, and reading a thread marks it read', async () => {
      const all = value(await api.messages.conversations());
      expect(all.total).toBeGreaterThan(0);
      const unread = value(await api.messages.conversations({ filter: 'unread' }));
      expect(unread.conversations.length).toBeGreaterThan(0);
      const target = unread.conversations[0]!;
      expect(target.unread).toBeGreaterThan(0);
      const thread = value(await api.messages.thread({ packId: target.packId }));
      expect(thread.packId).toBe(target.packId);
      expect(thread.messages.length).toBeGreaterThan(0);
      expect(thread.seller_max_message_length).toBe(350);
      const after = value(await api.messages.conversations({ filter: 'unread' }));
      expect(after.conversations.map((c) => c.packId)).not.toContain(target.packId);
    });

    it('sends a message with a file and gives the file back byte for byte', async () => {
      const open = value(await api.messages.conversations()).conversations.find((c) => c.blocked === null)!;
      const bytes = new Uint8Array(70_000).map((_, i) => (i * 7 + 3) % 256);
      bytes.set(new TextEncoder().encode('%PDF-1.4\n'), 0);
      const staged = value(await api.messages.stageFile({ name: 'factura.pdf', type: 'application/pdf', bytes }));
      expect(staged).toMatchObject({ name: 'factura.pdf', size: bytes.length });
      const sent = value(await api.messages.send({ packId: open.packId, text: 'Te envío la factura.', fileIds: [staged.fileId] }));
      if (sent.status !== 'sent') throw new Error('local-only sends at once');
      const attachment = sent.message.message_attachments?.[0];
      expect(attachment).toMatchObject({ original_filename: 'factura.pdf', size: bytes.length });
      const back = value(await api.messages.readAttachment({ attachmentId: attachment!.filename }));
      expect(back.name).toBe('factura.pdf');
      expect(back.bytes).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(back.bytes).equals(Buffer.from(bytes))).toBe(true);
      // A staged file is used once.
      expect(failure(await api.messages.send({ packId: open.packId, text: 'otra vez', fileIds: [staged.fileId] })).code).toBe('file_not_found');
    });

    it('refuses a text the marketplace would refuse, with its message', async () => {
      const open = value(await api.messages.conversations()).conversations.find((c) => c.blocked === null)!;
      const error = failure(await api.messages.send({ packId: open.packId, text: 'x'.repeat(351) }));
      expect(error).toMatchObject({ code: 'bad_request', message: 'The message content is too long, max characters allowed are 350' });
      const blocked = value(await api.messages.conversations()).conversations.find((c) => c.blocked === 'blocked_by_cancelled_order');
      if (blocked) expect(failure(await api.messages.send({ packId: blocked.packId, text: 'Hola' })).code).toBe('conversation_blocked');
    });

    it('reads brands of a user, and says when a user has none', async () => {
      expect(value(await api.brands.list())).toEqual({ userId: demo.seller.id, list: null });
      const brands = value(await api.brands.list({ userId: demo.brand.id }));
      expect(brands.list?.brands.map((b) => b.official_store_id)).toEqual([4021, 4022]);
      const detail = value(await api.brands.detail({ userId: demo.brand.id, officialStoreId: 4021 }));
      expect(detail).toMatchObject({ official_store_id: 4021, users: [{ cust_id: demo.brand.id }] });
      expect(failure(await api.brands.detail({ userId: demo.brand.id, officialStoreId: 9999 })).code).toBe('B00001');
    });

    it('lists the stores and creates a multi-warehouse listing that shows in the grid', async () => {
      const stores = value(await api.stock.stores());
      expect(stores.map((s) => s.id)).toEqual([demo.stores.palermo, demo.stores.avellaneda, demo.stores.showroom]);
      const item = value(
        await api.stock.createListing({
          title: 'Termo 2L',
          category_id: 'MLA1902',
          price: 25_000,
          currency_id: 'ARS',
          listing_type_id: 'gold_special',
          stock_locations: [{ store_id: demo.stores.palermo, quantity: 7 }],
        }),
      );
      const found = value(await api.stock.grid({ search: item.id }));
      expect(found.rows[0]?.cells[demo.stores.palermo]?.shown).toBe(7);
    });

    it('answers what needs a marketplace with local_only, and what needs the desktop with unsupported', async () => {
      expect(failure(await api.sync.pullNow()).code).toBe('local_only');
      expect(failure(await api.messages.pickFiles()).code).toBe('unsupported');
      expect(failure(await api.app.openExternal({ url: 'https://evil.example.net/' })).code).toBe('forbidden_url');
      expect(failure(await api.app.openExternal({ url: 'javascript:alert(1)' })).code).toBe('forbidden_url');
    });

    /**
     * Edits until `delivered()` holds, without guessing how long an event stream takes to connect
     * or how long an event takes to come. The status comes when the stream connects (the browser
     * bridge's server-sent events) or after the first edit (IPC, connected at once): once `events`
     * holds one, every later edit is followed by a stock.changed that covers it, its own or a
     * batch it joined (a batch that also covers unknown changes says `null`). So: edit, wait for
     * the next stock.changed, and again until one names the product.
     */
    async function editUntilDelivered<T>(events: StockroomEvent[], edit: () => Promise<void>, delivered: () => T | undefined, what: string): Promise<T> {
      const changes = () => events.filter((e) => e.type === 'stock.changed').length;
      await edit();
      await waitFor(() => events.some((e) => e.type === 'sync.status'), 'the event stream to connect (its first status)');
      for (let i = 1; i <= 20; i++) {
        const found = delivered();
        if (found) return found;
        const before = changes();
        await edit();
        await waitFor(() => changes() > before, `a stock.changed after edit ${i} (${what})`);
      }
      return waitFor(delivered, what, 0);
    }

    it('delivers events to subscribers, and stops after unsubscribe', async () => {
      const seen: StockroomEvent[] = [];
      const off = api.subscribe('stock.changed', (e) => seen.push(e));
      const offStatus = api.subscribe('sync.status', (e) => seen.push(e));
      const termoChanged = () => seen.find((e) => e.type === 'stock.changed' && e.userProductIds?.includes(demo.userProducts.termo));
      const adjustTermo = async () => void value(await api.stock.adjust({ ...palermo, delta: 1 }));
      await editUntilDelivered(seen, adjustTermo, termoChanged, 'stock.changed for the termo');
      expect(termoChanged()).toEqual({ type: 'stock.changed', userProductIds: [demo.userProducts.termo] });
      expect(seen.some((e) => e.type === 'sync.status' && e.status.mode === 'local-only')).toBe(true);
      off();
      offStatus();
      const count = seen.length;
      // Proof that events still flow after the unsubscribe: a new subscriber receives the change of
      // another product, edited after it. Events arrive in order, so by then every event of the
      // edits above has been delivered too, and none of them reached the listeners removed above.
      const later: StockroomEvent[] = [];
      const offLater = api.subscribe('stock.changed', (e) => later.push(e));
      const offLaterStatus = api.subscribe('sync.status', (e) => later.push(e));
      const mate = { userProductId: demo.userProducts.mate, type: 'selling_address' as const };
      const mateChanged = () => later.find((e) => e.type === 'stock.changed' && e.userProductIds?.includes(demo.userProducts.mate));
      await editUntilDelivered(
        later,
        async () => void value(await api.stock.adjust({ ...mate, delta: 1 })),
        mateChanged,
        'stock.changed for the mate, to the new subscriber',
      );
      expect(seen.length).toBe(count);
      offLater();
      offLaterStatus();
    });
  });
}
