/**
 * The one definition of `window.stockroom`: every channel (area + function), the zod schema of its
 * one payload, and the type of its answer. The shapes themselves live in common/views.ts (main and
 * renderer share them). No Node and no Electron here: the main process validates with these
 * schemas (main/desktop/dispatch.ts), the preload and the browser bridge build the renderer's API
 * from the same list (common/contract/api.ts), and the renderer compiles against the types
 * (renderer/tsconfig.json includes this file and common/, never main/).
 * Over 400 lines on purpose: the catalogue of every call, read by area; split, the two doors
 * would have to join the parts again in the same order.
 */
import { z } from 'zod';
import { CHANNEL_PREFIX } from './channels.js';
import { remoteAddressProblem } from '../remote-address.js';
import { SITE_IDS } from '../marketplace.js';
import { ENTRY_STATES, OUTBOX_KINDS } from '../outbox.js';
import { PICKABLE_REASONS } from '../stock-reasons.js';
import { LOCATION_TYPES, SORT_DIRECTIONS, SORT_KEYS, STATE_FILTERS } from '../stock-vocabulary.js';
import type {
  AppInfoView,
  AttachmentBytesView,
  BrandAccountView,
  BrandDetailView,
  BrandListView,
  CellView,
  ConversationsView,
  FileBytesView,
  ImportResultView,
  SavedGridViewView,
  GridView,
  HistoryEntryView,
  ItemView,
  LocateView,
  OutboxEntryView,
  PullReportView,
  QueueResultView,
  TransferResultView,
  UndoResultView,
  QuickReplyView,
  DraftView,
  RowsView,
  LookupView,
  SavedFileView,
  SendResultView,
  SessionView,
  SettingsView,
  StagedFileView,
  StockInsightView,
  StoreView,
  SyncStatusView,
  ThreadView,
  UpdateView,
} from '../views.js';
import type { CountLineView, CountOutsideView, CountReviewView, CountScanView, CountSessionPageView, CountSessionView } from '../count-views.js';
import type { OperatorsView } from '../operator-views.js';
import type { TallyAddView, TallyApplyView, TallyUndoView, TallyView } from '../tally-views.js';

export { CHANNELS, CHANNEL_NAMES, CHANNEL_PREFIX, ERROR_CODES, EVENT_CHANNEL, channelName } from './channels.js';

// The shapes live in common/views.ts (main and renderer share them); the contract names them.
export type * from '../views.js';
export type * from '../count-views.js';
export type * from '../operator-views.js';
export type * from '../tally-views.js';

// ---------------------------------------------------------------- payload schemas

/** A phantom marker carrying the answer type of a channel (no runtime value). */
declare const answerType: unique symbol;
export interface Answer<T> {
  readonly [answerType]?: T;
}
const answer = <T>(): Answer<T> => ({});

const op = <S extends z.ZodType, T>(input: S, out: Answer<T>) => ({ input, out });

/** No payload: `undefined` or `{}`. */
const none = z.strictObject({}).optional();
const userProductId = z.string().regex(/^[A-Z]{3}U?[0-9]{1,20}$/, 'expected a user product id such as MLAU100000001');
const storeId = z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'expected a store id');
const cellRef = {
  userProductId,
  type: z.enum(LOCATION_TYPES),
  storeId: storeId.optional(),
};
const stateFilter = z.enum(STATE_FILTERS);
/** The grid's order: a store's column (its id), or one of the fixed keys. */
const gridSort = z.strictObject({ key: z.union([storeId, z.enum(SORT_KEYS)]), dir: z.enum(SORT_DIRECTIONS) });
const entryId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** Grid filters: the products stocked in one store; the products with a seller-managed location at or under a quantity. */
const gridFilters = {
  store: storeId.optional(),
  lowStock: z.number().int().min(0).max(1_000_000).optional(),
  /** Only the products with a cell at or under its reorder point. */
  belowReorder: z.boolean().optional(),
  /** The order: a column key, `product` (the default, by id), `title` or `total`. */
  sort: gridSort.optional(),
};
/** A saved view's query (`stock.saveView`). */
const savedQuery = z.strictObject({
  search: z.string().max(200),
  filter: stateFilter,
  store: storeId.nullable(),
  lowStock: z.number().int().min(0).max(1_000_000).nullable(),
  belowReorder: z.boolean(),
  sort: gridSort.nullable(),
  /** Location columns hidden in the view (their keys; issue 27). */
  hidden: z.array(z.string().min(1).max(64)).max(200).optional(),
  /** The grid shows days of cover (issue 28). */
  cover: z.boolean().optional(),
});
/** Most changes one import applies in one transaction. */
export const MAX_IMPORT_CHANGES = 50_000;
const MAX_WORKBOOK_BYTES = 20 * 1024 * 1024;
const packId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const userId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const applicationId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** A marketplace's address: https, plain http only for one on this computer. */
const marketplaceAddress = z
  .url({ protocol: /^https?$/ })
  .max(500)
  .refine((u) => remoteAddressProblem(u) === null, {
    message: 'The marketplace address must use https (plain http only for a marketplace on this computer)',
  });
const paging = { limit: z.number().int().min(1).max(200).optional(), offset: z.number().int().min(0).max(1e9).optional() };
/** A caller's note kept in the cell history ("scan 12:01", a CSV row). */
const ref = z.string().max(200).optional();
const fileId = z.string().regex(/^[0-9a-f]{32}$/, 'expected a staged file id');
const attachmentId = z.string().min(1).max(200);
const MAX_FILE_BYTES = 25 * 1024 * 1024;
const countSessionId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const operatorId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** 4 to 8 digits (main/service/operators/operators.ts). */
const pin = z.string().regex(/^[0-9]{4,8}$/, 'expected a PIN of 4 to 8 digits');

export const contract = {
  app: {
    info: op(none, answer<AppInfoView>()),
    /** Opens an https link of the allow-list in the system browser (brand pages, help). */
    openExternal: op(z.strictObject({ url: z.string().max(2048) }), answer<{ opened: boolean }>()),
  },
  settings: {
    get: op(none, answer<SettingsView>()),
    update: op(
      z.strictObject({
        mode: z.enum(['local-only', 'online', 'offline']).optional(),
        baseUrl: z.union([marketplaceAddress, z.null()]).optional(),
        applicationId: z.union([applicationId, z.null()]).optional(),
        userId: z.union([userId, z.null()]).optional(),
        /** A pasted access token (null removes it). */
        accessToken: z
          .union([
            z
              .string()
              .min(8)
              .max(500)
              .regex(/^[\x21-\x7e]+$/, 'expected a token without spaces'),
            z.null(),
          ])
          .optional(),
        language: z.enum(['es', 'pt-BR', 'en']).optional(),
        theme: z.enum(['system', 'light', 'dark']).optional(),
        /** The welcome's choice (a first run ends with it). */
        start: z.enum(['demo', 'account']).optional(),
        /** The marketplace site (country) of the account being connected. */
        siteId: z.union([z.enum(SITE_IDS), z.null()]).optional(),
        /** False: "Don't keep me signed in on this computer" (credentials in memory only). */
        keepSignedIn: z.boolean().optional(),
      }),
      answer<SettingsView>(),
    ),
  },
  session: {
    status: op(none, answer<SessionView>()),
    /**
     * Signs in through the system browser (OAuth code + PKCE) on the marketplace given, else the
     * settings' base_url and application id. The given address, application and site become the
     * settings only once signed in: the open account stays open meanwhile, and a cancelled or failed
     * sign-in leaves it as it was (issue 27).
     */
    signIn: op(z.strictObject({ baseUrl: marketplaceAddress, applicationId, siteId: z.enum(SITE_IDS).optional() }).optional(), answer<SessionView>()),
    cancelSignIn: op(none, answer<SessionView>()),
    signOut: op(none, answer<SessionView>()),
  },
  stock: {
    grid: op(
      z
        .strictObject({
          ...paging,
          /** Title words, a user product id or an item id (a barcode scan). */
          search: z.string().max(200).optional(),
          filter: stateFilter.optional(),
          ...gridFilters,
          /** Each cell's newest edit with its reason too (the exports' `Last change` note). */
          changes: z.boolean().optional(),
          /** Each store cell's days of cover too (issue 28): one more query per page. */
          cover: z.boolean().optional(),
        })
        .optional(),
      answer<GridView>(),
    ),
    /** The row of a search or a barcode scan in the grid with the given filters (the scanner jumps there). */
    locate: op(
      z.strictObject({
        search: z.string().trim().min(1).max(200),
        filter: stateFilter.optional(),
        ...gridFilters,
        /** The size of the grid's pages: the answer carries the row's page too (one call instead of two). */
        page: z.number().int().min(1).max(500).optional(),
        /** With `page`: only the row and up to this many rows on each side of it within its page (a scan's smallest answer). */
        near: z.number().int().min(0).max(500).optional(),
        /** That page with its days of cover, as the grid asks for its pages. */
        cover: z.boolean().optional(),
      }),
      answer<LocateView>(),
    ),
    /** Grid rows by user product id or item id, in one call (the CSV import's preview). */
    rows: op(z.strictObject({ ids: z.array(z.string().min(1).max(64)).min(1).max(1000) }), answer<RowsView>()),
    /**
     * The CSV import's preview: products by user product id or item id, with only the cells of
     * `columns` (column keys; all when absent) and what the dry run needs of them.
     */
    lookup: op(
      z.strictObject({ ids: z.array(z.string().min(1).max(64)).min(1).max(1000), columns: z.array(z.string().min(1).max(64)).max(100).optional() }),
      answer<LookupView>(),
    ),
    cell: op(z.strictObject(cellRef), answer<CellView>()),
    /** Newest first; `before` (a history id) pages back past the first `limit` rows. */
    history: op(
      z.strictObject({ ...cellRef, limit: z.number().int().min(1).max(500).optional(), before: z.number().int().positive().optional() }),
      answer<HistoryEntryView[]>(),
    ),
    /**
     * A product's stock per store over the last `days` (at most `points` changes per store) and
     * its units sold per day over the last `salesDays`, days counted at `utcOffsetMinutes` east of
     * UTC (the screen's zone; default UTC).
     */
    insight: op(
      z.strictObject({
        userProductId,
        days: z.number().int().min(1).max(365).optional(),
        points: z.number().int().min(1).max(500).optional(),
        salesDays: z.number().int().min(1).max(90).optional(),
        utcOffsetMinutes: z.number().int().min(-840).max(840).optional(),
      }),
      answer<StockInsightView>(),
    ),
    /** "Received 12", "2 damaged": a delta. */
    /** `reason`: why (default 'correction'); a count's is 'count', a transfer's 'transfer'. */
    adjust: op(z.strictObject({ ...cellRef, delta: z.number().int(), ref, reason: z.enum(PICKABLE_REASONS).optional() }), answer<QueueResultView>()),
    /** N units from one store of a product to another, as one edit (one PUT carrying both stores). */
    transfer: op(
      z.strictObject({ userProductId, fromStoreId: storeId, toStoreId: storeId, units: z.number().int().min(1).max(1_000_000), ref }),
      answer<TransferResultView>(),
    ),
    /** Takes back the person's last edit: withdrawn while only queued, else an inverse edit (reason 'correction'). */
    undo: op(none, answer<UndoResultView>()),
    /** "There are 40 on the shelf": an absolute count. */
    count: op(z.strictObject({ ...cellRef, quantity: z.number().int(), ref }), answer<QueueResultView>()),
    /**
     * A file's changes applied together: one transaction (all or none; a refusal names its line).
     * `line` is the file's line, for the message and the history's ref.
     */
    importApply: op(
      z.strictObject({
        name: z.string().min(1).max(150),
        /** SHA-256 (hex) of the file's bytes; with the changes' own digest, how a file applied before is known. */
        fileDigest: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .optional(),
        /** The person confirmed applying a file that was applied before (refused with `imported_before` otherwise). */
        again: z.boolean().optional(),
        changes: z
          .array(
            z.discriminatedUnion('kind', [
              z.strictObject({ ...cellRef, line: z.number().int().min(1).max(1e7), kind: z.literal('count'), quantity: z.number().int() }),
              z.strictObject({ ...cellRef, line: z.number().int().min(1).max(1e7), kind: z.literal('adjust'), delta: z.number().int() }),
            ]),
          )
          .min(1)
          .max(MAX_IMPORT_CHANGES),
      }),
      answer<ImportResultView>(),
    ),
    /** The cells of a workbook's first sheet as text (an .xlsx import; parsed in the main process). */
    readWorkbook: op(
      z.strictObject({
        bytes: z
          .instanceof(Uint8Array)
          .refine((b) => b.byteLength > 0, 'The file is empty')
          .refine((b) => b.byteLength <= MAX_WORKBOOK_BYTES, 'The file is bigger than 20 MB'),
      }),
      answer<{ rows: string[][] }>(),
    ),
    /** The grid with these filters as an .xlsx workbook in the bulk editor's layout (item id, SKU, title, a column per store). */
    exportXlsx: op(z.strictObject({ search: z.string().max(200).optional(), filter: stateFilter.optional(), ...gridFilters }), answer<FileBytesView>()),
    /** Sets (or with null removes) the reorder point of a cell: at or under it the cell is low. */
    setReorderPoint: op(z.strictObject({ ...cellRef, point: z.number().int().min(0).max(1_000_000).nullable() }), answer<{ point: number | null }>()),
    views: op(none, answer<SavedGridViewView[]>()),
    /** Saves the grid's view under a name (the same name replaces it). */
    saveView: op(z.strictObject({ name: z.string().trim().min(1).max(80), query: savedQuery }), answer<SavedGridViewView[]>()),
    deleteView: op(z.strictObject({ id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }), answer<SavedGridViewView[]>()),
    /** The store scans go to on this workstation (a store column's key), kept across restarts; null when never chosen. */
    scanStore: op(none, answer<{ store: string | null }>()),
    setScanStore: op(z.strictObject({ store: z.string().min(1).max(64) }), answer<{ store: string }>()),
    /** The location columns hidden in the grid on this workstation (their keys), kept across reloads and restarts. */
    hiddenColumns: op(none, answer<{ hidden: string[] }>()),
    setHiddenColumns: op(z.strictObject({ hidden: z.array(z.string().min(1).max(64)).max(200) }), answer<{ hidden: string[] }>()),
    resolveConflict: op(
      z.strictObject({
        entryId,
        resolution: z.discriminatedUnion('action', [
          z.strictObject({ action: z.literal('keep_mine') }),
          z.strictObject({ action: z.literal('take_theirs') }),
          z.strictObject({ action: z.literal('new_count'), quantity: z.number().int() }),
        ]),
      }),
      answer<QueueResultView>(),
    ),
    stores: op(none, answer<StoreView[]>()),
    /** A multi-warehouse listing (SPEC 4.3): the item fields with `stock_locations`. */
    createListing: op(
      z.looseObject({
        title: z.string().min(1).max(500),
        category_id: z.string().min(1).max(50),
        price: z.number().positive(),
        currency_id: z.string().min(1).max(10),
        listing_type_id: z.string().min(1).max(50),
        channels: z.array(z.string().max(50)).max(10).optional(),
        stock_locations: z
          .array(z.strictObject({ store_id: storeId, network_node_id: z.string().max(64).optional(), quantity: z.number().int().min(0) }))
          .min(1)
          .max(100),
      }),
      answer<ItemView>(),
    ),
  },
  outbox: {
    list: op(
      z.strictObject({ kind: z.enum(OUTBOX_KINDS).optional(), state: z.enum(ENTRY_STATES).exclude(['done']).optional(), ...paging }).optional(),
      answer<{ total: number; entries: OutboxEntryView[] }>(),
    ),
    retry: op(z.strictObject({ entryId }), answer<{ entryId: number }>()),
    /** `checking`: its outcome was unknown, so the app learns it first (withdrawn if it never applied). */
    discard: op(z.strictObject({ entryId }), answer<{ entryId: number; how: 'discarded' | 'checking' }>()),
  },
  messages: {
    /** `packId` reads that one conversation (a notification opens it). */
    conversations: op(
      z
        .strictObject({
          filter: z.enum(['all', 'unread', 'to_reply', 'blocked', 'with_attachments', 'failed']).optional(),
          /** Finds conversations by buyer, product title, order id or message text (issue 15 §2). */
          search: z.string().max(200).optional(),
          packId: packId.optional(),
          ...paging,
        })
        .optional(),
      answer<ConversationsView>(),
    ),
    thread: op(z.strictObject({ packId, ...paging, markAsRead: z.boolean().optional() }), answer<ThreadView>()),
    send: op(z.strictObject({ packId, text: z.string().max(10_000), fileIds: z.array(fileId).max(25).optional() }), answer<SendResultView>()),
    /** Keeps a file (drag and drop, a file input) for a message about to be sent. */
    stageFile: op(
      z.strictObject({
        name: z.string().min(1).max(255),
        type: z.string().max(255).optional(),
        bytes: z
          .instanceof(Uint8Array)
          .refine((b) => b.byteLength > 0, 'File attached is empty')
          .refine((b) => b.byteLength <= MAX_FILE_BYTES, 'File attachment is bigger than 25 Mb.'),
      }),
      answer<StagedFileView>(),
    ),
    /** Files chosen in the main process's open dialog (desktop only). */
    pickFiles: op(none, answer<StagedFileView[]>()),
    discardFile: op(z.strictObject({ fileId }), answer<{ fileId: string }>()),
    readAttachment: op(z.strictObject({ attachmentId }), answer<AttachmentBytesView>()),
    /** Saves an attachment where the person chooses in the main process's save dialog (desktop only). */
    saveAttachment: op(z.strictObject({ attachmentId }), answer<SavedFileView>()),
    /** The seller's quick replies, in the order they were saved. */
    quickReplies: op(none, answer<QuickReplyView[]>()),
    /** What the seller was writing in each conversation, kept across restarts, with the files attached to it (issue 27). */
    drafts: op(none, answer<DraftView[]>()),
    /** Keeps (or, with an empty text and no files, forgets) a conversation's draft; the composer calls it debounced. */
    saveDraft: op(
      z.strictObject({ packId, text: z.string().max(10_000), fileIds: z.array(fileId).max(25).optional() }),
      answer<{ packId: number; saved: boolean }>(),
    ),
    /** Replaces the quick replies (add, edit, remove and reorder are one call). */
    saveQuickReplies: op(
      z.strictObject({
        replies: z
          .array(
            z.strictObject({
              id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a quick reply id'),
              title: z.string().trim().min(1).max(80),
              text: z.string().trim().min(1).max(3500),
            }),
          )
          .max(200),
      }),
      answer<QuickReplyView[]>(),
    ),
  },
  brands: {
    list: op(z.strictObject({ userId: userId.optional() }).optional(), answer<BrandListView>()),
    detail: op(
      z.strictObject({ officialStoreId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER), userId: userId.optional() }),
      answer<BrandDetailView>(),
    ),
    /** Accounts to pick (the seller, linked and brand accounts), and the names of `include`'s users. */
    accounts: op(z.strictObject({ include: z.array(userId).max(50).optional() }).optional(), answer<BrandAccountView[]>()),
  },
  sync: {
    status: op(none, answer<SyncStatusView>()),
    /**
     * A pull on demand. `stock: 'background'` answers once the pull's steps are done while a first
     * pull's stock reads go on behind it (the welcome opens the grid at once; issue 29); by default
     * the answer waits for those reads too.
     */
    pullNow: op(z.strictObject({ stock: z.enum(['wait', 'background']).optional() }).optional(), answer<PullReportView>()),
    /** The user products on screen: a first pull reads their stock first (issue 29). */
    visible: op(z.strictObject({ ids: z.array(z.string().min(1).max(64)).max(500) }), answer<null>()),
  },
  /** The app's own updates (events: `update.state`). */
  updates: {
    status: op(none, answer<UpdateView>()),
    /** Asks the feed now (a found update downloads in the background). */
    check: op(none, answer<UpdateView>()),
    /** The person agrees to restart: installs the downloaded update once the outbox has sent what it is sending. */
    install: op(none, answer<UpdateView>()),
  },
  /** Count sessions of a store (cycle counts, main/desktop/count-sessions.ts). */
  counts: {
    /** The seller's sessions, open ones first. */
    list: op(none, answer<CountSessionView[]>()),
    /** A new session: the store's products (those the filters keep), optionally blind. */
    start: op(
      z.strictObject({
        storeId,
        blind: z.boolean().optional(),
        search: z.string().max(200).optional(),
        lowStock: z.number().int().min(0).max(1_000_000).optional(),
      }),
      answer<CountSessionView>(),
    ),
    get: op(z.strictObject({ sessionId: countSessionId, ...paging }), answer<CountSessionPageView>()),
    /**
     * A scanned or typed code counts `quantity` more (one by default) of its product. A product
     * the session does not list is only counted with `addOutside` (the person chose to add it).
     */
    scan: op(
      z.strictObject({
        sessionId: countSessionId,
        code: z.string().trim().min(1).max(200),
        quantity: z.number().int().min(1).max(1_000_000).optional(),
        addOutside: z.boolean().optional(),
      }),
      answer<CountScanView | CountOutsideView>(),
    ),
    /** A line's counted quantity typed by hand (null: not counted). */
    set: op(z.strictObject({ sessionId: countSessionId, userProductId, counted: z.number().int().min(0).max(1_000_000).nullable() }), answer<CountLineView>()),
    /** Counted, expected and difference of every counted line, before anything is applied. */
    review: op(z.strictObject({ sessionId: countSessionId }), answer<CountReviewView>()),
    /** Every difference as a count at its base, in one transaction; the session is then applied. */
    apply: op(z.strictObject({ sessionId: countSessionId }), answer<CountReviewView>()),
    cancel: op(z.strictObject({ sessionId: countSessionId }), answer<CountSessionView>()),
  },
  /**
   * Scan to count's tally of a store (main/desktop/scan-tally.ts): kept in the database per scan,
   * so a reload or a restart before Apply loses nothing; Apply writes one adjustment per product.
   */
  tally: {
    list: op(z.strictObject({ storeId }), answer<TallyView>()),
    /** A scanned code adds `quantity` units (one by default); unknown codes and other stores' products are kept flagged. */
    add: op(
      z.strictObject({ storeId, code: z.string().trim().min(1).max(200), quantity: z.number().int().min(1).max(1_000_000).optional() }),
      answer<TallyAddView>(),
    ),
    /** Takes the newest scan out. */
    undo: op(z.strictObject({ storeId }), answer<TallyUndoView>()),
    clear: op(z.strictObject({ storeId }), answer<TallyView>()),
    /** One adjustment per counted product (reason received) and the tally emptied, in one transaction: all or none. */
    apply: op(z.strictObject({ storeId }), answer<TallyApplyView>()),
  },
  /** The people of a shared workstation, switching with a PIN (main/desktop/operators.ts); every answer is the list and who is signed in. */
  operators: {
    list: op(none, answer<OperatorsView>()),
    add: op(z.strictObject({ name: z.string().trim().min(1).max(60), pin }), answer<OperatorsView>()),
    /** Removed from the list (the history keeps naming them); signed out if it was the current one. */
    remove: op(z.strictObject({ id: operatorId }), answer<OperatorsView>()),
    /** Signs `id` in with their PIN: wrong PIN `unauthorized`, too many `too_many_requests` (the seconds in `cause`). */
    switch: op(z.strictObject({ id: operatorId, pin: z.string().max(64) }), answer<OperatorsView>()),
    /** Back to no operator: edits are the account's alone. */
    signOut: op(none, answer<OperatorsView>()),
  },
} as const;

export type Contract = typeof contract;
export type Area = keyof Contract;
export type FnOf<A extends Area> = keyof Contract[A] & string;
type Op<A extends Area, F extends FnOf<A>> = Contract[A][F] extends { input: infer S extends z.ZodType; out: Answer<infer T> } ? { schema: S; out: T } : never;
/** What the renderer sends. */
export type InputOf<A extends Area, F extends FnOf<A>> = z.input<Op<A, F>['schema']>;
/** What the main process receives after validation. */
export type ParsedOf<A extends Area, F extends FnOf<A>> = z.output<Op<A, F>['schema']>;
export type OutputOf<A extends Area, F extends FnOf<A>> = Op<A, F>['out'];

/** The schema of a channel name, or undefined for a name the contract does not have. */
export function schemaOf(channel: string): z.ZodType | undefined {
  if (!channel.startsWith(CHANNEL_PREFIX)) return undefined;
  const [area, fn, ...rest] = channel.slice(CHANNEL_PREFIX.length).split('.');
  if (!area || !fn || rest.length > 0 || !Object.hasOwn(contract, area)) return undefined;
  const fns = contract[area as Area] as Record<string, { input: z.ZodType }>;
  return Object.hasOwn(fns, fn) ? fns[fn]!.input : undefined;
}
