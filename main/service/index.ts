import { GroupCommit } from '../db/group-commit.js';
import type { Db } from '../db/open.js';
import { attachmentsRepo } from '../db/repos/attachments.js';
import { authRepo } from '../db/repos/auth.js';
import { oauthRepo } from '../db/repos/oauth.js';
import { brandsRepo } from '../db/repos/brands.js';
import { listingRepo } from '../db/repos/listing.js';
import { messagesRepo } from '../db/repos/messages.js';
import { ordersRepo } from '../db/repos/orders.js';
import { historyRepo } from '../db/repos/history.js';
import { stockRepo } from '../db/repos/stock.js';
import { usersRepo } from '../db/repos/users.js';
import { authService } from './auth/auth.js';
import type { SignInLimits } from './auth/attempt-limits.js';
import { oauthService } from './auth/oauth.js';
import { brandsService } from './brands/brands.js';
import { type Clock, systemClock } from './clock.js';
import { idempotencyService } from './idempotency/idempotency.js';
import { JobRunner } from './jobs/runner.js';
import { attachmentsService, defaultAttachmentsDir } from './messages/attachments/service.js';
import { messagesService } from './messages/messages.js';
import { ordersService } from './messages/orders.js';
import { orderSearchService } from './orders/search.js';
import { itemSearchService } from './stock/item-search.js';
import { itemsService } from './stock/items.js';
import { publishService } from './stock/publish.js';
import { localEditsService } from './stock/local-edits.js';
import { stockService } from './stock/stock.js';
import { storesService } from './stock/stores.js';
import { usersService } from './users/users.js';

export interface ServiceOptions {
  clock?: Clock;
  /** Poll interval of the job runner (ms). */
  jobPollMs?: number;
  /** Folder of the attachment files (default: `attachments/` next to the database file). */
  attachmentsDir?: string;
  /** Site where "mediation in process" blocks sending (SPEC 7.6: one country only); default 'MLB'. */
  mediationSite?: string;
  /** Lifetime of access tokens issued by POST /oauth/token (seconds, default 21600 = 6 h). */
  accessTokenTtlSeconds?: number;
  /** Lifetime of each refresh token (seconds, default 180 days); every rotation starts a new one. */
  refreshTokenTtlSeconds?: number;
  /** Failed sign-ins allowed per source, user and known device (tests shorten them; default: attempt-limits.ts). */
  signInLimits?: Partial<SignInLimits>;
}

/**
 * The marketplace service over one SQLite database: every rule of SPEC.md lives below this
 * function, with no Electron or HTTP imports. Adapters (HTTP, IPC, sync) call these areas.
 */
export function createService(db: Db, options: ServiceOptions = {}) {
  const clock = options.clock ?? systemClock;
  const jobs = new JobRunner(db, { clock, pollMs: options.jobPollMs ?? 1000 });
  /** Every acknowledged write goes through here: one fsync per batch, not per request, off the event loop. */
  const writes = new GroupCommit(db);
  const repos = { auth: authRepo(db), users: usersRepo(db), stock: stockRepo(db) };

  const auth = authService(repos.auth, clock);
  const oauth = oauthService({
    auth: repos.auth,
    repo: oauthRepo(db),
    writes,
    clock,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds,
    refreshTokenTtlSeconds: options.refreshTokenTtlSeconds,
    signInLimits: options.signInLimits,
  });
  const users = usersService(repos.users);
  const stores = storesService(repos.stock, repos.users);
  const stock = stockService(repos.stock, stores, jobs, writes);
  const localEdits = localEditsService({ repo: repos.stock, stores, stock, writes, history: historyRepo(db), clock });
  const items = itemsService(writes, repos.stock, repos.users, stores, stock, clock);
  const brands = brandsService(db, brandsRepo(db), repos.users);
  // The official-store rules of SPEC 7.4 apply to every listing flow.
  items.addListingCheck(brands.listingCheck);
  const publish = publishService(writes, repos.stock, repos.users, items);
  const attachments = attachmentsService(db, attachmentsRepo(db), {
    dir: options.attachmentsDir ?? defaultAttachmentsDir(db),
    clock,
    jobs,
    siteOf: (userId) => repos.users.byId(userId)?.site_id,
  });
  const messagesData = messagesRepo(db);
  const orderDetails = ordersRepo(db);
  const orders = ordersService(messagesData, orderDetails);
  const listing = listingRepo(db);
  const itemSearch = itemSearchService(listing, repos.users);
  const orderSearch = orderSearchService(orderDetails);
  const idempotency = idempotencyService(db, clock, jobs);
  const messages = messagesService({ db, repo: messagesData, auth, attachments, jobs, writes, clock, mediationSite: options.mediationSite });

  return {
    db,
    clock,
    jobs,
    writes,
    auth,
    oauth,
    users,
    stores,
    stock,
    localEdits,
    items,
    publish,
    brands,
    attachments,
    orders,
    itemSearch,
    orderSearch,
    idempotency,
    messages,
    /** Starts background work (durable jobs). */
    start(): void {
      jobs.start();
    },
    /** Stops background work, waiting for the job in progress and the last flush; the caller closes the database. */
    async stop(): Promise<void> {
      await jobs.stop();
      await writes.close();
    },
  };
}
export type Service = ReturnType<typeof createService>;
