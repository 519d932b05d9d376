import { defineConfig } from 'vitest/config';

/**
 * The desktop app in real Electron (`npm run test:electron`): test/electron drives the built app
 * (dist/, `npm run build:app`) through Playwright's Electron support. A config of its own, not a
 * project of vitest.config.ts, so `npm test` never runs it: Electron's binary cannot be downloaded
 * everywhere (.github/workflows/electron.yml runs it on Linux, Windows and macOS). Without the
 * binary or the build, the global setup stops the run with one line of what to run.
 */
export default defineConfig({
  test: {
    name: 'electron',
    include: ['test/electron/**/*.test.ts'],
    globalSetup: ['test/electron/support/global-setup.ts'],
    pool: 'forks',
    // One Electron at a time: each is a browser and a main process with its own database.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
