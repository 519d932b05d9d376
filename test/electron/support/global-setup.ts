/**
 * Runs before test/electron: as `pretest:electron` (`tsx test/electron/support/global-setup.ts`,
 * before vitest prints anything) and as the global setup of vitest.electron.config.ts (for
 * `npx vitest run -c vitest.electron.config.ts`). Without Electron's binary or the built app there
 * is nothing to drive, so the run stops at once with one line saying what to run and exit code 1,
 * never a page of failures (as scripts/browser.ts does for the browser tests).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronProblem } from './electron.js';

export default function setup(): void {
  const problem = electronProblem();
  if (problem === null) return;
  console.error(problem);
  process.exit(1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) setup();
