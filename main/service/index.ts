import type { Db } from '../db/open.js';
import { authRepo } from '../db/repos/auth.js';
import { stockRepo } from '../db/repos/stock.js';
import { usersRepo } from '../db/repos/users.js';
import { authService } from './auth/auth.js';
import { type Clock, systemClock } from './clock.js';
import { JobRunner } from './jobs/runner.js';
import { itemsService } from './stock/items.js';
import { stockService } from './stock/stock.js';
import { storesService } from './stock/stores.js';
import { usersService } from './users/users.js';

export interface ServiceOptions {
  clock?: Clock;
  /** Poll interval of the job runner (ms). */
  jobPollMs?: number;
}

/**
 * The marketplace service over one SQLite database: every rule of SPEC.md lives below this
 * function, with no Electron or HTTP imports. Adapters (HTTP, IPC, sync) call these areas.
 */
export function createService(db: Db, options: ServiceOptions = {}) {
  const clock = options.clock ?? systemClock;
  const jobs = new JobRunner(db, { clock, pollMs: options.jobPollMs ?? 1000 });
  const repos = { auth: authRepo(db), users: usersRepo(db), stock: stockRepo(db) };

  const auth = authService(repos.auth, clock);
  const users = usersService(repos.users);
  const stores = storesService(repos.stock, repos.users);
  const stock = stockService(db, repos.stock, stores, jobs);
  const items = itemsService(db, repos.stock, repos.users, stores, stock, clock);

  return {
    db,
    clock,
    jobs,
    auth,
    users,
    stores,
    stock,
    items,
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
