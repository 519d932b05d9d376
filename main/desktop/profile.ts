import { join } from 'node:path';
import { type Db, openDatabase } from '../db/open.js';
import { privateDir } from '../db/private-files.js';
import { type AttachmentsRepo, attachmentsRepo } from '../db/repos/attachments.js';
import { type MessagesRepo, messagesRepo } from '../db/repos/messages.js';
import { type UsersRepo, usersRepo } from '../db/repos/users.js';
import { ERROR_CODES } from '../../common/contract/contract.js';
import { type FixtureFile } from '../fixtures/schema.js';
import { isEmptyDatabase, loadFixtures } from '../fixtures/load.js';
import type { Principal } from '../service/auth/auth.js';
import type { Clock } from '../service/clock.js';
import type { OperatorStamp } from '../service/operators/operators.js';
import { type Service, createService } from '../service/index.js';
import type { RequestBudget } from '../sync/budget.js';
import { RemoteClient, type TokenProvider } from '../sync/client.js';
import { SyncEngine, type SyncEngineOptions } from '../sync/engine.js';
import { DesktopError } from './errors.js';
import { inboxReader } from './inbox.js';
import { outboxReader } from './outbox-view.js';

/** Engine settings a caller may tune (tests shorten the waits). */
export type EngineTuning = Pick<
  SyncEngineOptions,
  'pollIntervalMs' | 'retry' | 'pullOnStart' | 'random' | 'timeouts' | 'concurrency' | 'stockBatch' | 'budget'
>;

/** The database file of a profile; the attachments live in `attachments/` next to it. */
export const DB_FILE = 'stockroom.db';
export const ATTACHMENTS_DIR = 'attachments';

/**
 * One open database with its service and sync engine:
 * - local: `<dataDir>/stockroom.db`, the embedded service is the authority (demo data at the
 *   first start), the engine in `local-only` mode applies edits to it directly;
 * - remote: `<dataDir>/remote/<host>-<seller>/stockroom.db`, a replica of a remote marketplace
 *   (the engine pulls into its mirror and pushes the outbox). A replica starts empty: the pull
 *   fills it, so demo rows can never shadow the remote's versions.
 */
export interface Profile {
  kind: 'local' | 'remote';
  /** Identity of the profile: a change means closing this one and opening another. */
  key: string;
  dir: string;
  db: Db;
  service: Service;
  engine: SyncEngine;
  sellerId: number;
  principal: Principal;
  /** Who signs the edits in the cell history. */
  author: string;
  /**
   * The workstation's operator signed in now (issue 27), recorded beside the author on every edit;
   * null: none. Kept here, in the main process, so a reload of the page keeps it; a profile opened
   * anew starts with none (its operators are its database's).
   */
  operator: OperatorStamp | null;
  via: 'demo' | 'oauth' | 'token' | null;
  auth: TokenProvider | null;
  /** Direct calls to the remote (listing creation, read receipts); null for the local profile. */
  remote: RemoteClient | null;
  baseUrl: string | null;
  inbox: ReturnType<typeof inboxReader>;
  outbox: ReturnType<typeof outboxReader>;
  /** The statements the desktop reads the profile's database with, prepared once at open. */
  repos: ProfileRepos;
  mediationSite: string;
}

export interface ProfileRepos {
  users: UsersRepo;
  attachments: AttachmentsRepo;
  messages: MessagesRepo;
}

function profileRepos(db: Db): ProfileRepos {
  return { users: usersRepo(db), attachments: attachmentsRepo(db), messages: messagesRepo(db) };
}

/** The demo seller of the local profile: the user of the first token of the demo data. */
export function demoSeller(f: FixtureFile): Principal {
  const token = f.tokens?.[0];
  if (!token) throw new DesktopError(ERROR_CODES.internal, 'The demo data has no token: cannot pick the demo seller');
  return { userId: token.user_id, applicationId: token.application_id };
}

export interface LocalProfileOptions {
  dataDir: string;
  fixtures: FixtureFile;
  /** The demo seller the local profile acts as. */
  seller: Principal;
  clock?: Clock | undefined;
  jobPollMs?: number | undefined;
  engine?: EngineTuning | undefined;
}

export function openLocalProfile(o: LocalProfileOptions): Profile {
  const db = openDatabase(join(o.dataDir, DB_FILE));
  try {
    if (isEmptyDatabase(db)) loadFixtures(db, o.fixtures);
    const filesDir = join(o.dataDir, ATTACHMENTS_DIR);
    privateDir(filesDir);
    const service = createService(db, { attachmentsDir: filesDir, ...(o.clock ? { clock: o.clock } : {}), ...(o.jobPollMs ? { jobPollMs: o.jobPollMs } : {}) });
    const engine = new SyncEngine({ db, sellerId: o.seller.userId, mode: 'local-only', filesDir, ...(o.clock ? { clock: o.clock } : {}), ...(o.engine ?? {}) });
    service.start();
    engine.start();
    const repos = profileRepos(db);
    return {
      kind: 'local',
      key: 'local',
      dir: o.dataDir,
      db,
      service,
      engine,
      sellerId: o.seller.userId,
      principal: o.seller,
      author: repos.users.nickname(o.seller.userId) ?? 'local',
      operator: null,
      via: 'demo',
      auth: null,
      remote: null,
      baseUrl: null,
      inbox: inboxReader(db, 'MLB', repos.messages),
      outbox: outboxReader(db),
      repos,
      mediationSite: 'MLB',
    };
  } catch (e) {
    db.close();
    throw e;
  }
}

/** A folder name for a remote profile: the marketplace's host and port, and the seller. */
export function remoteProfileDir(dataDir: string, baseUrl: string, sellerId: number): string {
  const u = new URL(baseUrl);
  const host = `${u.hostname}${u.port ? `_${u.port}` : ''}${u.pathname.replace(/\/+$/, '')}`.replace(/[^A-Za-z0-9._-]+/g, '_');
  return join(dataDir, 'remote', `${host}-${sellerId}`);
}

export interface RemoteProfileOptions {
  dataDir: string;
  baseUrl: string;
  applicationId: number;
  sellerId: number;
  /** Null when signed out: the replica stays readable, the engine stays offline. */
  auth: TokenProvider | null;
  via: 'oauth' | 'token' | null;
  mode: 'online' | 'offline';
  key: string;
  clock?: Clock | undefined;
  engine?: EngineTuning | undefined;
  /** The request budget of the marketplace application (one per application in a process: profiles.ts). */
  budget?: RequestBudget | undefined;
}

/** A provider for a signed-out replica: every request fails until the person signs in. */
function signedOutProvider(applicationId: number): TokenProvider {
  const fail = () => Promise.reject(new Error('Not signed in to the marketplace'));
  return { applicationId, accessToken: fail, refreshAfter401: fail };
}

export function openRemoteProfile(o: RemoteProfileOptions): Profile {
  const dir = remoteProfileDir(o.dataDir, o.baseUrl, o.sellerId);
  privateDir(dir);
  const db = openDatabase(join(dir, DB_FILE));
  try {
    const filesDir = join(dir, ATTACHMENTS_DIR);
    privateDir(filesDir);
    // The service reads the mirror (threads, brands, stores, attachments); its background jobs do
    // not run on a replica: the remote decides moderation and propagation.
    const service = createService(db, { attachmentsDir: filesDir, ...(o.clock ? { clock: o.clock } : {}) });
    const auth = o.auth ?? signedOutProvider(o.applicationId);
    const engine = new SyncEngine({
      db,
      sellerId: o.sellerId,
      baseUrl: o.baseUrl,
      auth,
      mode: o.auth ? o.mode : 'offline',
      filesDir,
      ...(o.clock ? { clock: o.clock } : {}),
      ...(o.engine ?? {}),
      ...(o.budget ? { budget: o.budget } : {}),
    });
    engine.start();
    const repos = profileRepos(db);
    return {
      kind: 'remote',
      key: o.key,
      dir,
      db,
      service,
      engine,
      sellerId: o.sellerId,
      principal: { userId: o.sellerId, applicationId: o.applicationId },
      author: repos.users.nickname(o.sellerId) ?? 'local',
      operator: null,
      via: o.auth ? o.via : null,
      auth: o.auth,
      remote: o.auth ? new RemoteClient({ baseUrl: o.baseUrl, auth: o.auth, connections: 2 }) : null,
      baseUrl: o.baseUrl,
      inbox: inboxReader(db, 'MLB', repos.messages),
      outbox: outboxReader(db),
      repos,
      mediationSite: 'MLB',
    };
  } catch (e) {
    db.close();
    throw e;
  }
}

/** Stops the engine (it waits for the requests in flight: nothing queued is lost), then the service, then closes the database. */
export async function closeProfile(p: Profile): Promise<void> {
  p.engine.removeAllListeners();
  await p.engine.stop();
  await p.service.stop();
  await p.remote?.close().catch(() => undefined);
  p.db.close();
}
