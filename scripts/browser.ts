/**
 * The browser the browser tests (test/e2e) and `npm run bench ui` drive through playwright-core:
 * one resolution for both, and the provisioning step `npm test` / `npm run test:e2e` run first.
 *
 * Resolution: `STOCKROOM_CHROMIUM` when set (and then only it), else the usual places of Chromium,
 * Chrome or Edge for the platform. `tsx scripts/browser.ts` (the `pretest` and `pretest:e2e`
 * scripts): nothing to do when one is found; on Debian or Ubuntu, as root or with passwordless
 * sudo, it installs Debian's `chromium` through `.ci/browser-deps` (one line saying so); anywhere
 * else it stops with one line saying what to install, exit code 1, before any test runs.
 * `--print` prints the path it found.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, posix, resolve, win32 } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BROWSER_ENV = 'STOCKROOM_CHROMIUM';

export type Env = Record<string, string | undefined>;

export interface BrowserProbe {
  platform: string;
  env: Env;
  /** Whether a file exists (a test passes its own). */
  exists: (path: string) => boolean;
}

export type BrowserFound = { path: string; from: 'env' | 'system' } | { path: null; tried: string[]; fromEnv: boolean };

export type BrowserPlan = { action: 'use'; path: string } | { action: 'install' } | { action: 'fail'; message: string };

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEBIAN_DEPS = join(ROOT, '.ci', 'browser-deps');

/** An environment variable, case-insensitively on Windows (as Windows itself reads them). */
function envGet(env: Env, name: string, platform: string): string | undefined {
  if (platform !== 'win32') return env[name] || undefined;
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return (key && env[key]) || undefined;
}

/** Where Chromium, Chrome and Edge live on `platform`, in the order they are tried. */
export function browserCandidates(platform: string, env: Env): string[] {
  if (platform === 'darwin') {
    const apps = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge'];
    const home = envGet(env, 'HOME', platform);
    const roots = ['/Applications', ...(home ? [posix.join(home, 'Applications')] : [])];
    return apps.flatMap((app) => roots.map((root) => posix.join(root, app)));
  }
  if (platform === 'win32') {
    const roots = [
      envGet(env, 'PROGRAMFILES', platform) ?? 'C:\\Program Files',
      envGet(env, 'PROGRAMFILES(X86)', platform) ?? 'C:\\Program Files (x86)',
      envGet(env, 'LOCALAPPDATA', platform),
    ].filter((r): r is string => r !== undefined);
    const exes = ['Google\\Chrome\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe', 'Chromium\\Application\\chrome.exe'];
    return exes.flatMap((exe) => [...new Set(roots)].map((root) => win32.join(root, exe)));
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/usr/bin/microsoft-edge'];
}

/** The browser to use: `STOCKROOM_CHROMIUM` when set (even if missing: an explicit choice is never second-guessed), else the first candidate that exists. */
export function findBrowser({ platform, env, exists }: BrowserProbe): BrowserFound {
  const explicit = envGet(env, BROWSER_ENV, platform);
  if (explicit) return exists(explicit) ? { path: explicit, from: 'env' } : { path: null, tried: [explicit], fromEnv: true };
  const tried = browserCandidates(platform, env);
  const path = tried.find((p) => exists(p));
  return path ? { path, from: 'system' } : { path: null, tried, fromEnv: false };
}

/** Debian, Ubuntu and their derivatives: where `apt-get install chromium` gives /usr/bin/chromium. */
export function isDebianLike({ platform, exists }: Pick<BrowserProbe, 'platform' | 'exists'>): boolean {
  return platform === 'linux' && exists('/etc/debian_version') && exists('/usr/bin/apt-get');
}

/** The one line that says what is missing and what to install, for `platform`. */
export function missingBrowserMessage(found: Extract<BrowserFound, { path: null }>, probe: Pick<BrowserProbe, 'platform' | 'exists'>): string {
  const set = `or set ${BROWSER_ENV} to a Chrome, Chromium or Edge executable`;
  if (found.fromEnv) return `Browser tests: ${BROWSER_ENV}=${found.tried[0]} does not exist; point it at a Chrome, Chromium or Edge executable, or unset it.`;
  const head = `Browser tests need Chromium, Chrome or Edge, and none was found (looked in ${found.tried.join(', ')})`;
  if (isDebianLike(probe)) return `${head}: install it with \`sudo apt-get install -y chromium\` (${set}), then run the tests again.`;
  if (probe.platform === 'darwin')
    return `${head}: install Google Chrome (https://www.google.com/chrome/) or Chromium in /Applications (${set}), then run the tests again.`;
  if (probe.platform === 'win32') return `${head}: install Google Chrome or Microsoft Edge (${set}), then run the tests again.`;
  return `${head}: install Chromium or Google Chrome with your package manager (${set}), then run the tests again.`;
}

/**
 * What the provisioning step does: use the browser found; or, on Debian/Ubuntu with nothing found
 * (and no explicit `STOCKROOM_CHROMIUM`), install Debian's chromium when `canInstall()` (root, or
 * passwordless sudo); or stop with one line. `canInstall` is only asked when it matters.
 */
export function browserPlan(probe: BrowserProbe & { canInstall: () => boolean }): BrowserPlan {
  const found = findBrowser(probe);
  if (found.path !== null) return { action: 'use', path: found.path };
  if (!found.fromEnv && isDebianLike(probe) && probe.canInstall()) return { action: 'install' };
  return { action: 'fail', message: missingBrowserMessage(found, probe) };
}

const here: BrowserProbe = { platform: process.platform, env: process.env, exists: existsSync };

/** The browser's path on this machine, or an Error whose message is the one line of what to install. */
export function requireBrowser(probe: BrowserProbe = here): string {
  const found = findBrowser(probe);
  if (found.path === null) throw new Error(missingBrowserMessage(found, probe));
  return found.path;
}

/** Root, or sudo without a password (`sudo -n true`): what `.ci/browser-deps` needs. */
function canInstallHere(): boolean {
  if (process.getuid?.() === 0) return true;
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

/** The provisioning step; returns the exit code. */
export function provision(args: string[] = []): number {
  const plan = browserPlan({ ...here, canInstall: canInstallHere });
  if (plan.action === 'fail') {
    console.error(plan.message);
    return 1;
  }
  if (plan.action === 'install') {
    console.error("Browser tests: no Chromium here; installing Debian's chromium with apt-get (.ci/browser-deps)...");
    const r = spawnSync('bash', [DEBIAN_DEPS], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const found = findBrowser(here);
    if (r.status !== 0 || found.path === null) {
      const why = r.error?.message ?? (`${r.stderr ?? ''}${r.stdout ?? ''}`.trim().split('\n').pop() || `exit ${r.status}`);
      console.error(`Browser tests: installing chromium failed (${why}); install it with \`sudo apt-get install -y chromium\`, then run the tests again.`);
      return 1;
    }
    if (args.includes('--print')) console.log(found.path);
    return 0;
  }
  if (args.includes('--print')) console.log(plan.path);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = provision(process.argv.slice(2));
}
