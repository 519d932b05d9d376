import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DesktopCore } from '../../main/desktop/core.js';
import { PULL_PHASES, type PullProgressView, type StockroomEvent } from '../../common/views.js';
import { demo } from '../support/fixtures.js';
import { browserThatApproves } from '../support/oauth.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { FAST_RETRY } from '../support/sync-harness.js';
import { tempDirs } from '../support/temp-dir.js';
import { failure, until, value } from './helpers.js';

const engine = { pollIntervalMs: 0, pullOnStart: false, retry: FAST_RETRY };

/**
 * A pass-through HTTP proxy in front of the marketplace that keeps the token answers it carries:
 * the test knows the access and refresh tokens the app received, and can look for them on disk.
 */
async function tokenRecorder(target: string) {
  const tokens: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const out = request(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        if (req.url?.startsWith('/oauth/token') && answer.statusCode === 200) {
          const t = JSON.parse(body.toString('utf8')) as { access_token: string; refresh_token: string };
          tokens.push(t.access_token, t.refresh_token);
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers).end(body);
      });
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tokens,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Every file under `dir`, as bytes. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((p) => existsSync(p) && statSync(p).isFile())
    .map((path) => ({ path, bytes: readFileSync(path) }));
}

let remote: TestServer;
beforeAll(async () => {
  remote = await startTestServer();
});
afterAll(async () => {
  await remote.close();
});

const tmp = tempDirs('stockroom-connect-');

/** The welcome's steps (renderer/welcome/store.ts): staying signed in or not, the sign-in on the address given, online. */
async function connect(core: DesktopCore, baseUrl: string, extra: { keepSignedIn?: boolean } = {}) {
  const api = core.api;
  if (extra.keepSignedIn !== undefined) value(await api.settings.update({ keepSignedIn: extra.keepSignedIn }));
  value(await api.session.signIn({ baseUrl, applicationId: demo.app, siteId: 'MLA' }));
  value(await api.settings.update({ mode: 'online', start: 'account' }));
}

/**
 * The system browser, held: records the sign-in page it was asked to open and, once the test
 * says so, signs in there as `username` (or never does: the person walked away).
 */
function heldBrowser(username: string) {
  const opened: string[] = [];
  let decide: (approve: boolean) => void = () => undefined;
  const decided = new Promise<boolean>((r) => (decide = r));
  return {
    opened,
    approve: () => decide(true),
    openExternal: async (url: string) => {
      opened.push(url);
      if (await decided) await browserThatApproves(username)(url);
    },
  };
}

/** A core open on the demo seller's account online (a pasted token), the way the e2e tests connect it. */
async function openAsDemoSeller(openExternal: (url: string) => Promise<void>) {
  const core = await DesktopCore.open({ dataDir: tmp(), engine, log: () => undefined, host: { shell: 'browser', openExternal } });
  value(
    await core.api.settings.update({
      mode: 'online',
      baseUrl: remote.url,
      applicationId: demo.app,
      userId: demo.seller.id,
      accessToken: demo.seller.token,
      start: 'account',
    }),
  );
  expect(value(await core.api.session.status())).toMatchObject({ signedIn: true, via: 'token', user: { id: demo.seller.id } });
  expect(value(await core.api.sync.pullNow()).stores).toBe(3);
  return core;
}

/** Every step of `plan`, in order and numbered n of the plan's length, each ending complete, its count never going back. */
function expectSteps(progress: PullProgressView[], plan: readonly PullProgressView['phase'][]) {
  expect(progress.map((p) => p.phase).filter((p, i, all) => all[i - 1] !== p)).toEqual([...plan]);
  for (const [i, phase] of plan.entries()) {
    const steps = progress.filter((p) => p.phase === phase);
    for (const p of steps) expect(p).toMatchObject({ step: i + 1, steps: plan.length });
    expect(steps.at(-1)!.done).toBe(steps.at(-1)!.total);
    const dones = steps.map((p) => p.done);
    expect(dones).toEqual([...dones].sort((a, b) => a - b));
  }
}

describe('connecting an account from the welcome', () => {
  it('signs in through the browser, takes the seller from the token answer, and reports the first pull step by step', async () => {
    const dir = tmp();
    const opened: string[] = [];
    const core = await DesktopCore.open({
      dataDir: dir,
      welcome: true,
      engine,
      log: () => undefined,
      host: { shell: 'browser', openExternal: browserThatApproves('DEPOSITO_NORTE', opened) },
    });
    const events: StockroomEvent[] = [];
    core.events.on('event', (e) => events.push(e));
    try {
      const api = core.api;
      expect(value(await api.settings.get()).firstRun).toBe(true);
      await connect(core, remote.url);
      expect(opened[0]).toMatch(new RegExp(`^${remote.url}/authorization\\?`));
      // Nobody typed the user id: it is the token answer's user_id.
      expect(value(await api.settings.get())).toMatchObject({ userId: demo.seller.id, firstRun: false, mode: 'online', siteId: 'MLA' });
      expect(value(await api.session.status())).toMatchObject({ signedIn: true, via: 'oauth', user: { id: demo.seller.id } });

      // As the welcome does: the answer comes once the pull's steps are done; the stock is read behind it.
      const report = value(await api.sync.pullNow({ stock: 'background' }));
      expect(report.stores).toBe(3);
      const pulls = () => events.filter((e): e is Extract<StockroomEvent, { type: 'sync.pull' }> => e.type === 'sync.pull').map((e) => e.progress);
      // The first pull's steps: the listings and the rest, each ending complete. The stock is read
      // behind it (the status bar's "Stock read for n of m"), so it is not a step the bar waits for.
      const firstSteps = PULL_PHASES.filter((p) => p !== 'stock');
      expectSteps(pulls(), firstSteps);
      const last = (progress: PullProgressView[], phase: PullProgressView['phase']) => progress.filter((p) => p.phase === phase).at(-1)!;
      expect(last(pulls(), 'stores').total).toBe(3);
      expect(last(pulls(), 'items').total).toBe(report.items.total);
      // The reads behind the pull end on their own: every product read, none left to count.
      await until(async () => value(await api.sync.status()).stockRead === undefined || undefined, 'every product’s stock read');

      // A later pull reads the known products' stock within it: all seven steps.
      const before = pulls().length;
      const again = value(await api.sync.pullNow());
      const later = pulls().slice(before);
      expectSteps(later, PULL_PHASES);
      expect(last(later, 'stock').total).toBe(again.stock.read);
      expect(again.stock.read).toBe(report.items.total);

      // Which account's data is open: the name and site, in the session and the account list.
      expect(value(await api.session.status())).toMatchObject({ user: { nickname: 'DEPOSITO_NORTE' }, siteId: 'MLA' });
      await until(async () => value(await api.settings.get()).accounts?.[0]?.nickname === 'DEPOSITO_NORTE' || undefined, 'the account remembered by name');
      expect(value(await api.settings.get()).accounts).toEqual([
        { baseUrl: remote.url, applicationId: demo.app, userId: demo.seller.id, siteId: 'MLA', nickname: 'DEPOSITO_NORTE', open: true },
      ]);
    } finally {
      await core.close();
    }
    // Kept: a restart opens the account signed in, with no welcome.
    const again = await DesktopCore.open({ dataDir: dir, welcome: true, engine, log: () => undefined });
    try {
      expect(value(await again.api.settings.get())).toMatchObject({ firstRun: false, mode: 'online' });
      expect(value(await again.api.session.status())).toMatchObject({ signedIn: true, via: 'oauth', user: { id: demo.seller.id, nickname: 'DEPOSITO_NORTE' } });
    } finally {
      await again.close();
    }
  });

  it('with "don’t keep me signed in", nothing token-like reaches the disk, and a restart asks to sign in again', async () => {
    const proxy = await tokenRecorder(remote.url);
    const dir = tmp();
    try {
      const core = await DesktopCore.open({
        dataDir: dir,
        welcome: true,
        engine,
        log: () => undefined,
        host: { shell: 'browser', openExternal: browserThatApproves('DEPOSITO_NORTE') },
      });
      try {
        await connect(core, proxy.url, { keepSignedIn: false });
        expect(value(await core.api.sync.pullNow()).stores).toBe(3);
        expect(value(await core.api.session.status())).toMatchObject({ signedIn: true, via: 'oauth' });
      } finally {
        await core.close();
      }
      expect(proxy.tokens).toHaveLength(2);
      expect(existsSync(join(dir, 'credentials.db'))).toBe(false);
      const files = filesUnder(dir);
      expect(files.map((f) => f.path)).toContain(join(dir, 'settings.json'));
      for (const token of proxy.tokens) {
        expect(files.filter((f) => f.bytes.includes(Buffer.from(token, 'utf8'))).map((f) => f.path)).toEqual([]);
      }

      const again = await DesktopCore.open({ dataDir: dir, welcome: true, engine, log: () => undefined });
      try {
        // The account's replica is still there to read; the session is not.
        expect(value(await again.api.session.status())).toMatchObject({ signedIn: false, user: { id: demo.seller.id } });
      } finally {
        await again.close();
      }
    } finally {
      await proxy.close();
    }
  });

  it('turning "keep me signed in" off moves the open session to memory and deletes the credentials file', async () => {
    const proxy = await tokenRecorder(remote.url);
    const dir = tmp();
    try {
      const core = await DesktopCore.open({
        dataDir: dir,
        welcome: true,
        engine,
        log: () => undefined,
        host: { shell: 'browser', openExternal: browserThatApproves('DEPOSITO_NORTE') },
      });
      try {
        await connect(core, proxy.url);
        expect(existsSync(join(dir, 'credentials.db'))).toBe(true);
        // Kept (with the plain cipher of this test): the search below does find a stored token.
        expect(filesUnder(dir).some((f) => f.bytes.includes(Buffer.from(proxy.tokens[0]!, 'utf8')))).toBe(true);
        value(await core.api.settings.update({ keepSignedIn: false }));
        expect(existsSync(join(dir, 'credentials.db'))).toBe(false);
        // Still signed in, for this run: the sync goes on.
        expect(value(await core.api.session.status())).toMatchObject({ signedIn: true, via: 'oauth' });
        expect(value(await core.api.sync.pullNow()).stores).toBe(3);
      } finally {
        await core.close();
      }
      for (const token of proxy.tokens) {
        expect(
          filesUnder(dir)
            .filter((f) => f.bytes.includes(Buffer.from(token, 'utf8')))
            .map((f) => f.path),
        ).toEqual([]);
      }
    } finally {
      await proxy.close();
    }
  });
});

describe('a second account connected from the app (issue 27)', () => {
  it('keeps the open account open during the sign-in, then opens the new one; the first opens again', async () => {
    const browser = heldBrowser('MARCA_AURORA');
    const core = await openAsDemoSeller(browser.openExternal);
    const events: StockroomEvent[] = [];
    core.events.on('event', (e) => events.push(e));
    try {
      const api = core.api;
      const signing = api.session.signIn({ baseUrl: remote.url, applicationId: demo.app, siteId: 'MLA' });
      await until(() => browser.opened.length === 1 || undefined, 'the sign-in page opened');
      expect(browser.opened[0]).toMatch(new RegExp(`^${remote.url}/authorization\\?`));
      // Mid sign-in: still the demo seller's account, online, its data readable.
      expect(value(await api.settings.get())).toMatchObject({ userId: demo.seller.id, mode: 'online', siteId: null });
      expect(value(await api.session.status())).toMatchObject({ signingIn: true, signedIn: true, user: { id: demo.seller.id } });
      expect(value(await api.stock.grid()).rows.length).toBeGreaterThan(0);

      browser.approve();
      expect(value(await signing)).toMatchObject({ signingIn: false, signedIn: true, via: 'oauth', user: { id: demo.brand.id } });
      expect(value(await api.settings.get())).toMatchObject({ baseUrl: remote.url, userId: demo.brand.id, mode: 'online', siteId: 'MLA' });
      // The screens hear of the new settings too (the sign-in changed them).
      const changed = events.filter((e): e is Extract<StockroomEvent, { type: 'settings.changed' }> => e.type === 'settings.changed');
      expect(changed.at(-1)?.settings).toMatchObject({ userId: demo.brand.id });
      // The new account's own first pull, on its own replica.
      value(await api.sync.pullNow());
      expect(value(await api.session.status())).toMatchObject({ user: { id: demo.brand.id, nickname: 'MARCA_AURORA' } });
      await until(
        async () => value(await api.settings.get()).accounts?.find((a) => a.userId === demo.brand.id)?.nickname === 'MARCA_AURORA' || undefined,
        'the new account remembered by name',
      );
      expect(value(await api.settings.get()).accounts?.find((a) => a.userId === demo.brand.id)).toMatchObject({ open: true, siteId: 'MLA' });

      // Opening the first account again, as Settings' list does: its pasted token still serves it.
      value(await api.settings.update({ baseUrl: remote.url, applicationId: demo.app, userId: demo.seller.id, siteId: 'MLA', mode: 'online' }));
      expect(value(await api.session.status())).toMatchObject({ signedIn: true, via: 'token', user: { id: demo.seller.id } });
      expect(value(await api.sync.pullNow()).stores).toBe(3);
    } finally {
      await core.close();
    }
  });

  it('a cancelled sign-in leaves the open account as it was', async () => {
    const browser = heldBrowser('MARCA_AURORA');
    const core = await openAsDemoSeller(browser.openExternal);
    try {
      const api = core.api;
      const before = value(await api.settings.get());
      const signing = api.session.signIn({ baseUrl: remote.url, applicationId: demo.app, siteId: 'MLA' });
      await until(() => browser.opened.length === 1 || undefined, 'the sign-in page opened');
      value(await api.session.cancelSignIn());
      expect(failure(await signing).code).toBe('sign_in_aborted');
      expect(value(await api.settings.get())).toEqual(before);
      expect(value(await api.session.status())).toMatchObject({ signingIn: false, signedIn: true, via: 'token', user: { id: demo.seller.id } });
      expect(value(await api.sync.pullNow()).stores).toBe(3);
    } finally {
      await core.close();
    }
  });
});
