import { spawn, spawnSync } from 'node:child_process';
import { FixtureError } from './fixtures/load.js';
import { buildNeeded, electronBinary } from './desktop/launch.js';
import { closeOnSignals, projectRoot, runWeb } from './web/run.js';

/**
 * `npm start`: the desktop app when the Electron binary is installed (building first when the
 * sources are newer than dist/), else one line saying so and the browser mode on the same data.
 */
async function main(): Promise<void> {
  const root = projectRoot();
  const electron = electronBinary(root);
  if (electron) {
    if (buildNeeded(root)) {
      const built = spawnSync('npm', ['run', 'build:app'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
      if (built.status !== 0) process.exit(built.status ?? 1);
    }
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    const child = spawn(electron, [root], { cwd: root, stdio: 'inherit', env });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    process.on('SIGINT', forward('SIGINT'));
    process.on('SIGTERM', forward('SIGTERM'));
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
    return;
  }
  const web = await runWeb();
  console.log(`Electron is not installed on this machine; starting the browser mode at ${web.server.url} (data: ${web.core.dataDir})`);
  closeOnSignals(web, 'start');
}

main().catch((e: unknown) => {
  console.error(e instanceof FixtureError ? e.message : `start: ${(e as Error).message}`);
  process.exit(1);
});
