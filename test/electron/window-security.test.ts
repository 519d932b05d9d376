/**
 * The window's security in real Electron, as the page sees it: no Node in the renderer (only the
 * preload's window.stockroom), and a navigation away from the app or a new window refused by the
 * main process (main/app.ts's will-navigate and window-open handlers). test/desktop/security.test.ts
 * checks the same settings as values; this checks that Electron applies them.
 */
import { type Server, createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';
import { type RunningApp, launchApp, tempDataDir } from './support/electron.js';

describe('the window in Electron', () => {
  const data = tempDataDir();
  let app: RunningApp;
  // A page the app would load if a navigation got through: any request to it is a failure.
  let elsewhere: Server;
  let elsewhereUrl: string;
  const requests: string[] = [];
  beforeAll(async () => {
    elsewhere = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.end('<h1>elsewhere</h1>');
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    const address = elsewhere.address();
    if (address === null || typeof address === 'string') throw new Error('the server has no port');
    elsewhereUrl = `http://127.0.0.1:${address.port}/`;
    app = await launchApp(data.dir);
  });
  afterAll(async () => {
    await app?.close();
    await new Promise((r) => elsewhere?.close(r));
    data.remove();
  });

  it('gives the page no Node: no require, process, module or Buffer; only the preload API', async () => {
    const seen = await app.page.evaluate(`({
      require: typeof require,
      process: typeof process,
      module: typeof module,
      Buffer: typeof Buffer,
      stockroom: typeof window.stockroom,
      origin: location.origin === 'null' ? location.protocol + '//' + location.host : location.origin,
    })`);
    expect(seen).toEqual({
      require: 'undefined',
      process: 'undefined',
      module: 'undefined',
      Buffer: 'undefined',
      stockroom: 'object',
      origin: 'app://stockroom',
    });
  });

  it('refuses a navigation away from the app and a new window', async () => {
    const { electron, page } = app;
    // Every will-navigate the main process sees after the app's own handler ran (listeners run in order).
    const navigations = await electron.evaluateHandle(({ webContents }) => {
      const seen: { url: string; prevented: boolean }[] = [];
      for (const contents of webContents.getAllWebContents())
        contents.on('will-navigate', (event, url) => seen.push({ url, prevented: event.defaultPrevented }));
      return seen;
    });
    const before = page.url();
    expect(before).toMatch(/^app:\/\/stockroom\//);

    await page.evaluate(`location.href = ${JSON.stringify(elsewhereUrl)}`);
    const seen = await waitFor(async () => (await navigations.jsonValue()).find((n) => n.url === elsewhereUrl), 'the navigation in the main process');
    expect(seen.prevented).toBe(true);
    // Still the app's page, still talking to the main process.
    expect(page.url()).toBe(before);
    expect(await page.evaluate(`typeof window.stockroom`)).toBe('object');
    await page.getByRole('tablist').waitFor();

    // window.open is denied (setWindowOpenHandler): no window, nothing loaded.
    expect(await page.evaluate(`window.open(${JSON.stringify(elsewhereUrl)}) === null`)).toBe(true);
    expect(electron.windows()).toHaveLength(1);
    expect(requests).toEqual([]);
    expect(app.errors).toEqual([]);
  });
});
