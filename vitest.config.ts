import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three tiers, one run (`npm test` runs them all):
 * - unit: no browser, no child process, no remote marketplace: the service, the HTTP API through
 *   a real server on 127.0.0.1 in the test's own process, the outbox, the desktop core local-only
 *   and its two transports, the screens in jsdom; `npm run test:unit`.
 * - integration: real child processes (the project's CLI, a second desktop process, kill -9),
 *   the sync engine and the desktop core against a real remote through the fault proxy, and the
 *   multi-second suites (10,000 edits, token expiry over seconds, 25 MB uploads);
 *   `npm run test:integration`.
 * - e2e: the app in real headless Chromium (test/e2e); `npm run test:e2e`.
 */
const E2E = ['test/e2e/**/*.test.ts'];
/** Real Electron: its own config and script (vitest.electron.config.ts, `npm run test:electron`), never part of `npm test`. */
const ELECTRON = ['test/electron/**'];
const INTEGRATION = [
  // real child processes
  'test/build/package.test.ts',
  'test/fixtures/serve-cli.test.ts',
  'test/http/auth/token-ttl-cli.test.ts',
  'test/http/rate-limit-cli.test.ts',
  'test/http/stock/concurrency.test.ts',
  'test/sync/auth/token-manager.test.ts',
  'test/sync/kill9.test.ts',
  'test/web/second-instance.test.ts',
  // the sync engine against a real remote (the server, the fault proxy, a replica per test),
  // and the desktop core online; the multi-second ones: 10,000 edits through the fault proxy
  // against the server in a child process, a burst over seconds of 1 s OAuth tokens
  'test/desktop/core.test.ts',
  // the welcome's connect flow against a real remote (and a token-recording proxy)
  'test/desktop/welcome-connect.test.ts',
  // electron-updater's own classes against a feed on loopback, the core online behind the fault proxy
  'test/desktop/updates-feed.test.ts',
  // the built main process (tsc + Vite into test-output) on the stand-in Electron, one child per start
  'test/desktop/electron-main.test.ts',
  // npm start's preparation: Electron's installer and prebuild-install against loopback mirrors, `tsx main/start.ts`
  'test/desktop/electron-download.test.ts',
  'test/desktop/start.test.ts',
  'test/sync/engine.test.ts',
  'test/sync/faults-10k.test.ts',
  'test/sync/messages.test.ts',
  'test/sync/offline.test.ts',
  'test/sync/pull.test.ts',
  // the progressive first pull (issue 29): a child process killed mid-pull and resumed
  'test/sync/first-pull.test.ts',
  'test/sync/pull-codes.test.ts',
  'test/sync/pull-orders.test.ts',
  'test/sync/recovery.test.ts',
  'test/sync/token-expiry.test.ts',
  'test/sync/unreachable.test.ts',
  // the outbox model (issue 24): its cases and its model-based test, against a real remote through the fault proxy
  'test/sync/model/**/*.test.ts',
  'test/desktop/count-sessions-replica.test.ts',
  // scan to count's tally on a replica, and a child process SIGKILLed mid-Apply
  'test/desktop/scan-tally-replica.test.ts',
  // 25 MB uploads and downloads, fsynced to disk
  'test/http/attachments/upload.test.ts',
  // the sign-in page: 1,000 page loads and some 50 scrypt checks (about 5 s)
  'test/http/auth/sign-in.test.ts',
];

export default defineConfig({
  test: {
    // Tests start real servers and child processes; two cores, so keep parallelism modest.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        // Worker threads: no child process to start per file (a third of the tier's time on two
        // cores). Nothing here needs its own process: no signals, no chdir, no process.exit.
        test: {
          name: 'unit',
          pool: 'threads',
          // One generous wait for every findBy/waitFor of the component tests (test/support/dom-waits.ts).
          setupFiles: ['test/support/dom-waits.ts'],
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, ...E2E, ...INTEGRATION, ...ELECTRON],
        },
      },
      { extends: true, test: { name: 'integration', include: INTEGRATION } },
      // The browser is found (or installed, or reported missing in one line) before any test runs.
      // A browser flow is many steps, each waiting for a condition: under full CPU load (npm run
      // test:stress) one flow has taken over 30 s, so its budget is larger; a passing run is not slower.
      { extends: true, test: { name: 'e2e', include: E2E, globalSetup: ['test/e2e/support/global-setup.ts'], testTimeout: 120_000, hookTimeout: 120_000 } },
    ],
  },
});
