/**
 * The shapes more than one runtime needs: what the main process answers and the renderer shows,
 * the events between them, the errors as data. Plain, JSON-safe data; this folder (common/)
 * imports nothing of Node, the DOM, Electron or the app's other folders (the lint zones check it).
 * Over 400 lines on purpose: a catalogue of plain shapes (no logic), read by name.
 */
import type { EditableType, LocationType, SortDirection, StateFilter } from './stock-vocabulary.js';
import type { EntryPhase, EntryState, OutboxKind } from './outbox.js';
import type { ErrorCode } from './errors.js';
import type { StockReason } from './stock-reasons.js';

// ---------------------------------------------------------------- answers and errors

/** An error as data: a stable code (the spec's `error` where the service raised it), a message, never a stack. */
export interface ApiError {
  /** One of the closed set of common/errors.ts. */
  code: ErrorCode;
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
/** The screens' colours: the system's light or dark setting, or one of them always (Settings › Appearance). */
export type Theme = 'system' | 'light' | 'dark';
export type { EditableType, LocationType, SortDirection, StateFilter } from './stock-vocabulary.js';

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
  // The first run and the accounts. Optional so views written before them (test fakes) stay
  // valid; the core always sets them.
  /** The person has not chosen yet between the demo data and an account: the welcome shows. */
  firstRun?: boolean;
  /** The marketplace site (country) of the account. */
  siteId?: string | null;
  /** False: sign-ins and pasted tokens are kept in memory only (sign in again after a restart). */
  keepSignedIn?: boolean;
  /** How a kept sign-in is protected on this computer: the OS keychain, Chromium's fallback key, or not at all. */
  tokenProtection?: TokenProtection;
  /** Accounts opened on this computer, each with its own replica and outbox; newest first. */
  accounts?: AccountView[];
  /** Light, dark, or as the system says (the default). */
  theme?: Theme;
}

export type TokenProtection = 'keychain' | 'obfuscated' | 'none';

export interface AccountView {
  baseUrl: string;
  applicationId: number;
  userId: number;
  siteId: string | null;
  nickname: string | null;
  /** This account's data is the one open. */
  open: boolean;
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
  /** The site (country) of the open account; null for the demo data. Optional as SettingsView's additions. */
  siteId?: string | null;
}

export interface SyncStatusView {
  mode: Mode;
  online: boolean;
  /** Online mode, the marketplace found unreachable (refused, resets, no answer): since when (ms); null while reachable. */
  unreachableSince: number | null;
  /** Entries that will be sent without anyone acting (queued, or waiting out a backoff). */
  pending: number;
  inFlight: number;
  /** Entries held behind a conflict or a failed entry of their cell (or conversation): they wait for the person. */
  blocked: number;
  conflicts: number;
  /** Failed entries the marketplace refused (nothing of them applied). */
  failed: number;
  /** Failed entries of unknown outcome: their last request may have been applied (its answer was lost). */
  unknown: number;
  lastSyncAt: number | null;
  lastPullAt: number | null;
  lastError: string | null;
  progress: { done: number; total: number };
  /**
   * A first pull's stock reads (issue 29), while products are known from their listings only:
   * how many have their stock read, of how many, the stock requests a minute (the request budget's
   * rate, or the last minute's pace when lower; null when neither is known) and the time left at
   * that rate. Absent when every product is read.
   */
  stockRead?: { read: number; total: number; perMinute: number | null; leftMs: number | null };
}

export type CellState = 'synced' | 'pending' | 'sending' | 'conflict' | 'failed';

export interface EntryView {
  id: number;
  op: 'adjust' | 'count';
  delta: number | null;
  quantity: number | null;
  state: EntryState;
  /** What the person is told of it (main/sync/model.ts): queued, on the wire, outcome unknown, checking, refused, … */
  phase: EntryPhase;
  onTheWire: boolean;
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  /** Why (issue 14 §6); null on entries queued before reasons existed. */
  reason?: StockReason | null;
  /** A transfer between two stores: `delta` leaves `from` and arrives in `to` (both store ids). */
  transfer?: { from: string; to: string; units: number } | null;
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
    /**
     * The adjustments typed after the count (their sum; 0 when none): each is its own intent, so
     * "take theirs" keeps them and the cell then shows the remote's quantity plus this.
     */
    laterAdjustments: number;
    /** When the count was made (ms since the epoch; the grid answers it). */
    countedAt?: number | null;
    /** When the marketplace's different value was seen (ms since the epoch; the grid answers it). */
    seenAt?: number | null;
  } | null;
  /** A failed entry of the cell: `unknown` when its request may have been applied (its answer was lost), else refused. */
  error: { entryId: number; status: number | null; message: string; unknown: boolean } | null;
  /** Why the cell cannot be edited (the grid answers it; null or absent when it can). */
  lock?: CellLockView | null;
}

/**
 * Why a cell is not editable: `platform_managed` (platform_facility stock, SPEC 4.6), the
 * selling-address rules of SPEC 7.3 with the spec's message, or `not_read`: the product is known
 * from its listing and its stock is not read from the marketplace yet (a first pull, issue 29).
 */
export interface CellLockView {
  reason: 'platform_managed' | 'fulfillment_only' | 'no_inventory_id' | 'no_full_inbound' | 'not_read';
  message: string;
}

export interface GridColumnView {
  key: string;
  type: LocationType;
  storeId: string | null;
  label: string;
}

export interface OtherLocationView {
  type: string;
  storeId: string | null;
  quantity: number;
}

export interface GridRowView {
  userProductId: string;
  title: string | null;
  version: string;
  /** The seller's items of this user product (the grid answers it). */
  itemIds?: string[];
  /** Reorder points of this row's cells (column key → quantity at or under which the cell is low). */
  reorder?: Record<string, number>;
  cells: Record<string, CellView>;
  /** The product is known from its listing only: its stock is not read yet (every cell says so and is locked). */
  stockUnread?: true;
  /**
   * Locations of kinds the app has no rules for (the marketplace adds kinds), with the type as the
   * remote sent it: shown read-only as "other", never edited nor in the total. Absent when none.
   */
  others?: OtherLocationView[];
  /** Each cell's newest edit with its reason (column key → edit), when asked for (the exports). */
  lastChanges?: Record<string, HistoryEntryView>;
  /** The seller's SKU (an item's SELLER_SKU attribute, else its seller_custom_field), when asked for (the exports). */
  sku?: string | null;
  /**
   * Days of cover of each seller_warehouse cell, when asked for (issue 28): store column key →
   * what the cell shows ÷ the product's average daily units sold over the last 30 days (one
   * decimal); null when nothing sold in those days.
   */
  cover?: Record<string, number | null>;
}

/** A product's stock per store over time and its recent sales (`stock.insight`, issue 28). */
export interface StockInsightView {
  userProductId: string;
  /** The window: from `since` to `now` (ms since the epoch). */
  since: number;
  now: number;
  /** Each seller_warehouse store's quantity changes in the window, oldest first (its last `points` at most). */
  stores: { storeId: string; points: { at: number; quantity: number }[] }[];
  /** Units sold on each of the last `salesDays` days, oldest first, every day listed (0 when none). */
  sales: { day: string; units: number }[];
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
  /** The title of the product found (its first item's), for the scan's confirmation. */
  title?: string | null;
  /** Its first item's first https picture, or null (the scan station shows it). */
  picture?: string | null;
  /** What the text matched: an id, a code (barcode, seller SKU, inventory id) or title words. */
  matchedBy?: 'user_product' | 'item' | 'gtin' | 'seller_sku' | 'inventory' | 'title';
  /**
   * The grid's page holding the row when asked (`page`), or only its rows `near` the row: the scan
   * lands with its row read in one call. `offset` is the grid index of `grid.rows[0]`.
   */
  page?: { offset: number; grid: GridView };
}

/** Rows by user product id or item id (`stock.rows`, for the CSV import's preview). */
/**
 * A cell as the import's preview needs it (`stock.lookup`): what it shows, whether it may be
 * edited and why not. A grid cell (CellView) is one of these.
 */
export type LookupCellView = Pick<CellView, 'type' | 'shown' | 'editable' | 'lock'>;

/** A product as the import's preview needs it: only the file's columns' cells (and its selling address, for the pairing rule). */
export interface LookupRowView {
  userProductId: string;
  title: string | null;
  version: string;
  cells: Record<string, LookupCellView>;
}

/** `stock.lookup`'s answer: `RowsView` with light rows (a RowsView is one of these). */
export interface LookupView {
  columns: GridColumnView[];
  rows: LookupRowView[];
  missing: string[];
  aliases: Record<string, string>;
}

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
  /** Why (issue 14 §6); null for rows written before reasons existed and for synced rows. */
  reason?: StockReason | null;
  /** The history row an undo took back. */
  undoes?: number | null;
  /** A transfer's second row (the destination store) names its first row here. */
  link?: number | null;
  /** The workstation's operator who made it (issue 27), as named then; null: the account alone. */
  operator_id?: number | null;
  operator_name?: string | null;
}

export interface QueueResultView {
  entryId: number | null;
  how: 'queued' | 'merged' | 'cancelled' | 'resolved';
  shown: number;
  historyId: number;
}

/** A transfer between two stores (`stock.transfer`): the source cell's result, and the destination's. */
export interface TransferResultView extends QueueResultView {
  shownTo: number;
  historyIdTo: number;
}

/**
 * What `stock.undo` did with the person's last edit: `withdrawn` (nothing of it was applied: taken
 * out of the outbox), `inverse` (it may have reached the marketplace: an inverse edit queued or
 * applied, following the edit while its fate is open), `checking` (the edit's outcome is unknown:
 * the app learns it first, then withdraws it or sends the inverse), or `nothing` (no edit left).
 */
export interface UndoResultView {
  /** `reversed`: where the app is the marketplace, the inverse was applied at once (nothing is queued). */
  how: 'withdrawn' | 'inverse' | 'reversed' | 'checking' | 'nothing';
  /** The edit taken back (its history row), and the undo's own history row. */
  undone: number | null;
  historyId: number | null;
  /** The user product whose cells changed. */
  userProductId: string | null;
}

/** `stock.importApply`: every change of a file applied in one transaction (all or none). */
export interface ImportResultView {
  applied: number;
}

/** The grid's order: a column key (a store id, `selling_address`, `platform_facility`), `product`, `title` or `total`. */
export interface GridSortView {
  key: string;
  dir: SortDirection;
}

/** A saved view of the grid (`stock.views`): its store, filters and order. */
export interface SavedGridViewView {
  id: number;
  name: string;
  query: {
    search: string;
    filter: StateFilter;
    store: string | null;
    lowStock: number | null;
    belowReorder: boolean;
    sort: GridSortView | null;
    /** Location columns hidden in the view (their keys); absent in views saved before issue 27. */
    hidden?: string[];
    /** The grid shows days of cover (issue 28); absent in views saved before it. */
    cover?: boolean;
  };
}

/** A workbook or file made in the main process (`stock.exportXlsx`). */
export interface FileBytesView {
  name: string;
  type: string;
  bytes: Uint8Array;
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
/** The fields of an item (SPEC 2.3) every layer keeps as they are: the answer, the stored row, the mirror's copy. */
export interface ItemFields {
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
  date_created: string;
}

/** The partial (public) user record of SPEC 2.1, with its site: the answer, and what the mirror keeps of the remote's. */
export interface UserView {
  id: number;
  nickname: string;
  registration_date: string;
  first_name: string;
  last_name: string;
  gender: string;
  country_id: string;
  site_id: string;
  tags: string[];
}

export interface ItemView extends ItemFields {
  channels: string[];
  official_store_id?: number;
  available_quantity?: number | null;
  stock_locations?: { store_id: string; quantity: number; network_node_id: string }[];
  /** The item's inventory code, when it has one (null otherwise). */
  inventory_id?: string | null;
  /** Attributes of the publishing flow, such as GTIN and SELLER_SKU, as the listing sent them. */
  attributes?: ItemAttributeView[];
  /** The seller's own code of the item. */
  seller_custom_field?: string | null;
  /** How the item ships: the facts behind the selling-address locks (SPEC 7.3). */
  shipping?: { logistic_type: 'fulfillment' | 'cross_docking' | 'self_service'; local_delivery: boolean };
  /** The listing's pictures (those with a web address), first the main one. */
  pictures?: ItemPictureView[];
  /** The first picture's address, or null. */
  thumbnail?: string | null;
}

/** A picture of an item as the marketplace answers it. */
export interface ItemPictureView {
  id: string;
  url: string;
  secure_url: string | null;
}

/** An attribute of an item as the publishing flow takes it (`{ id: "GTIN", value_name: "7790001234565" }`). */
export interface ItemAttributeView {
  id: string;
  value_name?: string | null;
  [more: string]: unknown;
}

export interface OutboxEntryView {
  id: number;
  kind: OutboxKind;
  state: Exclude<EntryState, 'done'>;
  phase: EntryPhase;
  createdAt: number;
  updatedAt: number;
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  stock: {
    userProductId: string;
    type: EditableType;
    storeId: string | null;
    op: 'adjust' | 'count';
    delta: number | null;
    quantity: number | null;
    reason?: StockReason | null;
    /** A transfer: the destination store (the units leave `storeId`). */
    toStoreId?: string | null;
  } | null;
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

/** The moderation state of a message (SPEC 2.8, 4.11). */
export type ModerationStatus = 'clean' | 'rejected' | 'pending' | 'non_moderated';

/** A message, current shape (SPEC 2.8): what the service answers and the inbox shows. */
export interface MessageView {
  id: string;
  site_id: string;
  client_id: number | null;
  from: { user_id: number };
  to: { user_id: number };
  status: 'available';
  subject: string | null;
  text: string;
  message_date: { received: string; available: string | null; notified: string | null; created: string; read: string | null };
  message_moderation: { status: ModerationStatus; reason: string | null; source: string | null; moderation_date: string | null };
  message_attachments: AttachmentView[] | null;
  message_resources: { id: string; name: 'packs' | 'sellers' }[];
  conversation_first_message: boolean;
}

/** The order behind a conversation, as the inbox's side panel shows it (issue 15 §1). */
export interface ConversationOrderView {
  id: number;
  status: 'paid' | 'cancelled';
  dateCreated: string;
  totalAmount: number;
  currencyId: string | null;
  items: { itemId: string; title: string; quantity: number; unitPrice: number; currencyId: string; picture: string | null }[];
  shipping: { id: number | null; logisticType: 'fulfillment' | 'cross_docking' | 'self_service'; delivered: boolean };
}

export interface ConversationView {
  packId: number;
  siteId: string;
  /** The buyer; first and last name when known (issue 15 §1: a name, not only a nickname). */
  buyer: { id: number; nickname: string | null; firstName?: string | null; lastName?: string | null };
  /** The first product of the conversation's orders, for the list (null when the orders have no lines). */
  product?: string | null;
  /** The conversation's orders with their lines, oldest first. */
  orders?: ConversationOrderView[];
  orderIds: number[];
  /** Why sending is blocked (cancelled order, mediation, fulfillment not delivered), null when open. */
  blocked: string | null;
  lastMessage: { id: string; text: string; date: string; fromSeller: boolean; moderation: string } | null;
  /** Buyer messages the seller can see and has not read. */
  unread: number;
  /** The last visible message is the buyer's: it waits for an answer. */
  needsReply: boolean;
  /** Outgoing messages still in the outbox (online / offline profiles), not counting the failed ones. */
  queued: number;
  /** Outgoing messages that failed (refused by the marketplace, or of unknown outcome): they wait for the person (issue 27). */
  failed?: number;
}

export interface ConversationsView {
  total: number;
  conversations: ConversationView[];
}

export interface QueuedMessageView {
  entryId: number;
  state: Exclude<EntryState, 'done'>;
  /** unknown: the marketplace may have it (its answer was lost); checking: being looked for there. */
  phase: EntryPhase;
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

/** What the seller was writing in a conversation (issue 15 §2: drafts survive a restart). */
export interface DraftView {
  packId: number;
  text: string;
  /** When it was last saved, ms since the epoch. */
  updatedAt: number;
  /** The files attached to it, in order (issue 27: they survive a reload and a restart). */
  files?: StagedFileView[];
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

/** An account the brands screen offers to pick (issue 15 §4): named, never a bare user id. */
export interface BrandAccountView {
  userId: number;
  nickname: string;
  firstName: string;
  lastName: string;
  /** The signed-in seller. */
  self: boolean;
  /** A user of type brand. */
  brand: boolean;
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

/** The steps of a pull, in order: what is being read from the marketplace. */
export const PULL_PHASES = ['account', 'stores', 'items', 'stock', 'brands', 'orders', 'messages'] as const;
export type PullPhase = (typeof PULL_PHASES)[number];

/** How far a pull is: its step (1-based, of `steps`) and that step's count (`total` 0 until known). */
export interface PullProgressView {
  phase: PullPhase;
  step: number;
  steps: number;
  done: number;
  total: number;
}

export interface AppInfoView {
  name: string;
  version: string;
  shell: 'electron' | 'browser';
  platform: string;
  dataDir: string;
  /** The https origins the page's content security policy loads pictures from (main/security.ts): the page asks no other host. */
  pictureHosts: string[];
}

/**
 * The app's own updates (main/desktop/updates.ts): `off` where there is no feed (development, the
 * browser mode); found updates download in the background and wait, `ready`, for the person to
 * restart; a restart asked for while changes are still being sent waits for them (`waitingFor`).
 */
export type UpdateView =
  | { state: 'off' }
  | { state: 'idle'; lastCheckAt: number | null }
  | { state: 'checking' }
  | { state: 'downloading'; version: string; percent: number; transferred: number; total: number }
  | { state: 'ready'; version: string; restartRequested: boolean; waitingFor: number }
  | { state: 'installing'; version: string }
  | { state: 'error'; message: string; during: 'check' | 'download' | 'install'; lastCheckAt: number | null };

// ---------------------------------------------------------------- events (main → renderer)

export interface NewMessageView {
  packId: number;
  id: string;
  text: string;
  date: string;
  fromUserId: number;
}

/** What a notification opens. */
export type RevealTarget = { screen: 'conversation'; packId: number } | { screen: 'conflicts'; cell: string | null };

export type StockroomEvent =
  | { type: 'sync.status'; status: SyncStatusView }
  | { type: 'sync.conflict'; entryId: number; cell: string }
  | { type: 'messages.new'; messages: NewMessageView[] }
  | { type: 'stock.changed'; userProductIds: string[] | null }
  | { type: 'settings.changed'; settings: SettingsView }
  | { type: 'session.changed'; session: SessionView }
  /** Conversations with unread buyer messages changed in number (a pull, a read): the tab label and the dock/taskbar badge. */
  | { type: 'inbox.unread'; conversations: number }
  /** Bring this into view (a notification was clicked): a conversation, or the conflicted cell(s) in the grid. */
  | { type: 'app.reveal'; target: RevealTarget }
  /** The app's update moved on: found, downloading (progress), ready to install, waiting for the outbox, failed. */
  | { type: 'update.state'; update: UpdateView }
  /** A pull moved on (a new step, or about every 1% of a step): the first pull's progress bar. */
  | { type: 'sync.pull'; progress: PullProgressView };

export type EventType = StockroomEvent['type'];
export type EventOf<T extends EventType> = Extract<StockroomEvent, { type: T }>;
