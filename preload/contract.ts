/**
 * The one definition of `window.stockroom`: every channel (area + function), the zod schema of its
 * one payload, the type of its answer, and the events main sends. No Node and no Electron here:
 * the main process validates with these schemas (main/desktop/core.ts), the preload and the browser
 * bridge build the renderer's API from the same list (preload/api.ts), and the renderer compiles
 * against the types (renderer/tsconfig.json includes this file, never main/).
 */
import { z } from 'zod';
import { CHANNEL_PREFIX } from './channels.js';

export { CHANNELS, CHANNEL_NAMES, CHANNEL_PREFIX, ERROR_CODES, EVENT_CHANNEL, channelName } from './channels.js';

// ---------------------------------------------------------------- answers and errors

/** An error as data: a stable code (the spec's `error` where the service raised it), a message, never a stack. */
export interface ApiError {
  code: string;
  message: string;
  /** The HTTP-like status of the service error, when there is one (400, 403, 404, 409...). */
  status?: number;
  /** The spec's `cause` list (for example the text problem of a message), when not empty. */
  cause?: unknown[];
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

// ---------------------------------------------------------------- views (plain data, JSON-safe)

export type Mode = 'local-only' | 'online' | 'offline';
export type Language = 'es' | 'pt-BR' | 'en';
export type LocationType = 'seller_warehouse' | 'selling_address' | 'platform_facility';

export interface SettingsView {
  mode: Mode;
  baseUrl: string | null;
  applicationId: number | null;
  /** The seller of the remote profile (from the sign-in, or given with a pasted token). */
  userId: number | null;
  language: Language;
  /** A pasted access token is stored (encrypted); its value is never sent to the renderer. */
  hasAccessToken: boolean;
  dataDir: string;
}

export interface SessionView {
  mode: Mode;
  signedIn: boolean;
  /** demo: local-only on the demo seller; oauth: signed in through the browser; token: a pasted access token. */
  via: 'demo' | 'oauth' | 'token' | null;
  user: { id: number; nickname: string | null } | null;
  baseUrl: string | null;
  applicationId: number | null;
  signingIn: boolean;
}

export interface SyncStatusView {
  mode: Mode;
  online: boolean;
  /** Entries that will be sent without anyone acting (queued, or waiting out a backoff). */
  pending: number;
  inFlight: number;
  /** Entries held behind a conflict or a failed entry of their cell (or conversation): they wait for the person. */
  blocked: number;
  conflicts: number;
  failed: number;
  lastSyncAt: number | null;
  lastPullAt: number | null;
  lastError: string | null;
  progress: { done: number; total: number };
}

export type CellState = 'synced' | 'pending' | 'sending' | 'conflict' | 'failed';

export interface EntryView {
  id: number;
  op: 'adjust' | 'count';
  delta: number | null;
  quantity: number | null;
  state: 'pending' | 'in_flight' | 'done' | 'conflict' | 'failed';
  onTheWire: boolean;
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
}

export interface CellView {
  userProductId: string;
  type: LocationType;
  storeId: string | null;
  cell: string;
  remote: { quantity: number | null; version: string | null };
  shown: number;
  state: CellState;
  editable: boolean;
  entries: EntryView[];
  conflict: {
    entryId: number;
    base: { version: string | null; quantity: number | null };
    local: number;
    remote: { version: string | null; quantity: number | null };
    /** When the count was made (ms since the epoch; the grid answers it). */
    countedAt?: number | null;
    /** When the marketplace's different value was seen (ms since the epoch; the grid answers it). */
    seenAt?: number | null;
  } | null;
  error: { entryId: number; status: number | null; message: string } | null;
  /** Why the cell cannot be edited (the grid answers it; null or absent when it can). */
  lock?: CellLockView | null;
}

/**
 * Why a cell is not editable: `platform_managed` (platform_facility stock, SPEC 4.6), or the
 * selling-address rules of SPEC 7.3 with the spec's message.
 */
export interface CellLockView {
  reason: 'platform_managed' | 'fulfillment_only' | 'no_inventory_id' | 'no_full_inbound';
  message: string;
}

export interface GridColumnView {
  key: string;
  type: LocationType;
  storeId: string | null;
  label: string;
}

export interface GridRowView {
  userProductId: string;
  title: string | null;
  version: string;
  /** The seller's items of this user product (the grid answers it). */
  itemIds?: string[];
  cells: Record<string, CellView>;
}

export interface GridView {
  total: number;
  columns: GridColumnView[];
  rows: GridRowView[];
}

/** Where a search or a scan lands in the grid (`stock.locate`). */
export interface LocateView {
  /** The user product found, null when nothing matches. */
  userProductId: string | null;
  /** Its row in the grid as filtered by the call's filters; null when not found or hidden by them. */
  index: number | null;
  /** Rows of the grid with those filters. */
  total: number;
}

/** Rows by user product id or item id (`stock.rows`, for the CSV import's preview). */
export interface RowsView {
  columns: GridColumnView[];
  rows: GridRowView[];
  /** Ids given that are not this seller's user products or items. */
  missing: string[];
  /** Item id given → its user product id. */
  aliases: Record<string, string>;
}

export interface HistoryEntryView {
  id: number;
  cell: string;
  user_product_id: string;
  cell_type: string;
  store_key: string;
  kind: 'adjustment' | 'count' | 'synced' | 'conflict_resolution' | 'discarded';
  author: string;
  at: number;
  from_quantity: number | null;
  to_quantity: number | null;
  delta: number | null;
  entry_id: number | null;
  ref: string | null;
  note: string | null;
}

export interface QueueResultView {
  entryId: number | null;
  how: 'queued' | 'merged' | 'cancelled' | 'resolved';
  shown: number;
  historyId: number;
}

export interface StoreView {
  id: string;
  user_id: string;
  description: string;
  status: string;
  location: Record<string, unknown>;
  tags: string[];
  network_node_id: string;
}

/** An item as the marketplace answers it (SPEC 2.4); the answer carries more fields of the ordinary flow. */
export interface ItemView {
  id: string;
  site_id: string;
  title: string;
  seller_id: number;
  category_id: string;
  user_product_id: string;
  price: number;
  base_price: number;
  currency_id: string;
  listing_type_id: string;
  channels: string[];
  official_store_id?: number;
  available_quantity?: number | null;
  stock_locations?: { store_id: string; quantity: number; network_node_id: string }[];
  date_created: string;
}

export interface OutboxEntryView {
  id: number;
  kind: 'stock' | 'message';
  state: 'pending' | 'in_flight' | 'conflict' | 'failed';
  createdAt: number;
  updatedAt: number;
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  stock: { userProductId: string; type: 'seller_warehouse' | 'selling_address'; storeId: string | null; op: 'adjust' | 'count'; delta: number | null; quantity: number | null } | null;
  message: { packId: number; text: string; files: string[] } | null;
}

export interface AttachmentView {
  filename: string;
  original_filename: string;
  type: string;
  size: number;
  potential_security_threat: boolean;
  creation_date: string;
}

/** A message, current shape (SPEC 2.8). */
export interface MessageView {
  id: string;
  site_id: string;
  client_id: number | null;
  from: { user_id: number };
  to: { user_id: number };
  status: string;
  subject: string | null;
  text: string;
  message_date: { received: string; available: string | null; notified: string | null; created: string; read: string | null };
  message_moderation: { status: string; reason: string | null; source: string | null; moderation_date: string | null };
  message_attachments: AttachmentView[] | null;
  message_resources: { id: string; name: string }[];
  conversation_first_message: boolean;
}

export interface ConversationView {
  packId: number;
  siteId: string;
  buyer: { id: number; nickname: string | null };
  orderIds: number[];
  /** Why sending is blocked (cancelled order, mediation, fulfillment not delivered), null when open. */
  blocked: string | null;
  lastMessage: { id: string; text: string; date: string; fromSeller: boolean; moderation: string } | null;
  /** Buyer messages the seller can see and has not read. */
  unread: number;
  /** The last visible message is the buyer's: it waits for an answer. */
  needsReply: boolean;
  /** Outgoing messages still in the outbox (online / offline profiles). */
  queued: number;
}

export interface ConversationsView {
  total: number;
  conversations: ConversationView[];
}

export interface QueuedMessageView {
  entryId: number;
  state: 'pending' | 'in_flight' | 'conflict' | 'failed';
  text: string;
  files: string[];
  createdAt: number;
  lastError: string | null;
}

export interface ThreadView {
  packId: number;
  paging: { limit: number; offset: number; total: number } | null;
  conversation_status: Record<string, unknown> | null;
  messages: MessageView[];
  seller_max_message_length: number;
  buyer_max_message_length: number;
  /** Outgoing messages not yet accepted by the marketplace, oldest first. */
  queued: QueuedMessageView[];
}

export interface WarningView {
  reason: string;
  rule: string;
  match: string;
  index: number;
  message: string;
}

export type SendResultView = { status: 'sent'; message: MessageView } | { status: 'queued'; entryId: number; warnings: WarningView[] };

export interface StagedFileView {
  fileId: string;
  name: string;
  size: number;
  type: string | null;
}

export interface AttachmentBytesView {
  name: string;
  type: string;
  size: number;
  bytes: Uint8Array;
}

export interface SavedFileView {
  saved: boolean;
  path: string | null;
}

/** A saved text the composer can insert (kept in the data folder). */
export interface QuickReplyView {
  id: string;
  title: string;
  text: string;
}

export interface PictureView {
  id: number;
  name: string;
  secure_url: string | null;
  url: string;
  size: string;
}

export interface BrandListEntryView {
  site_id: string;
  official_store_id: number;
  name: string;
  type: string;
  relevance_position: number;
  status: string;
  fantasy_name: string;
  date_created: string;
  return_policy: unknown;
  landing_permalink: string;
  pictures: PictureView[];
  tags: string[];
  categories_ids: string[];
  main_categories: { id: string }[];
  permalink: string;
  normalized_name: string;
  last_updated: string;
}

export interface BrandListView {
  userId: number;
  /** Null when the user has no linked brand (the marketplace's 404 B00001). */
  list: {
    status: string;
    cust_id: number;
    site_id: string;
    user_type: string;
    brands: BrandListEntryView[];
    tags: string[];
  } | null;
}

export interface BrandDetailView {
  tags: string[];
  official_store_id: number;
  categories_ids: string[];
  fantasy_name: string;
  users: { cust_id: number; tags: string[]; site_id: string; user_type: string }[];
  site_id: string;
  status: string;
  name: string;
  date_created: string;
  pictures: PictureView[];
  boost: { is_active: boolean; last_update: string | null };
  relevance_position: number;
}

export interface PullReportView {
  stores: number;
  items: { total: number; fetched: number };
  stock: { read: number; changed: number; skipped: number };
  brands: number;
  orders: number;
  messages: { new: number; updated: number };
  durationMs: number;
}

export interface AppInfoView {
  name: string;
  version: string;
  shell: 'electron' | 'browser';
  platform: string;
  dataDir: string;
}

// ---------------------------------------------------------------- events (main → renderer)

export interface NewMessageView {
  packId: number;
  id: string;
  text: string;
  date: string;
  fromUserId: number;
}

export type StockroomEvent =
  | { type: 'sync.status'; status: SyncStatusView }
  | { type: 'sync.conflict'; entryId: number; cell: string }
  | { type: 'messages.new'; messages: NewMessageView[] }
  | { type: 'stock.changed'; userProductIds: string[] | null }
  | { type: 'settings.changed'; settings: SettingsView }
  | { type: 'session.changed'; session: SessionView };

export type EventType = StockroomEvent['type'];
export type EventOf<T extends EventType> = Extract<StockroomEvent, { type: T }>;


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
  type: z.enum(['seller_warehouse', 'selling_address', 'platform_facility']),
  storeId: storeId.optional(),
};
const entryId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** Grid filters: the products stocked in one store; the products with a seller-managed location at or under a quantity. */
const gridFilters = {
  store: storeId.optional(),
  lowStock: z.number().int().min(0).max(1_000_000).optional(),
};
const packId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const userId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const paging = { limit: z.number().int().min(1).max(200).optional(), offset: z.number().int().min(0).max(1e9).optional() };
/** A caller's note kept in the cell history ("scan 12:01", a CSV row). */
const ref = z.string().max(200).optional();
const fileId = z.string().regex(/^[0-9a-f]{32}$/, 'expected a staged file id');
const attachmentId = z.string().min(1).max(200);
const MAX_FILE_BYTES = 25 * 1024 * 1024;

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
        baseUrl: z.union([z.url({ protocol: /^https?$/ }).max(500), z.null()]).optional(),
        applicationId: z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.null()]).optional(),
        userId: z.union([userId, z.null()]).optional(),
        /** A pasted access token (null removes it). */
        accessToken: z.union([z.string().min(8).max(500).regex(/^[\x21-\x7e]+$/, 'expected a token without spaces'), z.null()]).optional(),
        language: z.enum(['es', 'pt-BR', 'en']).optional(),
      }),
      answer<SettingsView>(),
    ),
  },
  session: {
    status: op(none, answer<SessionView>()),
    /** Signs in through the system browser (OAuth code + PKCE) with the settings' base_url and application id. */
    signIn: op(none, answer<SessionView>()),
    cancelSignIn: op(none, answer<SessionView>()),
    signOut: op(none, answer<SessionView>()),
  },
  stock: {
    grid: op(
      z.strictObject({
        ...paging,
        /** Title words, a user product id or an item id (a barcode scan). */
        search: z.string().max(200).optional(),
        filter: z.enum(['all', 'pending', 'conflict', 'failed']).optional(),
        ...gridFilters,
      }).optional(),
      answer<GridView>(),
    ),
    /** The row of a search or a barcode scan in the grid with the given filters (the scanner jumps there). */
    locate: op(
      z.strictObject({
        search: z.string().trim().min(1).max(200),
        filter: z.enum(['all', 'pending', 'conflict', 'failed']).optional(),
        ...gridFilters,
      }),
      answer<LocateView>(),
    ),
    /** Grid rows by user product id or item id, in one call (the CSV import's preview). */
    rows: op(z.strictObject({ ids: z.array(z.string().min(1).max(64)).min(1).max(1000) }), answer<RowsView>()),
    cell: op(z.strictObject(cellRef), answer<CellView>()),
    /** Newest first; `before` (a history id) pages back past the first `limit` rows. */
    history: op(z.strictObject({ ...cellRef, limit: z.number().int().min(1).max(500).optional(), before: z.number().int().positive().optional() }), answer<HistoryEntryView[]>()),
    /** "Received 12", "2 damaged": a delta. */
    adjust: op(z.strictObject({ ...cellRef, delta: z.number().int(), ref }), answer<QueueResultView>()),
    /** "There are 40 on the shelf": an absolute count. */
    count: op(z.strictObject({ ...cellRef, quantity: z.number().int(), ref }), answer<QueueResultView>()),
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
        stock_locations: z.array(z.strictObject({ store_id: storeId, network_node_id: z.string().max(64).optional(), quantity: z.number().int().min(0) })).min(1).max(100),
      }),
      answer<ItemView>(),
    ),
  },
  outbox: {
    list: op(z.strictObject({ kind: z.enum(['stock', 'message']).optional(), state: z.enum(['pending', 'in_flight', 'conflict', 'failed']).optional(), ...paging }).optional(), answer<{ total: number; entries: OutboxEntryView[] }>()),
    retry: op(z.strictObject({ entryId }), answer<{ entryId: number }>()),
    discard: op(z.strictObject({ entryId }), answer<{ entryId: number }>()),
  },
  messages: {
    conversations: op(z.strictObject({ filter: z.enum(['all', 'unread', 'to_reply']).optional(), ...paging }).optional(), answer<ConversationsView>()),
    thread: op(z.strictObject({ packId, ...paging, markAsRead: z.boolean().optional() }), answer<ThreadView>()),
    send: op(z.strictObject({ packId, text: z.string().max(10_000), fileIds: z.array(fileId).max(25).optional() }), answer<SendResultView>()),
    /** Keeps a file (drag and drop, a file input) for a message about to be sent. */
    stageFile: op(
      z.strictObject({
        name: z.string().min(1).max(255),
        type: z.string().max(255).optional(),
        bytes: z.instanceof(Uint8Array).refine((b) => b.byteLength > 0, 'File attached is empty').refine((b) => b.byteLength <= MAX_FILE_BYTES, 'File attachment is bigger than 25 Mb.'),
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
    /** Replaces the quick replies (add, edit, remove and reorder are one call). */
    saveQuickReplies: op(
      z.strictObject({
        replies: z
          .array(z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a quick reply id'), title: z.string().trim().min(1).max(80), text: z.string().trim().min(1).max(3500) }))
          .max(200),
      }),
      answer<QuickReplyView[]>(),
    ),
  },
  brands: {
    list: op(z.strictObject({ userId: userId.optional() }).optional(), answer<BrandListView>()),
    detail: op(z.strictObject({ officialStoreId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER), userId: userId.optional() }), answer<BrandDetailView>()),
  },
  sync: {
    status: op(none, answer<SyncStatusView>()),
    pullNow: op(none, answer<PullReportView>()),
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
