/**
 * The shared end-to-end harness: the real app in real headless Chromium.
 *
 * - `ensureRenderer()` builds the renderer with Vite into test-output/e2e-renderer when it is
 *   missing or older than the renderer/preload/common sources (one build at a time across test
 *   workers: a lock folder). Not dist/renderer: the packaging test (test/build) empties and
 *   rebuilds dist/ while this tier may be serving pages from it in the same `npm test`.
 * - `startBrowserApp()` opens the real desktop core (main/desktop/core.ts, the embedded service
 *   over SQLite) on a temporary data folder, serves it with the browser mode's server
 *   (main/web/server.ts) on 127.0.0.1:0, launches Chromium (Debian's here; Chrome or Edge where
 *   that is what is installed) through playwright-core and opens the page with the per-run token.
 *   Nothing is faked: calls go through the bridge.
 * - `screenshot(page, name)` saves under test-output/screenshots/ (git ignores test-output/).
 *
 * The browser is found by scripts/browser.ts (`STOCKROOM_CHROMIUM`, then the usual places), the
 * same resolution `npm test` runs before any test, which installs Debian's chromium where it can
 * and otherwise stops with one line saying what to install. Missing here is a failure with that
 * line, never a silent skip.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { type CoreOptions, DesktopCore } from '../../../main/desktop/core.js';
import { type WebServer, startWebServer } from '../../../main/web/server.js';
import { findBrowser, requireBrowser } from '../../../scripts/browser.js';
import { waitFor } from '../../support/wait.js';
import { disabledFeaturesSwitch } from '../../../main/chromium-switches.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const RENDERER_DIR = join(ROOT, 'test-output', 'e2e-renderer');
export const SCREENSHOT_DIR = join(ROOT, 'test-output', 'screenshots');
/** The browser the tests launch (scripts/browser.ts), or null when none is installed. */
export const CHROMIUM: string | null = findBrowser({ platform: process.platform, env: process.env, exists: existsSync }).path;
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The features the desktop app turns off (main/chromium-switches.ts): the screens run as in the app.
  // This replaces Playwright's own --disable-features list (paint holding, storage partitioning, media
  // router and the like: nothing these single-origin loopback pages depend on).
  disabledFeaturesSwitch(),
];

/** Newest modification time of the files under `dir` (0 when absent). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let max = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, name.name);
    max = Math.max(max, name.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return max;
}

function rendererFresh(): boolean {
  const index = join(RENDERER_DIR, 'index.html');
  if (!existsSync(index)) return false;
  const built = statSync(index).mtimeMs;
  const sources = Math.max(
    newest(join(ROOT, 'renderer')),
    newest(join(ROOT, 'preload')),
    newest(join(ROOT, 'common')),
    statSync(join(ROOT, 'vite.config.ts')).mtimeMs,
  );
  return built >= sources;
}

/**
 * test-output/e2e-renderer, built when missing or stale. Test files run in parallel workers: the
 * first takes a lock folder and builds (a child `vite build`), the others wait for it and reuse
 * the result.
 */
export async function ensureRenderer(): Promise<string> {
  if (rendererFresh()) return RENDERER_DIR;
  const lock = join(ROOT, 'test-output', '.e2e-renderer-build.lock');
  mkdirSync(join(ROOT, 'test-output'), { recursive: true });
  const takeLock = () => {
    try {
      mkdirSync(lock);
      return true;
    } catch {
      // Another worker builds; a lock older than 3 minutes is a leftover of a killed run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // gone meanwhile
      }
      return false;
    }
  };
  await waitFor(takeLock, `the renderer build of another test worker (${lock})`, 180_000, 250);
  try {
    if (rendererFresh()) return RENDERER_DIR;
    const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    // NODE_ENV=production: under vitest it is `test`, and Vite would then bundle React's development build.
    const r = spawnSync(process.execPath, [vite, 'build', '--outDir', RENDERER_DIR, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 170_000,
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (r.status !== 0) throw new Error(`e2e: vite build of the renderer failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
    return RENDERER_DIR;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Headless Chromium (scripts/browser.ts finds it); a failure with one line of what to install when there is none. */
export async function launchChromium(args: readonly string[] = CHROMIUM_ARGS): Promise<Browser> {
  return chromium.launch({ executablePath: requireBrowser(), headless: true, args: [...args], timeout: 60_000 });
}

export interface BrowserAppOptions {
  /** The data folder (a new temporary one by default, removed on close). */
  dataDir?: string;
  /** Runs before the core opens the data folder (seed the database directly, write settings). */
  prepare?: (dataDir: string) => void | Promise<void>;
  /** Options of the desktop core (engine tuning, language, fixtures file...). */
  core?: Partial<Omit<CoreOptions, 'dataDir'>>;
  viewport?: { width: number; height: number };
  /** Browser locale (default en-US). */
  locale?: string;
  /** An already launched browser to open the page in (it is not closed with the app). */
  browser?: Browser;
  /** Wait for the frame's tab bar after navigation (default true). */
  waitForFrame?: boolean;
}

export interface BrowserApp {
  core: DesktopCore;
  web: WebServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  dataDir: string;
  /** The page's address with the per-run token. */
  url: string;
  /** Saves a full-window PNG under test-output/screenshots/<name>.png; returns the path. */
  screenshot(name: string): Promise<string>;
  /** Console errors and page errors seen so far (assert it is empty at the end of a flow). */
  errors: string[];
  close(): Promise<void>;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** The real app (core + browser-mode server) in a real Chromium page, ready on the frame. */
export async function startBrowserApp(o: BrowserAppOptions = {}): Promise<BrowserApp> {
  const rendererDir = await ensureRenderer();
  const ownDir = o.dataDir === undefined;
  const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'stockroom-e2e-'));
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (e) {
        console.error('e2e: cleanup failed', e);
      }
    }
  };
  try {
    if (ownDir) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    await o.prepare?.(dataDir);
    const core = await DesktopCore.open({
      language: 'en',
      jobPollMs: 50,
      log: (e) => console.error('core:', e),
      ...(o.core ?? {}),
      dataDir,
      host: { shell: 'browser', ...(o.core?.host ?? {}) },
    });
    cleanups.push(() => core.close());
    const web = await startWebServer({ core, port: 0, rendererDir });
    cleanups.push(() => web.close());
    const browser = o.browser ?? (await launchChromium());
    if (!o.browser) cleanups.push(() => browser.close());
    const context = await browser.newContext({
      viewport: o.viewport ?? { width: 1280, height: 800 },
      locale: o.locale ?? 'en-US',
      timezoneId: 'America/Argentina/Buenos_Aires',
    });
    cleanups.push(() => context.close());
    // Every locator wait and action of the flows: generous, set once (a busy machine is slow, a
    // wrong screen never arrives; the wait only bounds a test that is already failing).
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // The browser asks for /favicon.ico on its own; the app has none (not an app error).
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(`console: ${m.text()} (${m.location().url})`);
    });
    await page.goto(web.url);
    if (o.waitForFrame !== false) await page.getByRole('tablist').waitFor({ timeout: 15_000 });
    return {
      core,
      web,
      browser,
      context,
      page,
      dataDir,
      url: web.url,
      errors,
      screenshot: (name) => screenshot(page, name),
      close: cleanup,
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
