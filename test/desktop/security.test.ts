import { RemoteClient, staticTokenProvider } from '../../main/sync/client.js';
import { failure, openCore, value } from './helpers.js';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXTERNAL_HOSTS, externalUrlAllowed, linkHosts } from '../../main/desktop/external.js';
import { menuTemplate } from '../../main/menu.js';
import {
  APP_INDEX_URL,
  APP_ORIGIN,
  appOrigins,
  contentSecurityPolicy,
  DEFAULT_PICTURE_HOSTS,
  pictureHosts,
  isAllowedSenderUrl,
  keepDevToolsClosed,
  originOf,
  permissionAllowed,
  windowOptions,
} from '../../main/security.js';

const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([k, ...v]) => [k!, v]),
  );

describe('the window (Electron security checklist)', () => {
  const prefs = windowOptions({ preload: '/app/dist/preload/index.cjs', packaged: true }).webPreferences!;

  it('isolates the page: context isolation and the sandbox on, Node integration off everywhere', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
    expect(prefs.preload).toBe('/app/dist/preload/index.cjs');
  });

  it('keeps web security on and every risky feature off', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
    expect(prefs.enableBlinkFeatures).toBe('');
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.navigateOnDragDrop).toBe(false);
  });

  it('has no DevTools in a packaged app, and keeps them for a developer', () => {
    expect(prefs.devTools).toBe(false);
    expect(windowOptions({ preload: '/p.cjs', packaged: false }).webPreferences!.devTools).toBe(true);
    // Everything else is the same in both.
    const { devTools: _packaged, ...packaged } = prefs;
    const { devTools: _dev, ...dev } = windowOptions({ preload: '/app/dist/preload/index.cjs', packaged: false }).webPreferences!;
    expect(dev).toEqual(packaged);
  });

  it('closes DevTools that open anyway in a packaged app, and leaves them alone in development', () => {
    // A stand-in web contents: an EventEmitter with closeDevTools, as Electron's WebContents is.
    const contents = (packaged: boolean) => {
      const c = Object.assign(new EventEmitter(), { closed: 0, closeDevTools: () => void c.closed++ });
      keepDevToolsClosed(c, packaged);
      c.emit('devtools-opened');
      return c;
    };
    expect(contents(true).closed).toBe(1);
    expect(contents(false).closed).toBe(0);
    expect(contents(false).listenerCount('devtools-opened')).toBe(0);
  });

  it('is what main/app.ts creates the window with', () => {
    const app = readFileSync(new URL('../../main/app.ts', import.meta.url), 'utf8');
    expect(app).toMatch(/new BrowserWindow\(\{\s*\.\.\.windowOptions\(\{ preload: preloadFile, packaged: app\.isPackaged \}\)/);
    // Every web contents of a packaged app closes DevTools that open.
    expect(app).toMatch(/'web-contents-created', \(_event, contents\) => \{\s*keepDevToolsClosed\(contents, app\.isPackaged\);/);
    // Navigation and new windows are denied for every web contents.
    expect(app).toMatch(/'will-navigate', \(event, url\) => \{\s*\/\/[^\n]*\n\s*event\.preventDefault\(\);/);
    expect(app).toMatch(/setWindowOpenHandler\(\(\{ url \}\) => \{\s*openOutside\(url\);\s*return \{ action: 'deny' \};/);
    expect(app).toMatch(/'will-attach-webview', \(event\) => event\.preventDefault\(\)/);
    expect(app).toMatch(/setPermissionRequestHandler/);
    expect(app).toMatch(/'Content-Security-Policy': \[csp\]/);
    expect(app).toMatch(/requestSingleInstanceLock\(\)/);
    // No other place opens a BrowserWindow or loads remote content.
    expect(app.match(/new BrowserWindow/g)).toHaveLength(1);
    expect(app).not.toMatch(/nodeIntegration:\s*true|contextIsolation:\s*false|sandbox:\s*false|webSecurity:\s*false/);
  });
});

describe('Content-Security-Policy', () => {
  const csp = contentSecurityPolicy();
  const d = directives(csp);

  it('allows scripts, styles and connections from the app itself only: no inline script, no eval, no remote code', () => {
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('style-src')).toEqual(["'self'"]);
    expect(d.get('connect-src')).toEqual(["'self'"]);
    expect(d.get('font-src')).toEqual(["'self'"]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|wasm-unsafe-eval|\*/);
  });

  it('forbids plugins, frames, forms, <base> and workers; images only from the app, data:, blob: and the picture hosts', () => {
    for (const k of ['object-src', 'base-uri', 'form-action', 'frame-src', 'frame-ancestors', 'worker-src', 'manifest-src'])
      expect(d.get(k)).toEqual(["'none'"]);
    // Not any https host (issue 25: a remote's text could make the renderer fetch a tracking pixel).
    expect(d.get('img-src')).toEqual(["'self'", 'data:', 'blob:', ...DEFAULT_PICTURE_HOSTS]);
    for (const source of d.get('img-src')!) expect(source).not.toMatch(/^(https?:|\*)$/);
  });

  it('takes the picture hosts from STOCKROOM_PICTURE_HOSTS, https origins only', () => {
    const hosts = pictureHosts({ STOCKROOM_PICTURE_HOSTS: 'https://img.market.test, https://cdn.market.test:8443' });
    expect(hosts).toEqual(['https://img.market.test', 'https://cdn.market.test:8443']);
    expect(directives(contentSecurityPolicy({ pictureHosts: hosts })).get('img-src')).toEqual(["'self'", 'data:', 'blob:', ...hosts]);
    expect(pictureHosts({})).toEqual(DEFAULT_PICTURE_HOSTS);
    for (const bad of [
      'https:',
      'http://img.market.test',
      'https://*.market.test',
      'https://img.market.test/path',
      "'unsafe-inline'",
      'https://a.test; script-src *',
    ]) {
      expect(() => pictureHosts({ STOCKROOM_PICTURE_HOSTS: bad }), bad).toThrow(/STOCKROOM_PICTURE_HOSTS/);
    }
  });

  it('relaxes only for the dev server, and only towards it', () => {
    const dev = directives(contentSecurityPolicy({ dev: { origin: 'http://localhost:5173' } }));
    expect(dev.get('script-src')).toEqual(["'self'", "'unsafe-inline'", 'http://localhost:5173']);
    expect(dev.get('connect-src')).toEqual(["'self'", 'http://localhost:5173', 'ws://localhost:5173']);
    expect(dev.get('object-src')).toEqual(["'none'"]);
  });
});

describe('IPC senders', () => {
  it('accepts the packaged app origin only (and the dev server when used)', () => {
    expect(APP_ORIGIN).toBe('app://stockroom');
    expect(isAllowedSenderUrl(APP_INDEX_URL, appOrigins())).toBe(true);
    expect(isAllowedSenderUrl('app://stockroom/some/route?x=1', appOrigins())).toBe(true);
    for (const url of ['app://stockroom.evil/', 'app://evil/', 'file:///C:/app/index.html', 'https://stockroom/', 'about:blank', '', 'not a url']) {
      expect(isAllowedSenderUrl(url, appOrigins())).toBe(false);
    }
    expect(isAllowedSenderUrl(undefined, appOrigins())).toBe(false);
    expect(originOf('app://stockroom/index.html')).toBe('app://stockroom');
  });

  it('grants the page no permission (camera, geolocation, notifications...)', () => {
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen']) expect(permissionAllowed(p)).toBe(false);
  });
});

describe('shell.openExternal allow-list', () => {
  const policy = { hosts: ['example.com'], signIn: ['http://127.0.0.1:8787'] };

  it('ships no example domain: only hosts configured by STOCKROOM_LINK_HOSTS are added (issue 25)', () => {
    expect(DEFAULT_EXTERNAL_HOSTS).toEqual([]);
    expect(linkHosts({})).toEqual([]);
    expect(externalUrlAllowed('https://example.com/tienda/aurora', { hosts: linkHosts({}) })).toBe(false);
    expect(linkHosts({ STOCKROOM_LINK_HOSTS: ' Mercadolibre.com.ar, mercadolivre.com.br ' })).toEqual(['mercadolibre.com.ar', 'mercadolivre.com.br']);
    // Not a host name: a scheme, a path, a wildcard, an address, a bare top-level domain.
    for (const bad of ['https://x.com', 'x.com/path', '*.x.com', '127.0.0.1', 'com', 'a..b.com', 'x.com:443']) {
      expect(() => linkHosts({ STOCKROOM_LINK_HOSTS: bad }), bad).toThrow(/STOCKROOM_LINK_HOSTS/);
    }
  });

  it('opens https links to allowed hosts and their subdomains', () => {
    expect(externalUrlAllowed('https://example.com/tienda/aurora', policy)).toBe(true);
    expect(externalUrlAllowed('https://www.example.com/x', policy)).toBe(true);
  });

  it('refuses other schemes, hosts that only look alike, credentials in the URL and plain http', () => {
    for (const url of [
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://example.com/share',
      'https://example.com.evil.net/',
      'https://evilexample.com/',
      'https://user:pass@example.com/',
      'https://example.com@evil.net/',
      'ms-settings:',
      'not a url',
    ]) {
      expect(externalUrlAllowed(url, policy), url).toBe(false);
    }
  });

  it("allows the configured marketplace's sign-in page only (not the rest of its site), also as http on loopback only", () => {
    expect(externalUrlAllowed('http://127.0.0.1:8787/authorization?client_id=1', policy)).toBe(true);
    expect(externalUrlAllowed('http://127.0.0.1:8787/anything', policy)).toBe(false);
    expect(externalUrlAllowed('http://127.0.0.1:9999/authorization', policy)).toBe(false);
    expect(externalUrlAllowed('http://192.168.0.10:8787/authorization', { hosts: [], signIn: ['http://192.168.0.10:8787'] })).toBe(false);
    expect(externalUrlAllowed('https://api.market.test/authorization', { hosts: [], signIn: ['https://api.market.test'] })).toBe(true);
    expect(externalUrlAllowed('https://api.market.test/authorization/../evil', { hosts: [], signIn: ['https://api.market.test'] })).toBe(false);
    // A marketplace under a path signs in under that path.
    expect(externalUrlAllowed('https://market.test/api/authorization?x=1', { hosts: [], signIn: ['https://market.test/api'] })).toBe(true);
    expect(externalUrlAllowed('https://evil.com/anything', { hosts: [], signIn: ['https://evil.com'] })).toBe(false);
  });
});

describe('application menu', () => {
  const roles = (items: ReturnType<typeof menuTemplate>): string[] =>
    items.flatMap((i) => [...(i.role ? [i.role] : []), ...(Array.isArray(i.submenu) ? roles(i.submenu) : [])]);

  it('has the usual roles on every platform, and the app menu on macOS', () => {
    const win = roles(menuTemplate({ isMac: false, appName: 'Stockroom', dev: false, openDataFolder: () => undefined }));
    expect(win).toEqual(
      expect.arrayContaining(['fileMenu', 'quit', 'editMenu', 'reload', 'zoomIn', 'zoomOut', 'resetZoom', 'togglefullscreen', 'windowMenu', 'help', 'about']),
    );
    expect(win).not.toContain('toggleDevTools');
    const mac = roles(menuTemplate({ isMac: true, appName: 'Stockroom', dev: true, openDataFolder: () => undefined }));
    expect(mac).toEqual(expect.arrayContaining(['about', 'hide', 'hideOthers', 'unhide', 'quit', 'close', 'toggleDevTools']));
  });

  it('offers "Check for Updates…" only when updates are on: in the app menu on macOS, in Help elsewhere', () => {
    const labels = (items: ReturnType<typeof menuTemplate>): string[] =>
      items.flatMap((i) => [...(i.label ? [i.label] : []), ...(Array.isArray(i.submenu) ? labels(i.submenu) : [])]);
    const checks: string[] = [];
    const base = { appName: 'Stockroom', dev: false, openDataFolder: () => undefined };
    expect(labels(menuTemplate({ ...base, isMac: false }))).not.toContain('Check for Updates…');
    for (const isMac of [false, true]) {
      const menu = menuTemplate({ ...base, isMac, checkForUpdates: () => void checks.push(isMac ? 'mac' : 'other') });
      const top = menu.find((m) => Array.isArray(m.submenu) && labels(m.submenu as ReturnType<typeof menuTemplate>).includes('Check for Updates…'))!;
      expect(isMac ? top.label : top.role).toBe(isMac ? 'Stockroom' : 'help');
      const item = (top.submenu as ReturnType<typeof menuTemplate>).find((i) => i.label === 'Check for Updates…')!;
      (item.click as () => void)();
    }
    expect(checks).toEqual(['other', 'mac']);
  });
});

describe('links and tokens stay home (the desktop core)', () => {
  it('a marketplace address must be https (http only on this computer); a changed address opens its sign-in page and nothing else', async () => {
    const opened: string[] = [];
    const c = await openCore({ host: { shell: 'electron', openExternal: async (url) => void opened.push(url) } });
    try {
      const api = c.core.api;
      for (const baseUrl of ['http://evil.com', 'http://192.168.0.10:8787', 'ftp://market.test', 'https://user:pw@market.test']) {
        expect(failure(await api.settings.update({ baseUrl })).code, baseUrl).toBe('bad_request');
      }
      expect(value(await api.settings.get()).baseUrl).toBeNull();
      value(await api.settings.update({ baseUrl: 'http://127.0.0.1:8787' }));
      value(await api.settings.update({ baseUrl: 'https://evil.com' }));
      expect(failure(await api.app.openExternal({ url: 'https://evil.com/anything' })).code).toBe('forbidden_url');
      expect(failure(await api.app.openExternal({ url: 'https://evil.com/' })).code).toBe('forbidden_url');
      value(await api.app.openExternal({ url: 'https://evil.com/authorization?response_type=code&client_id=1' }));
      expect(opened).toEqual(['https://evil.com/authorization?response_type=code&client_id=1']);
    } finally {
      await c.close();
    }
  });

  it('the remote client refuses to send a token over plain http to another computer', () => {
    expect(() => new RemoteClient({ baseUrl: 'http://evil.com', auth: staticTokenProvider('t', 1) })).toThrow(/must use https/);
    expect(() => new RemoteClient({ baseUrl: 'http://127.0.0.1:9', auth: staticTokenProvider('t', 1) })).not.toThrow();
  });
});
