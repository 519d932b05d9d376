/**
 * `npm run electron:prepare`: what the desktop app needs on this machine, fetched or built when
 * missing, then one line per part saying what it found or made: Electron's binary (Electron's own
 * installer, honouring ELECTRON_MIRROR, its cache and proxy settings) and better-sqlite3 built for
 * Electron's ABI, kept apart from the Node build (main/desktop/native-binding.ts). `npm start` runs
 * the same steps when something is missing. Exit code 1, with one line saying why, when a part
 * cannot be had. STOCKROOM_NO_ELECTRON does not apply: this script is the explicit request.
 */
import { fallbackHint, fallbackWhy, prepareDesktop, streamProgress } from '../main/desktop/electron-prepare.js';
import { projectRoot } from '../main/web/run.js';

async function main(): Promise<number> {
  const env = { ...process.env };
  delete env.STOCKROOM_NO_ELECTRON;
  const prepared = await prepareDesktop({ root: projectRoot(), env, progress: streamProgress(process.stdout) });
  if (!prepared.ok) {
    const hint = fallbackHint(prepared.fallback);
    console.error(`electron:prepare: ${fallbackWhy(prepared.fallback)}${hint ? `. ${hint}` : ''}`);
    return 1;
  }
  for (const line of prepared.did) console.log(line);
  console.log('npm start opens the desktop app.');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`electron:prepare: ${(e as Error).message}`);
    process.exit(1);
  },
);
