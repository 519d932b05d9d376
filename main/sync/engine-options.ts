import type { Mode, PullProgressView, SyncStatusView } from '../../common/views.js';
import type { Db } from '../db/open.js';
import type { OutboxRow } from '../db/repos/sync.js';
import type { Clock } from '../service/clock.js';
import type { MessageView } from '../service/messages/views.js';
import type { ClientOptions, TokenProvider } from './client.js';
import type { BudgetRates, RequestBudget } from './budget.js';
import type { LaneEntry, SyncRepo } from '../db/repos/sync.js';
import { COUNTED, type LaneCounts, emptyLaneCounts, laneCounts } from './lanes.js';
import type { PullReport } from './pull.js';
import type { RetryPolicy } from './retry.js';

/** online: push and pull; offline: queue only (the user chose so); local-only: no remote; the database is the marketplace and the service edits it (no outbox). */
export type SyncMode = Mode;

export interface SyncEngineOptions {
  /** The replica (openDatabase: every migration, 007 included). One engine per replica. */
  db: Db;
  /** The seller this replica belongs to. */
  sellerId: number;
  /** The remote marketplace API (required unless local-only). */
  baseUrl?: string;
  /** Access token and application id of every request (required unless local-only). */
  auth?: TokenProvider;
  mode?: SyncMode;
  /** Pull every this many ms while online (default 60 s; 0: only on demand and at start). */
  pollIntervalMs?: number;
  /** Entries pushed at the same time (different lanes), and connections to the remote (default 8). */
  concurrency?: number;
  clock?: Clock;
  retry?: Partial<RetryPolicy>;
  /** The app's own file store (queued attachments, downloaded files). */
  filesDir: string;
  /** Where "mediation in process" blocks sending (SPEC 7.6), as on the remote (default MLB). */
  mediationSite?: string;
  /** Most user products whose stock one pull reads (default 5000). */
  stockBatch?: number;
  /** Pull when started online (default true). */
  pullOnStart?: boolean;
  /** Limits of each request to the remote (client.ts): timeouts, the answer's size cap and its overall deadline. */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number; maxBodyBytes?: number; deadlineMs?: number };
  /** Jitter source (tests pass a seeded one). */
  random?: () => number;
  /** WAL checkpoints in a worker thread every this many ms (default 1000); false leaves them to SQLite. */
  checkpointEveryMs?: number | false;
  /**
   * The marketplace's per-application request limits (budget.ts): requests a minute per resource
   * (DEFAULT_BUDGET where not given, 'unlimited' for none), or a budget shared by every engine of
   * the same application.
   */
  budget?: BudgetRates | RequestBudget;
  /** One PUT per user product for its due seller_warehouse entries (stock-batch.ts; default true); false sends each entry alone. */
  batch?: boolean;
}

/** What the status bar shows (its shape is in common/views.ts): connection, counts, progress. */
export type SyncStatus = SyncStatusView;

export interface SyncEvents {
  progress: [SyncStatus];
  synced: [{ entryId: number; kind: OutboxRow['kind']; replayed: boolean }];
  conflict: [{ entryId: number; cell: string }];
  /** An entry taken back once its outcome was learnt: it had not been applied (model.ts). */
  withdrawn: [{ entryId: number; kind: OutboxRow['kind'] }];
  failed: [{ entryId: number; status: number | null; error: string }];
  retry: [{ entryId: number; status: number | null; error: string; delayMs: number }];
  message: [MessageView];
  online: [];
  offline: [string];
  pulled: [PullReport];
  /** Products whose stock a first pull read for the first time (their rows changed; pull.ts). */
  'stock-read': [string[]];
  /** How far the pull in progress is (pull.ts: each step's start and end, about every 1% between). */
  'pull-progress': [PullProgressView];
  'sync-error': [Error];
}

/** The remote client's options from the engine's. */
export function clientOptions(options: SyncEngineOptions, auth: TokenProvider, baseUrl: string, connections: number): ClientOptions {
  const t = options.timeouts;
  return {
    baseUrl,
    auth,
    connections,
    ...(t?.connectMs !== undefined ? { connectTimeoutMs: t.connectMs } : {}),
    ...(t?.headersMs !== undefined ? { headersTimeoutMs: t.headersMs } : {}),
    ...(t?.bodyMs !== undefined ? { bodyTimeoutMs: t.bodyMs } : {}),
    ...(t?.maxBodyBytes !== undefined ? { maxBodyBytes: t.maxBodyBytes } : {}),
    ...(t?.deadlineMs !== undefined ? { deadlineMs: t.deadlineMs } : {}),
  };
}

/** Every active entry by lane, each row kept as read (a start reads every active entry). */
export function loadLanes(repo: SyncRepo): Map<string, LaneEntry[]> {
  const byLane = new Map<string, LaneEntry[]>();
  for (const r of repo.activeLanes()) {
    const list = byLane.get(r.lane);
    if (list) list.push(r);
    else byLane.set(r.lane, [r]);
  }
  return byLane;
}

/** The lane counts of the whole outbox read from SQLite (before the scheduler has loaded it). */
export function countAll(repo: SyncRepo): LaneCounts {
  const total = emptyLaneCounts();
  for (const rows of loadLanes(repo).values()) {
    const c = laneCounts(rows);
    for (const k of COUNTED) total[k] += c[k];
  }
  return total;
}

export function lastPullAt(repo: SyncRepo): number | null {
  const v = repo.getState('last_pull_at');
  return v === undefined ? null : Number(v);
}
