import { spawn, spawnSync } from 'node:child_process';
import { FixtureError } from './fixtures/load.js';
import { fallbackLine, prepareDesktop, streamProgress } from './desktop/electron-prepare.js';
import { buildNeeded } from './desktop/launch.js';
import { closeOnSignals, projectRoot, runWeb } from './web/run.js';

/**
 * `npm start`: the desktop app, after fetching what it lacks (Electron's binary, better-sqlite3
 * for Electron: main/desktop/electron-prepare.ts, bounded in time, one progress line each) and
 * building dist/ when the sources are newer; when that cannot be had, one line saying why and how
 * to retry, and the browser mode on the same data. STOCKROOM_NO_ELECTRON=1 goes straight there.
 */
async function main(): Promise<void> {
  const root = projectRoot();
  const prepared = await prepareDesktop({ root, env: process.env, progress: streamProgress(process.stdout) });
  if (prepared.ok) {
    if (buildNeeded(root)) {
      const built = spawnSync('npm', ['run', 'build:app'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
      if (built.status !== 0) process.exit(built.status ?? 1);
    }
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    const child = spawn(prepared.electron, [root], { cwd: root, stdio: 'inherit', env });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    process.on('SIGINT', forward('SIGINT'));
    process.on('SIGTERM', forward('SIGTERM'));
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
    return;
  }
  const web = await runWeb();
  console.log(fallbackLine(prepared.fallback, web.server.url, web.core.dataDir));
  closeOnSignals(web, 'start');
}

main().catch((e: unknown) => {
  console.error(e instanceof FixtureError ? e.message : `start: ${(e as Error).message}`);
  process.exit(1);
});
