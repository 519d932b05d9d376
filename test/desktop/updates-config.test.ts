/**
 * Which feed the updater reads (issue 25): STOCKROOM_UPDATE_FEED was honoured by an installed app,
 * and the config written for it dropped `publisherName`, so electron-updater skipped the Windows
 * signature check and anyone who could set the variable could install their own code. An installed
 * app now ignores the variable (its updates come only from the feed it was built with, whose
 * app-update.yml carries the publisher); in development the written config names the publisher.
 * electron-updater's own AppImageUpdater over the stand-in `electron` module, as in updates-feed.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import electronUpdater from 'electron-updater';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHER_NAMES, UPDATE_FEED_ENV, electronUpdaterPort } from '../../main/updater-electron.js';
import { type ElectronStandIn, installElectronStandIn } from '../support/update-feed.js';

let home: string;
let standIn: ElectronStandIn;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'stockroom-updater-config-'));
  standIn = installElectronStandIn({ version: '1.0.0', userData: home });
});
afterAll(() => {
  standIn.remove();
  rmSync(home, { recursive: true, force: true });
});

describe('the update feed an app reads', () => {
  it(`an installed app ignores ${UPDATE_FEED_ENV}: it keeps the feed and publisher it was built with`, () => {
    const logged: string[] = [];
    const updater = new electronUpdater.AppImageUpdater();
    const port = electronUpdaterPort({
      app: { isPackaged: true, getPath: () => home },
      feedUrl: 'https://evil.example/feed',
      updater,
      log: (m) => logged.push(m),
    });
    expect(port).not.toBeNull();
    expect(existsSync(join(home, 'update-feed.yml'))).toBe(false);
    expect(logged.join('\n')).toMatch(new RegExp(`${UPDATE_FEED_ENV} is ignored by an installed app`));
  });

  it('in development the written feed config names the publisher, so a Windows installer must be signed by it', () => {
    const updater = new electronUpdater.AppImageUpdater();
    const port = electronUpdaterPort({ app: { isPackaged: false, getPath: () => home }, feedUrl: 'http://127.0.0.1:9/feed', updater, log: () => undefined });
    expect(port).not.toBeNull();
    const file = join(home, 'update-feed.yml');
    const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ provider: 'generic', url: 'http://127.0.0.1:9/feed', publisherName: [...PUBLISHER_NAMES] });
    expect(PUBLISHER_NAMES.length).toBeGreaterThan(0);
  });
});
