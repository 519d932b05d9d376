import type { BrowserWindowConstructorOptions } from 'electron';
import { z } from 'zod';

/**
 * The security settings of the desktop window, as pure values and functions (no Electron import at
 * runtime) so that test/desktop/security.test.ts asserts exactly what main/app.ts uses. Electron's
 * security checklist: https://www.electronjs.org/docs/latest/tutorial/security
 */

/** The packaged renderer is served from this standard, secure custom scheme (never file://). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'stockroom';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * Where the marketplace serves pictures (item pictures, brand logos): the only remote hosts the
 * page may load images from. `img-src https:` let any text of the remote make the renderer fetch
 * any host, a tracking pixel of when and where the seller reads (issue 25).
 */
export const DEFAULT_PICTURE_HOSTS: readonly string[] = ['https://http2.mlstatic.com'];

// An https origin with a host name: no path, no wildcard, no credentials, no CSP keyword.
const pictureOrigin = z
  .string()
  .regex(/^https:\/\/([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(:\d{1,5})?$/, 'an https origin such as https://pictures.marketplace.com');

/** The picture hosts: the defaults, or STOCKROOM_PICTURE_HOSTS (comma-separated https origins) instead. */
export function pictureHosts(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  const raw = env.STOCKROOM_PICTURE_HOSTS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_PICTURE_HOSTS;
  const hosts = raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  const parsed = z.array(pictureOrigin).safeParse(hosts);
  if (!parsed.success)
    throw new Error(`STOCKROOM_PICTURE_HOSTS: ${parsed.error.issues.map((i) => `${String(hosts[Number(i.path[0])])} is not ${i.message}`).join('; ')}`);
  return parsed.data;
}

/**
 * The Content-Security-Policy of every page of the app (Electron window and browser mode): scripts,
 * styles, fonts and connections only from the app's own origin, no inline script, no eval, no
 * plugins, no frames, no forms, no <base>. Images may also come from the marketplace's picture
 * hosts (`pictureHosts`), data: and blob: (previews of attachments). `dev` adds what the Vite dev
 * server needs (its inline React refresh preamble and HMR web socket) and is never used for a packaged app.
 */
export function contentSecurityPolicy(options: { dev?: { origin: string }; pictureHosts?: readonly string[] } = {}): string {
  const dev = options.dev;
  const pictures = options.pictureHosts ?? DEFAULT_PICTURE_HOSTS;
  const ws = dev ? dev.origin.replace(/^http/, 'ws') : '';
  const directives: [string, string][] = [
    ['default-src', "'none'"],
    ['script-src', dev ? `'self' 'unsafe-inline' ${dev.origin}` : "'self'"],
    ['style-src', dev ? "'self' 'unsafe-inline'" : "'self'"],
    ['img-src', ["'self'", 'data:', 'blob:', ...pictures].join(' ')],
    ['font-src', "'self'"],
    ['connect-src', dev ? `'self' ${dev.origin} ${ws}` : "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-src', "'none'"],
    ['frame-ancestors', "'none'"],
    ['worker-src', "'none'"],
    ['manifest-src', "'none'"],
  ];
  return directives.map(([k, v]) => `${k} ${v}`).join('; ');
}

/**
 * The window: isolated, sandboxed, no Node in the page, nothing the page does not need. `packaged`
 * (Electron's `app.isPackaged`): an installed app has no DevTools, a developer's checkout has them.
 */
export function windowOptions(o: { preload: string; packaged: boolean; title?: string }): BrowserWindowConstructorOptions {
  return {
    title: o.title ?? 'Stockroom',
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 560,
    show: false,
    backgroundColor: '#f6f7f9',
    autoHideMenuBar: false,
    webPreferences: {
      preload: o.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      enableBlinkFeatures: '',
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: true,
      devTools: !o.packaged,
    },
  };
}

/** What keepDevToolsClosed needs of a WebContents (a structural type, so it runs without Electron). */
export interface DevToolsHost {
  on(event: 'devtools-opened', listener: () => void): unknown;
  closeDevTools(): void;
}

/**
 * In a packaged app, DevTools that open anyway (`devTools: false` already refuses them; a web
 * contents created without windowOptions, or a future Electron that opens them on another path)
 * are closed at once. In development nothing changes.
 */
export function keepDevToolsClosed(contents: DevToolsHost, packaged: boolean): void {
  if (!packaged) return;
  contents.on('devtools-opened', () => contents.closeDevTools());
}

/** `scheme://host[:port]` of a URL (URL.origin is "null" for custom schemes), or null when it does not parse. */
export function originOf(raw: string): string | null {
  try {
    const u = new URL(raw);
    if (u.host === '') return null;
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

/**
 * Whether an IPC message comes from the app's own page: the frame's URL must be on the packaged
 * app origin (app://stockroom) or, in development only, the Vite dev server's origin.
 */
export function isAllowedSenderUrl(url: string | undefined | null, allowedOrigins: readonly string[]): boolean {
  if (typeof url !== 'string' || url === '') return false;
  const origin = originOf(url);
  return origin !== null && allowedOrigins.includes(origin);
}

/** The origins the window may be on: the packaged app, plus the dev server when one is used. */
export function appOrigins(devServerUrl?: string | undefined): string[] {
  const dev = devServerUrl ? originOf(devServerUrl) : null;
  return dev ? [APP_ORIGIN, dev] : [APP_ORIGIN];
}

/** Permissions the page may get (camera, geolocation, notifications from the page...): none. Notifications are shown by the main process. */
export function permissionAllowed(_permission: string): boolean {
  return false;
}
