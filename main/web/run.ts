import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DesktopCore } from '../desktop/core.js';
import { LOCK_FILE, dataDirLockHolder, heldMessage } from '../desktop/lock-holder.js';
import { defaultDataDir } from '../desktop/paths.js';
import { openWithSystem } from './open-browser.js';
import { type WebServer, startWebServer } from './server.js';

/** The repository (or installed app) folder: the nearest folder above this file with a package.json. */
export function projectRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export interface WebOptions {
  port?: number;
  dataDir?: string;
  /** Serve the renderer sources through Vite (no build), instead of dist/renderer. */
  dev?: boolean;
  /** A built renderer folder to serve instead of dist/renderer (never built here). */
  rendererDir?: string;
  /**
   * Called once the server listens, before the core is open (runWeb resolves once it is): the
   * address can be opened at once, the page loads while the core opens.
   */
  onListening?: (server: WebServer, dataDir: string) => void;
}

export interface RunningWeb {
  core: DesktopCore;
  server: WebServer;
  close(): Promise<void>;
}

/** Builds the renderer with Vite when dist/renderer is missing. */
async function ensureRenderer(root: string): Promise<string> {
  const dir = join(root, 'dist', 'renderer');
  if (existsSync(join(dir, 'index.html'))) return dir;
  const { build } = await import('vite');
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
  return dir;
}

/**
 * The desktop core on `dataDir`. Imported here, not at the top: its modules (the service, the
 * sync engine, exceljs...) are most of the process's start, and the server can listen meanwhile.
 */
async function openCore(dataDir: string, version: string): Promise<DesktopCore> {
  const [{ DesktopCore }, { languageOf }] = await Promise.all([import('../desktop/core.js'), import('../desktop/settings.js')]);
  return DesktopCore.open({
    dataDir,
    host: { shell: 'browser', openExternal: openWithSystem },
    // A new data folder asks how to start (the demo data or an account), as the desktop app does.
    welcome: true,
    language: languageOf(Intl.DateTimeFormat().resolvedOptions().locale),
    version,
  });
}

/**
 * The browser mode: the desktop core on the user-data folder, served with the renderer on
 * 127.0.0.1. Same data folder as the desktop app (one of the two at a time: the folder is locked).
 * The server listens first and the core opens behind it (bridge requests wait for it), so a
 * browser opening the address loads the page while the core opens.
 */
export async function runWeb(o: WebOptions = {}): Promise<RunningWeb> {
  const root = projectRoot();
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const dataDir = o.dataDir ?? defaultDataDir();
  // Before listening: a second instance on a locked folder says so and prints no address
  // (DesktopCore.open, which takes the lock, still decides).
  const holder = dataDirLockHolder(dataDir);
  if (holder !== null) throw new Error(heldMessage(holder, join(dataDir, LOCK_FILE)));
  let opening: Promise<DesktopCore> | null = null;
  let coreReady!: (core: Promise<DesktopCore>) => void;
  const core = new Promise<DesktopCore>((resolve) => (coreReady = resolve));
  // Requests waiting for the core see its failure; runWeb rejects with it.
  core.catch(() => undefined);
  let server: WebServer;
  if (o.dev) {
    const { createServer } = await import('vite');
    const vite = await createServer({
      configFile: join(root, 'vite.config.ts'),
      server: { middlewareMode: true, hmr: false },
      appType: 'spa',
      logLevel: 'warn',
    });
    const middlewares = (req: IncomingMessage, res: ServerResponse, next: () => void) => vite.middlewares(req, res, next);
    try {
      server = await startWebServer({ core, port: o.port ?? 0, dev: { middlewares } });
    } catch (e) {
      await vite.close();
      throw e;
    }
    const close = server.close.bind(server);
    server.close = async () => {
      await close();
      await vite.close();
    };
  } else {
    server = await startWebServer({ core, port: o.port ?? 0, rendererDir: o.rendererDir ?? (await ensureRenderer(root)) });
  }
  try {
    o.onListening?.(server, dataDir);
    opening = openCore(dataDir, version);
    coreReady(opening);
    const opened = await opening;
    return {
      core: opened,
      server,
      async close() {
        await server.close();
        await opened.close();
      },
    };
  } catch (e) {
    // Requests waiting for the core get an error answer; the caller reports why and exits.
    if (!opening) coreReady(Promise.reject(e as Error));
    await server.close();
    throw e;
  }
}

/** Closes the browser mode on Ctrl+C or SIGTERM, once, and exits (1 when closing failed). */
export function closeOnSignals(web: RunningWeb, label: string): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    web.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(`${label}: ${(e as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
