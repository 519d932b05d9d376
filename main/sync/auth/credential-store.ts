import { type Db, openDatabase } from '../../db/open.js';
import { type CredentialsRepo, credentialsRepo } from '../../db/repos/credentials.js';
import type { Credentials } from './loopback-sign-in.js';
import { RefreshFailedError } from './errors.js';

/**
 * Turns a token into an opaque blob and back. The Electron shell passes the OS keychain
 * (`safeStorageCipher(safeStorage)`); outside Electron (tests, the CLI) `plainCipher` stores the
 * bytes as they are. Async implementations are accepted.
 */
export interface Cipher {
  encrypt(plain: string): Buffer | Promise<Buffer>;
  decrypt(blob: Buffer): string | Promise<string>;
  /** How well the stored bytes are protected (absent: `none`); the app tells the person when not by a keychain. */
  readonly protection?: Protection;
}

/**
 * keychain: the OS keychain holds the key (Keychain, DPAPI, libsecret, KWallet); obfuscated:
 * Chromium's hard-coded fallback key (anyone who can read the file can decrypt it); none: the bytes
 * as they are.
 */
export type Protection = 'keychain' | 'obfuscated' | 'none';

export const protectionOf = (c: Cipher): Protection => c.protection ?? 'none';

/** NOT encryption: UTF-8 bytes as they are. For tests and for Node without a keychain. */
export const plainCipher: Cipher = {
  encrypt: (plain) => Buffer.from(plain, 'utf8'),
  decrypt: (blob) => blob.toString('utf8'),
  protection: 'none',
};

/** The part of Electron's `safeStorage` used here (structural: no Electron import in this folder). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(blob: Buffer): string;
  /** Electron 45+: preferred when present (the sync pair is deprecated there). */
  encryptStringAsync?(plain: string): Promise<Buffer>;
  decryptStringAsync?(blob: Buffer): Promise<{ result: string }>;
  getSelectedStorageBackend?(): string;
}

/** Thrown when the OS keychain cannot protect the tokens. */
export class KeychainUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeychainUnavailableError';
  }
}

/**
 * The OS keychain through Electron `safeStorage` (Keychain on macOS, DPAPI on Windows, libsecret or
 * KWallet on Linux). Refuses when encryption is unavailable, and on Linux when the backend is
 * `basic_text` (a hard-coded key: not a keychain) unless `allowBasicText` is set; the shell then
 * decides (keep the session in memory only, or warn and accept).
 */
export function safeStorageCipher(safeStorage: SafeStorageLike, options: { allowBasicText?: boolean } = {}): Cipher {
  if (!safeStorage.isEncryptionAvailable()) throw new KeychainUnavailableError('The operating system keychain is not available');
  const basicText = safeStorage.getSelectedStorageBackend?.() === 'basic_text';
  if (!options.allowBasicText && basicText) {
    throw new KeychainUnavailableError('No keychain was found (safeStorage backend basic_text)');
  }
  return {
    protection: basicText ? 'obfuscated' : 'keychain',
    encrypt: (s) => (safeStorage.encryptStringAsync ? safeStorage.encryptStringAsync(s) : safeStorage.encryptString(s)),
    decrypt: async (b) => (safeStorage.decryptStringAsync ? (await safeStorage.decryptStringAsync(b)).result : safeStorage.decryptString(b)),
  };
}

export interface StoredCredentials extends Credentials {
  /** Bumped by every write: tells which of two readings is newer. */
  generation: number;
}

/** Reads and writes allowed while the store's lock is held. */
export interface LockedCredentials {
  load(profile: string): Promise<StoredCredentials | undefined>;
  /** Writes the credentials; they become visible to other processes when the lock is released. */
  write(profile: string, credentials: Credentials): Promise<StoredCredentials>;
  remove(profile: string): void;
}

export interface CredentialStoreOptions {
  /** How long `withLock` waits for another process's refresh (default 30 s). */
  lockTimeoutMs?: number;
  now?: () => number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The desktop app's credentials (table `client_credentials`, one row per profile), with token
 * values encrypted by the injected cipher.
 *
 * `withLock` is the cross-process lock of a refresh: a SQLite `BEGIN IMMEDIATE` transaction held
 * while the refresh request is in flight, so one process at a time reads the newest refresh token,
 * sends it and writes its successor; the others wait, then read what it wrote. The lock is taken
 * without blocking the event loop (busy_timeout 0 and an async retry), so two stores in one process
 * cannot deadlock. It is released by COMMIT (or ROLLBACK on failure), or by the OS if the process
 * dies.
 *
 * The store must own its connection (nothing else may run transactions on it), and the connection
 * should be to a file of its own (`CredentialStore.open`): the write lock held during a network
 * round-trip would otherwise make the other writers of that file wait.
 */
export class CredentialStore {
  private readonly repo: CredentialsRepo;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly lockTimeoutMs: number;
  private readonly now: () => number;

  /** Opens (creating and migrating) a database file dedicated to credentials. */
  static open(file: string, cipher: Cipher, options: CredentialStoreOptions = {}): CredentialStore {
    return new CredentialStore(openDatabase(file), cipher, options, true);
  }

  /**
   * A store that writes nothing to disk (an in-memory SQLite database): the session lasts as long
   * as the process, for a person who chose not to stay signed in on this computer.
   */
  static inMemory(options: CredentialStoreOptions = {}): CredentialStore {
    return new CredentialStore(openDatabase(':memory:'), plainCipher, options, true);
  }

  constructor(
    private readonly db: Db,
    private readonly cipher: Cipher,
    options: CredentialStoreOptions = {},
    private readonly ownsDb = false,
  ) {
    this.lockTimeoutMs = options.lockTimeoutMs ?? 30_000;
    this.now = options.now ?? (() => Date.now());
    this.repo = credentialsRepo(db);
  }

  /** The stored credentials (the last committed ones), decrypted; undefined when none. */
  async load(profile: string): Promise<StoredCredentials | undefined> {
    const row = this.repo.get(profile);
    if (!row) return undefined;
    return {
      baseUrl: row.base_url,
      applicationId: row.application_id,
      userId: row.user_id,
      accessToken: await this.cipher.decrypt(row.access_token),
      accessIssuedAt: row.access_issued_at,
      accessExpiresAt: row.access_expires_at,
      refreshToken: await this.cipher.decrypt(row.refresh_token),
      scope: row.scope,
      generation: row.generation,
    };
  }

  /** Stores new credentials for the profile (after a sign-in), replacing what was there. */
  save(profile: string, credentials: Credentials): Promise<StoredCredentials> {
    return this.withLock((tx) => tx.write(profile, credentials));
  }

  remove(profile: string): Promise<void> {
    return this.withLock(async (tx) => tx.remove(profile));
  }

  /**
   * Runs `fn` holding the write lock of the credentials database: committed when `fn` resolves,
   * rolled back when it throws. Calls in this process queue; other processes wait for the lock.
   */
  withLock<T>(fn: (tx: LockedCredentials) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      await this.begin();
      try {
        const result = await fn({
          load: (profile) => this.load(profile),
          write: async (profile, c) => {
            const access = await this.cipher.encrypt(c.accessToken);
            const refresh = await this.cipher.encrypt(c.refreshToken);
            this.repo.upsert({
              profile,
              base_url: c.baseUrl,
              application_id: c.applicationId,
              user_id: c.userId,
              access_token: access,
              access_issued_at: c.accessIssuedAt,
              access_expires_at: c.accessExpiresAt,
              refresh_token: refresh,
              scope: c.scope,
              updated_at: this.now(),
            });
            return { ...c, generation: this.repo.get(profile)!.generation };
          },
          remove: (profile) => this.repo.remove(profile),
        });
        this.repo.commit();
        return result;
      } catch (e) {
        this.repo.rollback();
        throw e;
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async begin(): Promise<void> {
    // Real time, whatever clock the tokens use: this is how long a person would wait.
    const deadline = Date.now() + this.lockTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      if (this.repo.tryBegin()) return;
      if (Date.now() >= deadline) throw new RefreshFailedError('Another process kept the credentials locked for too long');
      await sleep(Math.min(5 * 2 ** attempt, 50) + Math.random() * 10);
    }
  }

  close(): void {
    if (this.ownsDb) this.db.close();
  }
}
