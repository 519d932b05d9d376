/**
 * electron-updater as the update policy's port (main/desktop/updates.ts decides when to check,
 * download and install; this file only translates). The feed is electron-builder.yml's `publish`
 * (written into the package as app-update.yml, with the Windows publisher electron-updater checks
 * every downloaded installer's signature against). STOCKROOM_UPDATE_FEED, the address of a generic
 * feed (a folder on a web server holding latest.yml / latest-mac.yml / latest-linux.yml and the
 * installers), is for development only: an installed app ignores it (issue 25: whoever could set
 * it could install their own code). Off in development unless that variable is set.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import electronUpdater from 'electron-updater';
import type { AppUpdater, ProgressInfo, UpdateInfo } from 'electron-updater';
import { isLoopbackHost } from '../common/remote-address.js';
import type { UpdaterPort } from './desktop/updates.js';

export const UPDATE_FEED_ENV = 'STOCKROOM_UPDATE_FEED';

/**
 * The Windows publisher: the subject (CN) of the code-signing certificate, as electron-builder.yml's
 * `win.signtoolOptions.publisherName` (test/build/signing.test.ts keeps them equal). A feed config
 * written here names it too, so a development feed cannot skip the signature check either.
 */
export const PUBLISHER_NAMES: readonly string[] = ['Stockroom'];

/** Why `raw` cannot be an update feed, or null: https, or plain http on this computer (a feed served for tests). */
export function feedUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${UPDATE_FEED_ENV} is not a valid URL`;
  }
  if (url.username !== '' || url.password !== '') return `${UPDATE_FEED_ENV} cannot carry a user name or password`;
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return null;
  return `${UPDATE_FEED_ENV} must use https (plain http only for a feed on this computer)`;
}

export interface ElectronUpdaterOptions {
  app: { readonly isPackaged: boolean; getPath(name: 'userData'): string };
  /** STOCKROOM_UPDATE_FEED: turns updates on in development; an installed app ignores it. */
  feedUrl?: string | undefined;
  /** The updater to drive (tests pass their own instance; default electron-updater's `autoUpdater` for this platform). */
  updater?: AppUpdater;
  log?: (message: string) => void;
}

/** The port over electron-updater, or null when updates are off (development without a feed). */
export function electronUpdaterPort(o: ElectronUpdaterOptions): UpdaterPort | null {
  const log = o.log ?? ((m) => console.warn(`stockroom: update: ${m}`));
  let feed = o.feedUrl?.trim() || undefined;
  if (feed && o.app.isPackaged) {
    // An installed app updates only from the feed it was built with, signed by its publisher.
    log(`${UPDATE_FEED_ENV} is ignored by an installed app; updates come from the feed it was built with`);
    feed = undefined;
  }
  if (feed) {
    const problem = feedUrlProblem(feed);
    if (problem) {
      log(`${problem}; updates are off`);
      return null;
    }
  }
  if (!o.app.isPackaged && !feed) return null;
  const updater = o.updater ?? electronUpdater.autoUpdater;
  // The policy downloads what a check finds (in the background) and decides when to install.
  updater.autoDownload = false;
  // A normal quit installs a downloaded update, as "installed on restart" leads people to expect;
  // it cannot happen mid-send: the app's before-quit closes the core first, which stops the
  // outbox worker after the requests on the wire (main/app.ts), and the installer runs on `quit`.
  updater.autoInstallOnAppQuit = true;
  updater.logger = { info: () => undefined, warn: (m: unknown) => log(String(m)), error: () => undefined };
  if (feed) {
    // A config file rather than setFeedURL: the download also reads its cache folder name from
    // there, and in development (or a build without `publish`) there is no app-update.yml.
    const file = join(o.app.getPath('userData'), 'update-feed.yml');
    // publisherName: without it electron-updater skips the Windows signature check.
    const config = { provider: 'generic', url: feed, updaterCacheDirName: 'stockroom-updater', publisherName: [...PUBLISHER_NAMES] };
    writeFileSync(file, JSON.stringify(config) + '\n', { mode: 0o600 });
    updater.updateConfigPath = file;
    updater.forceDevUpdateConfig = true;
  }
  return updaterPort(updater);
}

/** electron-updater's events and calls as the port the policy drives. */
export function updaterPort(updater: AppUpdater): UpdaterPort {
  return {
    check: async () => {
      await updater.checkForUpdates();
    },
    download: async () => {
      await updater.downloadUpdate();
    },
    // Silent (no installer window) and the app starts again: "Restart to update".
    quitAndInstall: () => updater.quitAndInstall(true, true),
    subscribe(listener) {
      const available = (info: UpdateInfo) => listener({ type: 'available', version: info.version });
      const notAvailable = () => listener({ type: 'not-available' });
      const progress = (p: ProgressInfo) => listener({ type: 'progress', percent: p.percent, transferred: p.transferred, total: p.total });
      const downloaded = (info: UpdateInfo) => listener({ type: 'downloaded', version: info.version });
      const error = (e: Error) => listener({ type: 'error', message: e.message });
      updater.on('update-available', available);
      updater.on('update-not-available', notAvailable);
      updater.on('download-progress', progress);
      updater.on('update-downloaded', downloaded);
      updater.on('error', error);
      return () => {
        updater.off('update-available', available);
        updater.off('update-not-available', notAvailable);
        updater.off('download-progress', progress);
        updater.off('update-downloaded', downloaded);
        updater.off('error', error);
      };
    },
  };
}
