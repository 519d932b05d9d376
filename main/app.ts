/**
 * The Electron entry (package.json "main": dist/main/app.js). Everything that is not Electron lives
 * in the desktop core (main/desktop); this file wires it to a window: security settings
 * (main/security.ts), the app:// protocol serving the built renderer with its CSP, IPC
 * (main/ipc), the menu, notifications, window state, the single-instance lock and a clean quit.
 */
import { BrowserWindow, Menu, Notification, app, dialog, ipcMain, nativeImage, protocol, safeStorage, screen, session, shell } from 'electron';
import { join, resolve, sep } from 'node:path';
import { downloadPath } from './desktop/paths.js';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DesktopCore } from './desktop/core.js';
import { externalUrlAllowed, linkHosts } from './desktop/external.js';
import { notificationText } from './desktop/notification-text.js';
import { languageOf } from './desktop/settings.js';
import { forwardEvents, registerIpc } from './ipc/register.js';
import { menuTemplate } from './menu.js';
import {
  APP_HOST,
  APP_INDEX_URL,
  APP_SCHEME,
  appOrigins,
  contentSecurityPolicy,
  pictureHosts,
  isAllowedSenderUrl,
  keepDevToolsClosed,
  originOf,
  permissionAllowed,
  windowOptions,
} from './security.js';
import { contentType } from './web/static.js';
import { DISABLED_CHROMIUM_FEATURES } from './chromium-switches.js';
import { type Cipher, KeychainUnavailableError, plainCipher, safeStorageCipher } from './sync/auth/index.js';
import { WINDOW_STATE_FILE, loadWindowState, restoreBounds, saveWindowState } from './window-state.js';
import { UPDATE_FEED_ENV, electronUpdaterPort } from './updater-electron.js';
import type { RevealTarget, StockroomEvent } from '../common/contract/contract.js';
import { BADGE_SIZE, badgeBitmap, badgeDescription } from './desktop/badge.js';
import { abiMismatch, abiMismatchLine, electronSqliteBinding } from './desktop/native-binding.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const distDir = resolve(here, '..');
const rendererDir = join(distDir, 'renderer');
const preloadFile = join(distDir, 'preload', 'index.cjs');
/** Development only: the Vite dev server instead of the built renderer. */
const devServerUrl = app.isPackaged ? undefined : process.env.VITE_DEV_SERVER_URL;
const csp = contentSecurityPolicy({ pictureHosts: pictureHosts(), ...(devServerUrl ? { dev: { origin: originOf(devServerUrl)! } } : {}) });
const allowedOrigins = appOrigins(devServerUrl);

if (process.env.STOCKROOM_DATA) app.setPath('userData', resolve(process.env.STOCKROOM_DATA));

// Before `ready`: a scan's answer is not held back for the frame after its key (main/chromium-switches.ts).
// Checked: an Electron stand-in without a command line starts all the same.
if ('commandLine' in app) app.commandLine.appendSwitch('disable-features', DISABLED_CHROMIUM_FEATURES.join(','));

// Must happen before `ready`: app:// behaves like https (secure context, fetch, CORS rules).
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } }]);

let core: DesktopCore | null = null;
let window: BrowserWindow | null = null;
let quitting = false;

/**
 * The cipher of stored tokens, carrying its protection (keychain, obfuscated, none): the core shows
 * it in the connect flow and in Settings, where the person may choose not to stay signed in.
 */
function tokenCipher(): Cipher {
  try {
    return safeStorageCipher(safeStorage);
  } catch (e) {
    if (!(e instanceof KeychainUnavailableError)) throw e;
    if (safeStorage.isEncryptionAvailable()) {
      console.warn(`stockroom: ${e.message}; tokens are stored with Chromium's fallback key (obfuscated, not protected by a keychain)`);
      return safeStorageCipher(safeStorage, { allowBasicText: true });
    }
    console.warn(`stockroom: ${e.message}; tokens are stored unencrypted in the user-data folder`);
    return plainCipher;
  }
}

/** Every link that would leave the app: opened in the system browser when on the allow-list, never in the app. */
function openOutside(url: string): void {
  const allowed = core ? core.linkAllowed(url) : externalUrlAllowed(url, { hosts: linkHosts() });
  if (allowed) void shell.openExternal(url);
}

function hardenContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    keepDevToolsClosed(contents, app.isPackaged);
    contents.on('will-navigate', (event, url) => {
      // The renderer is a single page: any navigation away from it is refused.
      event.preventDefault();
      openOutside(url);
    });
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      openOutside(url);
      return { action: 'deny' };
    });
  });
}

function secureSession(): void {
  const s = session.defaultSession;
  s.setPermissionRequestHandler((_wc, permission, callback) => callback(permissionAllowed(permission)));
  s.setPermissionCheckHandler((_wc, permission) => permissionAllowed(permission));
  // Every http(s) response (the dev server) carries the CSP; app:// responses set it themselves.
  s.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || request.method !== 'GET') return new Response('Not found', { status: 404 });
    let path = decodeURIComponent(url.pathname);
    if (path === '/' || path === '') path = '/index.html';
    const file = resolve(rendererDir, `.${path}`);
    if (!file.startsWith(rendererDir + sep)) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(new Uint8Array(body), {
        headers: { 'content-type': contentType(file), 'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}

function workAreas() {
  return screen.getAllDisplays().map((d) => d.workArea);
}

function createWindow(): BrowserWindow {
  const stateFile = join(app.getPath('userData'), WINDOW_STATE_FILE);
  const bounds = restoreBounds(loadWindowState(stateFile), workAreas());
  const win = new BrowserWindow({
    ...windowOptions({ preload: preloadFile, packaged: app.isPackaged }),
    ...(bounds ? { x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height } : {}),
  });
  if (bounds?.maximized) win.maximize();
  const save = () => {
    if (win.isDestroyed()) return;
    const b = win.getNormalBounds();
    try {
      saveWindowState(stateFile, { ...b, maximized: win.isMaximized() });
    } catch (e) {
      console.warn('stockroom: cannot save the window position', e);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  win.on('resize', later);
  win.on('move', later);
  win.on('close', () => {
    clearTimeout(timer);
    save();
  });
  win.on('closed', () => {
    if (window === win) window = null;
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(devServerUrl ?? APP_INDEX_URL);
  return win;
}

function focusWindow(): void {
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** Shown notifications, kept referenced until clicked or closed: one collected early loses its click handler (Windows). */
const shown = new Set<Notification>();

function show(title: string, body: string, target: RevealTarget): void {
  // The body carries a buyer's text: escaped where the notification server renders markup (Linux).
  const n = new Notification({ title: notificationText(title, process.platform), body: notificationText(body, process.platform), silent: false });
  shown.add(n);
  n.on('click', () => {
    shown.delete(n);
    focusWindow();
    core?.reveal(target);
  });
  n.on('close', () => shown.delete(n));
  n.show();
}

/** The dock (macOS), launcher (Linux) or taskbar overlay (Windows) shows how many conversations wait to be read. */
let unreadShown = 0;

function showUnread(conversations: number): void {
  unreadShown = conversations;
  if (process.platform === 'win32') {
    if (!window) return;
    const icon = conversations > 0 ? nativeImage.createFromBitmap(badgeBitmap(), { width: BADGE_SIZE, height: BADGE_SIZE }) : null;
    window.setOverlayIcon(icon, badgeDescription(conversations));
  } else {
    app.setBadgeCount(conversations);
  }
}

/** Conflicts that arrive together (those kept from before a restart come all at once) make one notification. */
let conflictBurst: { count: number; timer: NodeJS.Timeout } | null = null;

function notify(e: StockroomEvent): void {
  if (!Notification.isSupported()) return;
  if (e.type === 'messages.new') {
    const n = e.messages.length;
    const packs = new Set(e.messages.map((m) => m.packId));
    const first = e.messages[0];
    // One conversation: the click opens it; several: the inbox, on the newest one's conversation.
    show(n === 1 ? 'New buyer message' : `${n} new buyer messages`, first?.text ?? '', {
      screen: 'conversation',
      packId: packs.size === 1 && first ? first.packId : (e.messages.at(-1)?.packId ?? 0),
    });
  } else if (e.type === 'sync.conflict') {
    if (conflictBurst) {
      conflictBurst.count++;
      return;
    }
    const cell = e.cell;
    conflictBurst = {
      count: 1,
      timer: setTimeout(() => {
        const n = conflictBurst?.count ?? 1;
        conflictBurst = null;
        show(
          n === 1 ? 'Stock conflict' : `${n} stock conflicts`,
          n === 1
            ? 'The marketplace changed a stock you counted. Open the grid to choose which value to keep.'
            : 'The marketplace changed stocks you counted. Open the grid, filtered to conflicts, to choose which values to keep.',
          { screen: 'conflicts', cell: n === 1 ? cell : null },
        );
      }, 300),
    };
  }
}

async function start(): Promise<void> {
  await app.whenReady();
  hardenContents();
  secureSession();
  // Packaged: the feed of electron-builder.yml's `publish` only; STOCKROOM_UPDATE_FEED turns updates on in development (an installed app ignores it).
  const updater = electronUpdaterPort({ app, feedUrl: process.env[UPDATE_FEED_ENV] });
  const c = await DesktopCore.open({
    dataDir: app.getPath('userData'),
    // A checkout's better-sqlite3 is built for Node: Electron's build is kept apart (npm start prepares it).
    nativeBinding: electronSqliteBinding({ packaged: app.isPackaged, electronVersion: process.versions.electron, from: import.meta.url }),
    language: languageOf(app.getLocale()),
    version: app.getVersion(),
    updates: updater ? { updater } : undefined,
    welcome: true,
    host: {
      shell: 'electron',
      cipher: tokenCipher(),
      openExternal: (url) => shell.openExternal(url),
      dialogs: {
        async openFiles() {
          const r = window
            ? await dialog.showOpenDialog(window, { properties: ['openFile', 'multiSelections'] })
            : await dialog.showOpenDialog({ properties: ['openFile', 'multiSelections'] });
          return r.canceled ? [] : r.filePaths;
        },
        async saveFile(defaultName) {
          const options = { defaultPath: downloadPath(app.getPath('downloads'), defaultName) };
          const r = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
          return r.canceled || !r.filePath ? null : r.filePath;
        },
      },
    },
  });
  core = c;
  registerIpc(ipcMain, c, { isAllowedSender: (url) => isAllowedSenderUrl(url, allowedOrigins) });
  forwardEvents(c.events, () => window?.webContents ?? null);
  c.events.on('event', notify);
  c.events.on('event', (e) => {
    if (e.type === 'inbox.unread') showUnread(e.conversations);
  });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        isMac: process.platform === 'darwin',
        appName: app.name,
        dev: !app.isPackaged,
        openDataFolder: () => void shell.openPath(app.getPath('userData')),
        // The answer (checking, found, downloading) shows in the window's update banner.
        ...(updater ? { checkForUpdates: () => void c.api.updates.check() } : {}),
      }),
    ),
  );
  window = createWindow();
  // The first count may have come before the window (the overlay needs one).
  showUnread(unreadShown);
  app.on('activate', () => {
    if (!window && core) window = createWindow();
  });
}

if (!app.requestSingleInstanceLock()) {
  // Another window of the app owns the data folder: it gets focus (second-instance), this one quits.
  app.quit();
} else {
  app.on('second-instance', focusWindow);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (quitting || !core) return;
    // Stop the outbox worker (it waits for the requests in flight) and close the database before leaving.
    event.preventDefault();
    quitting = true;
    const c = core;
    core = null;
    c.close()
      .catch((e: unknown) => console.error('stockroom: shutdown', e))
      .finally(() => app.quit());
  });
  start().catch((e: unknown) => {
    // better-sqlite3 built for another ABI: one line with the fix, no crash dialog.
    const abi = abiMismatch(e);
    if (abi) {
      console.error(abiMismatchLine(abi));
      app.exit(1);
      return;
    }
    console.error('stockroom: cannot start', e);
    dialog.showErrorBox('Stockroom cannot start', e instanceof Error ? e.message : String(e));
    app.exit(1);
  });
}
