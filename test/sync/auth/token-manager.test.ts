import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../main/db/open.js';
import { type Cipher, CredentialStore, KeychainUnavailableError, plainCipher, safeStorageCipher } from '../../../main/sync/auth/credential-store.js';
import { NotSignedInError, OAuthError, RefreshFailedError, SessionExpiredError, SignInAbortedError } from '../../../main/sync/auth/errors.js';
import { signIn } from '../../../main/sync/auth/loopback-sign-in.js';
import { TokenManager, staticTokenProvider } from '../../../main/sync/auth/token-manager.js';
import { demo, demoFixtures } from '../../support/fixtures.js';
import { answerConsent, authedGet, browserThatApproves, manualClock, sha256 } from '../../support/oauth.js';
import { type TestServer, startTestServer } from '../../support/server.js';
import { waitFor } from '../../support/wait.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const userPath = `/users/${demo.seller.id}`;
const TTL = 600;

/** Everything written to the console or to stdout/stderr while these tests run. */
const output: string[] = [];
/** Every token value the tests saw, checked against `output` at the end. */
const secrets = new Set<string>();

let dir: string;
let files = 0;
const newFile = () => join(dir, `credentials-${++files}.db`);

/** A cipher whose blobs do not contain the plaintext, counting its calls. */
function testCipher() {
  const calls = { encrypt: 0, decrypt: 0 };
  const cipher: Cipher = {
    encrypt: (s) => {
      calls.encrypt++;
      return Buffer.from(`v1:${Buffer.from(s).toString('base64').split('').reverse().join('')}`);
    },
    decrypt: async (b) => {
      calls.decrypt++;
      return Buffer.from(b.toString().slice(3).split('').reverse().join(''), 'base64').toString();
    },
  };
  return { cipher, calls };
}

/** The server's view of the family of `refreshToken`: its newest token and whether it is revoked. */
function family(server: TestServer, refreshToken: string) {
  return server.db
    .prepare<[string], { id: string; current_refresh_hash: string; revoked_at: number | null; tokens: number }>(
      `SELECT g.id, g.current_refresh_hash, g.revoked_at, (SELECT count(*) FROM oauth_refresh_tokens WHERE family_id = g.id) AS tokens
         FROM oauth_refresh_tokens t JOIN oauth_grants g ON g.id = t.family_id WHERE t.token_hash = ?`,
    )
    .get(sha256(refreshToken));
}

/** Reads the stored credentials through a connection of its own, as a third process would. */
async function stored(file: string, profile = 'default') {
  const db = openDatabase(file);
  try {
    return await new CredentialStore(db, plainCipher).load(profile);
  } finally {
    db.close();
  }
}

/** The stored refresh token is the newest of its family on the server, and the family is alive. */
async function expectStoredIsNewest(server: TestServer, file: string) {
  const s = (await stored(file))!;
  secrets.add(s.accessToken).add(s.refreshToken);
  const f = family(server, s.refreshToken)!;
  expect(f.current_refresh_hash).toBe(sha256(s.refreshToken));
  expect(f.revoked_at).toBeNull();
  return { stored: s, family: f };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stockroom-auth-'));
  for (const m of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void output.push(format(...args)));
  }
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      output.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
});
afterAll(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

describe('desktop sign-in and tokens (one server with a controllable clock)', () => {
  let server: TestServer;
  const clock = manualClock();
  beforeAll(async () => {
    server = await startTestServer(demoFixtures(), { clock, accessTokenTtlSeconds: TTL });
  });
  afterAll(async () => {
    // Every access token the server ever issued, none of which may have been printed.
    for (const r of server.db.prepare<[], { access_token: string }>('SELECT access_token FROM tokens WHERE grant_id IS NOT NULL').all())
      secrets.add(r.access_token);
    await server.close();
  });

  async function signedIn(file = newFile(), cipher: Cipher = plainCipher, extra: { onSessionExpired?: (e: SessionExpiredError) => void } = {}) {
    const store = CredentialStore.open(file, cipher);
    const manager = await TokenManager.signIn({ store, baseUrl: server.url, applicationId: demo.app, openExternal: browserThatApproves(), clock, ...extra });
    secrets.add(await manager.accessToken());
    return { file, store, manager };
  }

  describe('signIn through the system browser', () => {
    it('uses a loopback redirect, state and PKCE S256, and stores the tokens through the cipher', async () => {
      const opened: string[] = [];
      const { cipher, calls } = testCipher();
      const file = newFile();
      const store = CredentialStore.open(file, cipher);
      const manager = await TokenManager.signIn({
        store,
        baseUrl: server.url,
        applicationId: demo.app,
        openExternal: browserThatApproves('DEPOSITO_NORTE', opened),
        clock,
      });

      const url = new URL(opened[0]!);
      expect(`${url.origin}${url.pathname}`).toBe(`${server.url}/authorization`);
      expect(url.searchParams.get('response_type')).toBe('code');
      expect(url.searchParams.get('client_id')).toBe(String(demo.app));
      expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(url.searchParams.get('state')!.length).toBeGreaterThanOrEqual(32);

      expect(manager.userId).toBe(demo.seller.id);
      expect(manager.applicationId).toBe(demo.app);
      const token = await manager.accessToken();
      secrets.add(token);
      expect((await authedGet(server.url, manager, userPath)).status).toBe(200);

      // On disk: cipher output only.
      expect(calls.encrypt).toBe(2);
      const db = openDatabase(file);
      const raw = db.prepare<[], { access_token: Buffer; refresh_token: Buffer }>('SELECT access_token, refresh_token FROM client_credentials').get()!;
      db.close();
      expect(raw.access_token.toString()).not.toContain(token);
      expect(raw.access_token.toString().startsWith('v1:')).toBe(true);
      const again = await new CredentialStore(openDatabase(file), cipher).load('default');
      expect(again?.accessToken).toBe(token);
      secrets.add(again!.refreshToken);

      // The one-shot listener is gone.
      await expect(fetch(url.searchParams.get('redirect_uri')!)).rejects.toThrow();
      store.close();
    });

    it('a denial rejects with access_denied and stores nothing', async () => {
      const file = newFile();
      const store = CredentialStore.open(file, plainCipher);
      const deny = async (url: string) => {
        const r = await answerConsent(url, { decision: 'deny' });
        await (await fetch(r.location!)).text();
      };
      const err = await TokenManager.signIn({ store, baseUrl: server.url, applicationId: demo.app, openExternal: deny }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OAuthError);
      expect((err as OAuthError).code).toBe('access_denied');
      expect(await store.load('default')).toBeUndefined();
      store.close();
    });

    it('ignores a callback with another state, then completes with the right one', async () => {
      let wrongStatus = 0;
      const credentials = await signIn({
        baseUrl: server.url,
        applicationId: demo.app,
        clock,
        openExternal: async (url) => {
          const redirect = new URL(url).searchParams.get('redirect_uri')!;
          const wrong = await fetch(`${redirect}?code=forged&state=not-the-state`);
          wrongStatus = wrong.status;
          await wrong.text();
          await browserThatApproves()(url);
        },
      });
      secrets.add(credentials.accessToken).add(credentials.refreshToken);
      expect(wrongStatus).toBe(400);
      expect(credentials.userId).toBe(demo.seller.id);
    });

    it('gives up after its timeout, or when cancelled, and closes the listener', async () => {
      let redirect = '';
      // Nobody approves: only the sign-in's own timeout ends it (no clock asserted).
      const err = await signIn({
        baseUrl: server.url,
        applicationId: demo.app,
        timeoutMs: 200,
        openExternal: async (url) => void (redirect = new URL(url).searchParams.get('redirect_uri')!),
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SignInAbortedError);
      await expect(fetch(redirect)).rejects.toThrow();

      const controller = new AbortController();
      const cancelled = signIn({ baseUrl: server.url, applicationId: demo.app, signal: controller.signal, openExternal: async () => controller.abort() });
      await expect(cancelled).rejects.toBeInstanceOf(SignInAbortedError);
    });

    it('a browser that cannot be opened fails the sign-in', async () => {
      const err = await signIn({ baseUrl: server.url, applicationId: demo.app, openExternal: () => Promise.reject(new Error('no browser')) }).catch(
        (e: unknown) => e,
      );
      expect((err as Error).message).toBe('no browser');
    });
  });

  describe('one process', () => {
    it('tokens that expire mid-burst: 50 concurrent callers, no failed call, exactly one refresh per expiry', async () => {
      const { manager, file, store } = await signedIn();
      const first = await expectStoredIsNewest(server, file);
      let done = 0;
      let recovered = 0;
      const statuses: number[] = [];
      // Calls in flight per token lifetime ("epoch"): a call may see its token expire once, as in
      // life (a request does not outlast a 6-hour token twice), so the second expiry waits until
      // the calls that started before the first one are over.
      let epoch = 0;
      const active = [0, 0, 0];
      const workers = Array.from({ length: 50 }, async () => {
        for (let i = 0; i < 6; i++) {
          const mine = epoch;
          active[mine]!++;
          const r = await authedGet(server.url, manager, userPath);
          active[mine]!--;
          r.tokens.forEach((t) => secrets.add(t));
          statuses.push(r.status);
          if (r.recovered401) recovered++;
          done++;
          await new Promise((res) => setImmediate(res));
        }
      });
      const burst = Promise.all(workers);
      await waitFor(() => done >= 100, '100 calls done');
      clock.advance(TTL * 1000 + 1000); // first expiry, mid-burst, with calls in flight
      epoch = 1;
      await waitFor(() => done >= 200 && active[0] === 0, '200 calls done, none left of the first token lifetime');
      clock.advance(TTL * 1000 + 1000); // second expiry
      epoch = 2;
      await burst;

      expect(statuses).toHaveLength(300);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(manager.refreshCount).toBe(2);
      const after = await expectStoredIsNewest(server, file);
      expect(after.family.id).toBe(first.family.id);
      expect(after.family.tokens).toBe(3);
      // Calls that sent a token just before it expired got a 401 and recovered with the new one.
      expect(recovered).toBeGreaterThan(0);
      output.push(`recovered 401s: ${recovered}`);
      store.close();
    });

    it('refreshes ahead of expiry (within the margin), not only after it', async () => {
      const { manager, store } = await signedIn();
      const before = await manager.accessToken();
      clock.advance((TTL - 30) * 1000); // 30 s left, margin is 60 s (10% of 10 min)
      const after = await manager.accessToken();
      secrets.add(after);
      expect(after).not.toBe(before);
      expect(manager.refreshCount).toBe(1);
      expect(await manager.accessToken()).toBe(after);
      store.close();
    });

    it('20 callers that got a 401 for the same token cause one refresh', async () => {
      const { manager, store } = await signedIn();
      const rejected = await manager.accessToken();
      clock.advance(TTL * 1000 + 1);
      const tokens = await Promise.all(Array.from({ length: 20 }, () => manager.refreshAfter401(rejected)));
      expect(new Set(tokens).size).toBe(1);
      expect(tokens[0]).not.toBe(rejected);
      expect(manager.refreshCount).toBe(1);
      // A late 401 for the old token does not refresh again.
      expect(await manager.refreshAfter401(rejected)).toBe(tokens[0]);
      expect(manager.refreshCount).toBe(1);
      store.close();
    });

    it('refreshes after a 401 even when the token looked valid (revoked or clock skew)', async () => {
      const { manager, store, file } = await signedIn();
      const token = await manager.accessToken();
      server.db.prepare('DELETE FROM tokens WHERE access_token = ?').run(token);
      const r = await authedGet(server.url, manager, userPath);
      r.tokens.forEach((t) => secrets.add(t));
      expect(r).toMatchObject({ status: 200, recovered401: true });
      expect(manager.refreshCount).toBe(1);
      await expectStoredIsNewest(server, file);
      store.close();
    });

    it('the new pair is committed before the new access token is handed out', async () => {
      const { manager, file, store } = await signedIn();
      clock.advance(TTL * 1000 + 1);
      const seenAtResolve = await manager.accessToken().then(async (token) => ({ token, stored: await stored(file) }));
      expect(seenAtResolve.stored?.accessToken).toBe(seenAtResolve.token);
      await expectStoredIsNewest(server, file);
      store.close();
    });

    it('a refused refresh (family revoked) ends the session: SessionExpiredError, credentials removed, no token in the error', async () => {
      const expired: SessionExpiredError[] = [];
      const { manager, file, store } = await signedIn(newFile(), plainCipher, { onSessionExpired: (e) => expired.push(e) });
      const s = (await stored(file))!;
      // Someone else (a copied token) refreshes with the stored token: the store now holds an old one.
      const stolen = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: s.refreshToken, client_id: String(demo.app) }).toString(),
      });
      const stolenBody = (await stolen.json()) as { access_token: string; refresh_token: string };
      secrets.add(stolenBody.access_token).add(stolenBody.refresh_token);
      clock.advance(TTL * 1000 + 1);
      const err = await manager.accessToken().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SessionExpiredError);
      console.error(err);
      for (const t of [s.accessToken, s.refreshToken, stolenBody.refresh_token]) expect(String((err as Error).message)).not.toContain(t);
      expect(expired).toHaveLength(1);
      expect(await stored(file)).toBeUndefined();
      await expect(manager.accessToken()).rejects.toBeInstanceOf(SessionExpiredError);
      await expect(manager.refreshAfter401('x')).rejects.toBeInstanceOf(SessionExpiredError);
      expect(family(server, s.refreshToken)!.revoked_at).not.toBeNull();
      store.close();
    });

    it('a server that cannot be reached: the current token is used while valid, then RefreshFailedError', async () => {
      const file = newFile();
      const store = CredentialStore.open(file, plainCipher);
      const now = clock.now();
      await store.save('default', {
        baseUrl: 'http://127.0.0.1:9',
        applicationId: demo.app,
        userId: demo.seller.id,
        accessToken: 'still-valid-token',
        accessIssuedAt: now - 590_000,
        accessExpiresAt: now + 10_000,
        refreshToken: 'refresh-token-value',
        scope: 'offline_access read write',
      });
      const manager = await TokenManager.open({ store, clock, requestTimeoutMs: 2000 });
      expect(await manager.accessToken()).toBe('still-valid-token');
      clock.advance(11_000);
      const err = await manager.accessToken().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RefreshFailedError);
      expect((err as Error).message).not.toContain('refresh-token-value');
      // Nothing was lost: the stored refresh token is still there for a later attempt.
      expect((await stored(file))?.refreshToken).toBe('refresh-token-value');
      store.close();
    });

    it('sign-out removes the stored session; opening it again is NotSignedInError', async () => {
      const { manager, file, store } = await signedIn();
      await manager.signOut();
      expect(await stored(file)).toBeUndefined();
      await expect(manager.accessToken()).rejects.toBeInstanceOf(NotSignedInError);
      await expect(TokenManager.open({ store, clock })).rejects.toBeInstanceOf(NotSignedInError);
      store.close();
    });

    it('prints without its tokens', async () => {
      const { manager, store } = await signedIn();
      const token = await manager.accessToken();
      console.log(manager);
      console.log(JSON.stringify(manager));
      expect(inspect(manager)).not.toContain(token);
      expect(JSON.stringify(manager)).not.toContain(token);
      expect(inspect(manager)).toContain(String(demo.seller.id));
      store.close();
    });
  });

  describe('two processes over one credentials file', () => {
    it('expiring together, for five rounds: one refresh per round, no failed call, the stored token is always the newest', async () => {
      const { file, store: storeA } = await signedIn();
      // Two "processes": separate stores over separate connections to the same file.
      const storeB = CredentialStore.open(file, plainCipher);
      const a = await TokenManager.open({ store: storeA, clock });
      const b = await TokenManager.open({ store: storeB, clock });
      const { family: start } = await expectStoredIsNewest(server, file);
      for (let round = 1; round <= 5; round++) {
        clock.advance(TTL * 1000 + 1);
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => authedGet(server.url, i % 2 ? a : b, userPath)));
        results.forEach((r) => r.tokens.forEach((t) => secrets.add(t)));
        expect(results.every((r) => r.status === 200)).toBe(true);
        expect(a.refreshCount + b.refreshCount).toBe(round);
        const { family: now } = await expectStoredIsNewest(server, file);
        expect(now.id).toBe(start.id);
        expect(now.tokens).toBe(round + 1);
      }
      storeA.close();
      storeB.close();
    });

    it('both get a 401 for the same token at once: one refresh, both retry with its token', async () => {
      const { file, store: storeA } = await signedIn();
      const storeB = CredentialStore.open(file, plainCipher);
      const a = await TokenManager.open({ store: storeA, clock });
      const b = await TokenManager.open({ store: storeB, clock });
      const rejected = await a.accessToken();
      expect(await b.accessToken()).toBe(rejected);
      clock.advance(TTL * 1000 + 1);
      const [ta, tb] = await Promise.all([a.refreshAfter401(rejected), b.refreshAfter401(rejected)]);
      secrets.add(ta);
      expect(ta).toBe(tb);
      expect(a.refreshCount + b.refreshCount).toBe(1);
      await expectStoredIsNewest(server, file);
      storeA.close();
      storeB.close();
    });

    it('a process with an old token in memory takes the one another process stored', async () => {
      const { manager: a, file, store: storeA } = await signedIn();
      const storeB = CredentialStore.open(file, plainCipher);
      const b = await TokenManager.open({ store: storeB, clock });
      clock.advance(TTL * 1000 + 1);
      const fromA = await a.accessToken();
      expect(a.refreshCount).toBe(1);
      expect(await b.accessToken()).toBe(fromA);
      expect(b.refreshCount).toBe(0);
      storeA.close();
      storeB.close();
    });
  });
});

describe('a real second process refreshing against the same credentials (real clock, 1 s tokens)', () => {
  it('no call fails, refreshes never collide, and the stored refresh token is the newest', async () => {
    const server = await startTestServer(demoFixtures(), { accessTokenTtlSeconds: 1 });
    try {
      const file = newFile();
      const store = CredentialStore.open(file, plainCipher);
      const manager = await TokenManager.signIn({ store, baseUrl: server.url, applicationId: demo.app, openExternal: browserThatApproves() });
      const { family: start } = await expectStoredIsNewest(server, file);

      // Both processes call until what the test checks has happened (not for a while): the child
      // refreshed at least once, the two together at least three times, both made over 20 calls.
      // The child reports its counts as it goes (`progress <calls> <refreshes>`) and stops when
      // its stdin says so.
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/sync/auth/refresh-worker.ts', file, server.url, userPath, '8'], {
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let childOut = '';
      const progress = { calls: 0, refreshes: 0 };
      child.stdout.on('data', (d: Buffer) => {
        childOut += d.toString();
        for (const m of childOut.matchAll(/^progress (\d+) (\d+)$/gm)) Object.assign(progress, { calls: Number(m[1]), refreshes: Number(m[2]) });
      });
      child.stderr.on('data', (d: Buffer) => (childOut += d.toString()));
      const exited = new Promise<number | null>((r) => child.on('exit', r));

      let stopped = false;
      const statuses: number[] = [];
      const callers = Promise.all(
        Array.from({ length: 8 }, async () => {
          while (!stopped) {
            const r = await authedGet(server.url, manager, userPath);
            statuses.push(r.status);
            await new Promise((res) => setTimeout(res, 5));
          }
        }),
      );
      try {
        await waitFor(
          () => progress.refreshes > 0 && manager.refreshCount + progress.refreshes >= 3 && progress.calls > 20 && statuses.length > 20,
          'both processes calling, the child refreshing at least once, three refreshes in all',
          60_000,
        );
      } finally {
        stopped = true;
        child.stdin.end('stop\n');
        await callers;
      }
      expect(await exited).toBe(0);
      output.push(childOut);
      const summary = JSON.parse(childOut.trim().split('\n').pop()!) as { calls: number; failures: number; refreshes: number; errors: string[] };

      expect(statuses.length).toBeGreaterThan(20);
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(summary.calls).toBeGreaterThan(20);
      expect(summary).toMatchObject({ failures: 0, errors: [] });
      const { family: end } = await expectStoredIsNewest(server, file);
      expect(end.id).toBe(start.id);
      // Every refresh either process sent was accepted as the newest: none was a reuse.
      expect(end.tokens - 1).toBe(manager.refreshCount + summary.refreshes);
      expect(end.tokens - 1).toBeGreaterThanOrEqual(3);
      expect(summary.refreshes).toBeGreaterThan(0);
      for (const r of server.db.prepare<[], { access_token: string }>('SELECT access_token FROM tokens WHERE grant_id IS NOT NULL').all())
        secrets.add(r.access_token);
      store.close();
    } finally {
      await server.close();
    }
  });
});

describe('other providers and ciphers', () => {
  it('staticTokenProvider hands out its token and cannot refresh', async () => {
    const p = staticTokenProvider(demo.seller.token, demo.app, demo.seller.id);
    expect(p.applicationId).toBe(demo.app);
    expect(p.userId).toBe(demo.seller.id);
    expect(await p.accessToken()).toBe(demo.seller.token);
    await expect(p.refreshAfter401(demo.seller.token)).rejects.toBeInstanceOf(SessionExpiredError);
    expect(inspect(p)).not.toContain(demo.seller.token);
    await p.signOut();
    await expect(p.accessToken()).rejects.toBeInstanceOf(NotSignedInError);
  });

  it('safeStorageCipher uses the keychain and refuses when there is none', async () => {
    const fake = {
      isEncryptionAvailable: () => true,
      encryptString: (s: string) => Buffer.from(`enc(${s})`),
      decryptString: (b: Buffer) => b.toString().slice(4, -1),
      getSelectedStorageBackend: () => 'gnome_libsecret',
    };
    const c = safeStorageCipher(fake);
    expect(await c.encrypt('abc')).toEqual(Buffer.from('enc(abc)'));
    expect(await c.decrypt(Buffer.from('enc(abc)'))).toBe('abc');
    const asyncOnes = safeStorageCipher({
      ...fake,
      encryptStringAsync: async (s: string) => Buffer.from(`async(${s})`),
      decryptStringAsync: async (b: Buffer) => ({ result: b.toString().slice(6, -1) }),
    });
    expect(await asyncOnes.encrypt('abc')).toEqual(Buffer.from('async(abc)'));
    expect(await asyncOnes.decrypt(Buffer.from('async(abc)'))).toBe('abc');
    expect(() => safeStorageCipher({ ...fake, isEncryptionAvailable: () => false })).toThrow(KeychainUnavailableError);
    expect(() => safeStorageCipher({ ...fake, getSelectedStorageBackend: () => 'basic_text' })).toThrow(KeychainUnavailableError);
    expect(() => safeStorageCipher({ ...fake, getSelectedStorageBackend: () => 'basic_text' }, { allowBasicText: true })).not.toThrow();
  });
});

describe('logs', () => {
  it('no token ever appeared in console output or on stdout/stderr', () => {
    expect(secrets.size).toBeGreaterThan(20);
    const text = output.join('\n');
    expect(text.length).toBeGreaterThan(0);
    const leaked = [...secrets].filter((s) => s.length >= 16 && text.includes(s));
    expect(leaked).toEqual([]);
  });
});
