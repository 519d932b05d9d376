/**
 * The real desktop app in real Electron, driven by Playwright (`_electron.launch`): the Electron
 * binary of node_modules (found by main/desktop/launch.ts without downloading it, prepared by
 * `npm run electron:prepare`), started on this checkout, so it runs package.json's "main"
 * (dist/main/app.js, built by `npm run build:app`) with a data folder of the test's own
 * (STOCKROOM_DATA). This is a development run: node_modules' Electron has no fuses flipped
 * (Playwright needs --inspect, which the packaged app's fuses refuse) and app.isPackaged is false.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ElectronApplication, type Page, _electron } from 'playwright-core';
import { electronBinary } from '../../../main/desktop/launch.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SCREENSHOT_DIR = join(ROOT, 'test-output', 'screenshots', 'electron');

/** The one line that says what to run before these tests can run, or null when they can. */
export function electronProblem(root: string = ROOT): string | null {
  if (electronBinary(root) === null)
    return "Electron tests: Electron's binary is not installed in node_modules/electron; run `npm run electron:prepare` (it needs network access), then `npm run test:electron` again.";
  if (!existsSync(join(root, 'dist', 'main', 'app.js')) || !existsSync(join(root, 'dist', 'renderer', 'index.html')))
    return 'Electron tests: the app is not built (dist/ is missing); run `npm run build:app`, then `npm run test:electron` again.';
  return null;
}

export interface RunningApp {
  electron: ElectronApplication;
  /** The app's window, with the frame's tab bar on screen. */
  page: Page;
  /** Console errors and page errors of the window so far (a flow ends with none). */
  errors: string[];
  /** Quits the app the way a person does (before-quit closes the database) and waits for its exit. */
  close(): Promise<void>;
}

/** The environment the app starts with: this one, with the test's data folder, never run-as-node. */
function appEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'ELECTRON_RUN_AS_NODE') env[k] = v;
  env.STOCKROOM_DATA = dataDir;
  return env;
}

/** Starts the app on `dataDir` and waits for its window to show the frame. */
export async function launchApp(dataDir: string): Promise<RunningApp> {
  const executablePath = electronBinary(ROOT);
  if (executablePath === null) throw new Error(electronProblem() ?? 'Electron is not installed');
  const electron = await _electron.launch({ executablePath, args: [ROOT], cwd: ROOT, env: appEnv(dataDir), timeout: 60_000 });
  try {
    const page = await electron.firstWindow({ timeout: 60_000 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()} (${m.location().url})`);
    });
    // A new data folder opens on the welcome: choose the demo as a person would; a folder that chose before opens on the frame.
    const welcome = page.getByRole('button', { name: 'Try the demo data' });
    const tabs = page.getByRole('tablist');
    await welcome.or(tabs).first().waitFor({ timeout: 60_000 });
    if (await welcome.isVisible()) await welcome.click();
    await tabs.waitFor({ timeout: 60_000 });
    return { electron, page, errors, close: () => electron.close() };
  } catch (e) {
    await electron.close();
    throw e;
  }
}

/** A temporary data folder and its removal. */
export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'stockroom-electron-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Saves the window under test-output/screenshots/electron/<name>.png (CI keeps them as an artifact). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}
