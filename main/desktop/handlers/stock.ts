import { randomUUID } from 'node:crypto';
import type { QueueResultView } from '../../../common/contract/contract.js';
import { remoteError } from '../../sync/client.js';
import { listedItemAnswer, parseAnswer } from '../../sync/remote-answers.js';
import { history as cellHistory, cellView } from '../../sync/read-model.js';
import { desktopErrors } from '../errors.js';
import { editRefusal, enrichOneCell, gridPage, invalidateGrid, locate, locateWithPage, rowsByIds } from '../grid.js';
import { importLookup } from '../import-lookup.js';
import type { Profile } from '../profile.js';
import type { HandlerContext } from './context.js';
import type { AreaHandlers } from './types.js';
import { exportXlsx } from '../grid-export.js';
import { deleteView, hiddenColumns, saveView, savedViews, scanStore, setHiddenColumns, setReorderPoint, setScanStore } from '../grid-prefs.js';
import { applyImport } from '../import.js';
import { readWorkbook } from '../xlsx.js';
import { transfer, undo, withReason } from '../stock-undo-transfer.js';
import { stockInsight, withCover } from '../stock-insight.js';
import type { StockReason } from '../../../common/stock-reasons.js';

const DEFAULT_GRID_LIMIT = 100;

type CellTarget = { userProductId: string; type: string; storeId?: string | undefined };
type StockContext = Pick<HandlerContext, 'current' | 'feed' | 'log'>;

/** The cell of a user product of the seller's (the service refuses another seller's). */
function ownedCell(p: Profile, input: CellTarget) {
  p.service.stock.ownedUserProduct(p.principal, input.userProductId);
  return {
    userProductId: input.userProductId,
    type: input.type as 'seller_warehouse',
    storeKey: input.type === 'seller_warehouse' ? (input.storeId ?? '') : '',
  };
}

/** The remote marketplace of a replica that is signed in and online, for calls made directly to it. */
function remoteOnline(p: Profile, what: string) {
  if (p.kind === 'local') throw desktopErrors.localOnly(what);
  if (!p.remote || !p.auth) throw desktopErrors.notSignedIn();
  if (p.engine.mode !== 'online') throw desktopErrors.offline(what);
  return p.remote;
}

/**
 * One stock edit. The local profile is the marketplace itself: the edit is the service's own
 * write (its rules, history row, version and jobs in one transaction). A replica queues it.
 */
async function edit(
  ctx: StockContext,
  p: Profile,
  target: CellTarget,
  change: { delta: number } | { quantity: number },
  ref: string | undefined,
  reason?: StockReason,
) {
  let result: QueueResultView;
  if (p.kind === 'local') {
    const done = await p.service.localEdits.edit(p.principal, target, change, withReason({ author: p.author, operator: p.operator, ref }, reason));
    result = { entryId: null, how: 'queued', shown: done.shown, historyId: done.historyId };
  } else {
    // The lock the cell shows refuses the edit here, with the marketplace's words, not after a round trip.
    const refusal = editRefusal(p.db, target.userProductId, target.type);
    if (refusal) throw refusal;
    const meta = withReason({ author: p.author, operator: p.operator, ...(ref ? { ref } : {}) }, reason);
    result =
      'delta' in change
        ? p.engine.queueAdjustment({ ...target, delta: change.delta, ...meta })
        : p.engine.queueCount({ ...target, quantity: change.quantity, ...meta });
  }
  ctx.feed.stockChanged([target.userProductId]);
  ctx.feed.scheduleStatus();
  return result;
}

/** `stock`: the grid, cells and their history, edits, conflicts, stores and new listings. */
export function stockHandlers(ctx: StockContext) {
  return {
    grid: async (q) => {
      const p = await ctx.current();
      const { limit, offset, cover, ...filters } = q ?? {};
      const page = gridPage(p.db, p.sellerId, { limit: limit ?? DEFAULT_GRID_LIMIT, offset: offset ?? 0, ...filters }, { authority: p.kind === 'local' });
      return cover ? withCover(p.db, p.sellerId, page, p.service.clock.now()) : page;
    },
    locate: async (q) => {
      const p = await ctx.current();
      const { page: size, near, cover, ...query } = q;
      // The row (or its page) in the same call and the same read: a scan's second round trip was most of its time to focus.
      const found =
        size === undefined ? locate(p.db, p.sellerId, query) : locateWithPage(p.db, p.sellerId, query, size, { authority: p.kind === 'local' }, near);
      // A scanned product's stock is read next by a first pull (issue 29).
      if (found.userProductId !== null) p.engine.touched(found.userProductId);
      if (!found.page || !cover) return found;
      return { ...found, page: { offset: found.page.offset, grid: withCover(p.db, p.sellerId, found.page.grid, p.service.clock.now()) } };
    },
    rows: async ({ ids }) => {
      const p = await ctx.current();
      return rowsByIds(p.db, p.sellerId, ids, { authority: p.kind === 'local' });
    },
    lookup: async ({ ids, columns }) => {
      const p = await ctx.current();
      return importLookup(p.db, p.sellerId, ids, columns, { authority: p.kind === 'local' });
    },
    cell: async (input) => {
      const p = await ctx.current();
      return enrichOneCell(p.db, cellView(p.db, ownedCell(p, input)), { authority: p.kind === 'local' });
    },
    history: async (input) => {
      const p = await ctx.current();
      return cellHistory(p.db, ownedCell(p, input), input.limit ?? 50, input.before);
    },
    insight: async (input) => {
      const p = await ctx.current();
      p.service.stock.ownedUserProduct(p.principal, input.userProductId);
      return stockInsight(p.db, p.sellerId, input, p.service.clock.now());
    },
    adjust: async ({ userProductId, type, storeId, delta, ref, reason }) =>
      edit(ctx, await ctx.current(), { userProductId, type, storeId }, { delta }, ref, reason),
    transfer: async (input) => transfer(ctx, await ctx.current(), input),
    undo: async () => undo(ctx, await ctx.current()),
    count: async ({ userProductId, type, storeId, quantity, ref }) => edit(ctx, await ctx.current(), { userProductId, type, storeId }, { quantity }, ref),
    importApply: async (input) => {
      const p = await ctx.current();
      const result = await applyImport(p, input);
      ctx.feed.stockChanged([...new Set(input.changes.map((c) => c.userProductId))]);
      ctx.feed.scheduleStatus();
      return result;
    },
    readWorkbook: async ({ bytes }) => ({ rows: await readWorkbook(bytes) }),
    exportXlsx: async (filters) => {
      const p = await ctx.current();
      return exportXlsx(p.db, p.sellerId, filters, { authority: p.kind === 'local' }, new Date().toISOString().slice(0, 10));
    },
    setReorderPoint: async ({ point, ...cell }) => {
      const p = await ctx.current();
      const r = setReorderPoint(p.db, ownedCell(p, cell), point);
      ctx.feed.stockChanged([cell.userProductId]);
      return r;
    },
    views: async () => savedViews((await ctx.current()).db),
    saveView: async (input) => saveView((await ctx.current()).db, input, Date.now()),
    deleteView: async ({ id }) => deleteView((await ctx.current()).db, id),
    scanStore: async () => scanStore((await ctx.current()).db),
    setScanStore: async ({ store }) => setScanStore((await ctx.current()).db, store),
    hiddenColumns: async () => hiddenColumns((await ctx.current()).db),
    setHiddenColumns: async ({ hidden }) => setHiddenColumns((await ctx.current()).db, hidden),
    resolveConflict: async ({ entryId, resolution }) => {
      const p = await ctx.current();
      const up = p.outbox.productOf(entryId);
      const r = p.engine.resolveConflict(entryId, resolution, { author: p.author, operator: p.operator });
      ctx.feed.stockChanged(up ? [up] : null);
      ctx.feed.scheduleStatus();
      return r;
    },
    stores: async () => {
      const p = await ctx.current();
      const all = [];
      for (let offset = 0; ;) {
        const page = p.service.stores.search(p.principal, String(p.sellerId), { limit: '50', offset: String(offset) });
        all.push(...page.results);
        offset += page.results.length;
        if (page.results.length === 0 || offset >= page.paging.total) break;
      }
      return all;
    },
    createListing: async (body) => {
      const p = await ctx.current();
      if (p.kind === 'local') {
        const item = await p.service.items.createMultiwarehouse(p.principal, body);
        invalidateGrid(p.db);
        ctx.feed.stockChanged(null);
        return item;
      }
      const remote = remoteOnline(p, 'Creating a listing');
      const res = await remote.request('POST', '/items/multiwarehouse', { json: body, idempotencyKey: randomUUID() });
      if (res.status !== 201) throw remoteError(res);
      const item = parseAnswer(listedItemAnswer, res.body, 'POST /items/multiwarehouse');
      // The new user product reaches the grid with the next pull.
      p.engine.pullNow().catch((e: unknown) => ctx.log(e));
      return item;
    },
  } satisfies AreaHandlers<'stock'>;
}
