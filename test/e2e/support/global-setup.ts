/**
 * Runs once before the e2e tier (vitest globalSetup of the `e2e` project): no browser, no e2e
 * test, and one line saying what to install. `npm test` and `npm run test:e2e` have already run
 * scripts/browser.ts (which also installs Debian's chromium where it can); this covers
 * `npx vitest run --project e2e` and the like.
 */
import { requireBrowser } from '../../../scripts/browser.js';

export default function setup(): void {
  requireBrowser();
}
