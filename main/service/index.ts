import { GroupCommit } from '../db/group-commit.js';
import type { Db } from '../db/open.js';
import { attachmentsRepo } from '../db/repos/attachments.js';
import { authRepo } from '../db/repos/auth.js';
import { brandsRepo } from '../db/repos/brands.js';
import { messagesRepo } from '../db/repos/messages.js';
import { stockRepo } from '../db/repos/stock.js';
import { usersRepo } from '../db/repos/users.js';
import { authService } from './auth/auth.js';
import { brandsService } from './brands/brands.js';
import { type Clock, systemClock } from './clock.js';
import { JobRunner } from './jobs/runner.js';
import { attachmentsService, defaultAttachmentsDir } from './messages/attachments/service.js';
import { messagesService } from './messages/messages.js';
import { ordersService } from './messages/orders.js';
import { itemsService } from './stock/items.js';
import { publishService } from './stock/publish.js';
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
}

/**
 * The marketplace service over one SQLite database: every rule of SPEC.md lives below this
 * function, with no Electron or HTTP imports. Adapters (HTTP, IPC, sync) call these areas.
 */
export function createService(db: Db, options: ServiceOptions = {}) {
  const clock = options.clock ?? systemClock;
  const jobs = new JobRunner(db, { clock, pollMs: options.jobPollMs ?? 1000 });
  /** Every acknowledged write goes through here: one fsync per batch, not per request. */
  const writes = new GroupCommit(db);
  const repos = { auth: authRepo(db), users: usersRepo(db), stock: stockRepo(db) };

  const auth = authService(repos.auth, clock);
  const users = usersService(repos.users);
  const stores = storesService(repos.stock, repos.users);
  const stock = stockService(repos.stock, stores, jobs, writes);
  const items = itemsService(writes, repos.stock, repos.users, stores, stock, clock);
  const brands = brandsService(db, brandsRepo(db), repos.users);
  // The official-store rules of SPEC 7.4 apply to every listing flow.
  items.addListingCheck(brands.listingCheck);
  const publish = publishService(writes, repos.stock, repos.users, items, clock);
  const attachments = attachmentsService(db, attachmentsRepo(db), { dir: options.attachmentsDir ?? defaultAttachmentsDir(db), clock, jobs });
  const messagesData = messagesRepo(db);
  const orders = ordersService(messagesData);
  const messages = messagesService({ db, repo: messagesData, auth, attachments, jobs, writes, clock, mediationSite: options.mediationSite });

  return {
    db,
    clock,
    jobs,
    writes,
    auth,
    users,
    stores,
    stock,
    items,
    publish,
    brands,
    attachments,
    orders,
    messages,
    /** Starts background work (durable jobs). */
    start(): void {
      jobs.start();
    },
    /** Stops background work, waiting for the job in progress; the caller closes the database. */
    async stop(): Promise<void> {
      await jobs.stop();
    },
  };
}
export type Service = ReturnType<typeof createService>;
