import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../../main/desktop/sqlite-electron.js';
import { connectTarget, failureLine, httpsProxy, seconds } from '../../main/desktop/bounded-run.js';
import { type Fallback, downloadBlocker, electronArch, electronCacheRoot, electronMirror, fallbackLine } from '../../main/desktop/electron-prepare.js';

const URL_ = 'http://127.0.0.1:5000/#token=abc';
const DATA = '/home/me/.config/Stockroom';

describe('npm start: whether to download Electron', () => {
  it('downloads when nothing stands in the way', () => {
    expect(downloadBlocker({}, true)).toBeNull();
    expect(downloadBlocker({ STOCKROOM_NO_ELECTRON: '0', ELECTRON_SKIP_BINARY_DOWNLOAD: '' }, true)).toBeNull();
  });

  it('STOCKROOM_NO_ELECTRON skips it (the browser mode, at once)', () => {
    expect(downloadBlocker({ STOCKROOM_NO_ELECTRON: '1' }, true)).toEqual({ kind: 'disabled' });
    expect(downloadBlocker({ STOCKROOM_NO_ELECTRON: 'true' }, false)).toEqual({ kind: 'disabled' });
  });

  it('no electron package, an override folder of the developer, or ELECTRON_SKIP_BINARY_DOWNLOAD: no download', () => {
    expect(downloadBlocker({}, false)).toEqual({ kind: 'no-package' });
    // A download goes to node_modules/electron/dist, which the override would hide: pointless.
    expect(downloadBlocker({ ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' }, true)).toEqual({ kind: 'override', dir: '/opt/electron' });
    expect(downloadBlocker({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }, true)).toEqual({ kind: 'skip-download' });
  });
});

describe('the one line of the fallback', () => {
  const cases: [Fallback, string][] = [
    [{ kind: 'disabled' }, `STOCKROOM_NO_ELECTRON is set; starting the browser mode at ${URL_} (data: ${DATA})`],
    [
      { kind: 'download-failed', version: '45.4.1', why: 'github.com:443 is unreachable (ENOTFOUND)' },
      `Electron is not installed on this machine (downloading Electron 45.4.1 failed: github.com:443 is unreachable (ENOTFOUND)); starting the browser mode at ${URL_} (data: ${DATA}). To retry: npm run electron:prepare`,
    ],
    [
      { kind: 'sqlite-failed', electronVersion: '45.4.1', why: 'no prebuilt binary (x) and the rebuild failed (y)' },
      `better-sqlite3 is not built for Electron 45.4.1 (no prebuilt binary (x) and the rebuild failed (y)); starting the browser mode at ${URL_} (data: ${DATA}). To retry: npm run electron:prepare`,
    ],
    [
      { kind: 'skip-download' },
      `Electron is not installed on this machine (ELECTRON_SKIP_BINARY_DOWNLOAD is set); starting the browser mode at ${URL_} (data: ${DATA}). To download it: unset ELECTRON_SKIP_BINARY_DOWNLOAD and run npm run electron:prepare`,
    ],
    [
      { kind: 'override', dir: '/opt/e' },
      `Electron is not installed on this machine (ELECTRON_OVERRIDE_DIST_PATH has no Electron binary: /opt/e); starting the browser mode at ${URL_} (data: ${DATA}). To download it instead: unset ELECTRON_OVERRIDE_DIST_PATH`,
    ],
    [
      { kind: 'no-package' },
      `Electron is not installed on this machine (no electron package in node_modules); starting the browser mode at ${URL_} (data: ${DATA}). To install it: npm install`,
    ],
  ];
  it.each(cases)('%o', (f, line) => {
    expect(fallbackLine(f, URL_, DATA)).toBe(line);
  });
});

describe('where the download goes', () => {
  it("the mirror @electron/get uses: npm's config first, then ELECTRON_MIRROR, else GitHub", () => {
    expect(electronMirror({})).toBe('https://github.com/electron/electron/releases/download/');
    expect(electronMirror({ ELECTRON_MIRROR: 'https://npmmirror.com/mirrors/electron/' })).toBe('https://npmmirror.com/mirrors/electron/');
    expect(electronMirror({ ELECTRON_MIRROR: 'https://a/', npm_config_electron_mirror: 'https://b/' })).toBe('https://b/');
  });

  it('the host the reachability check connects to: the proxy when one is used', () => {
    expect(connectTarget('https://github.com/electron/', undefined)).toEqual({ host: 'github.com', port: 443 });
    expect(connectTarget('http://127.0.0.1:8080/m/', undefined)).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(connectTarget('https://github.com/', 'http://proxy.corp:3128')).toEqual({ host: 'proxy.corp', port: 3128 });
    expect(connectTarget('http://[::1]:9/', undefined)).toEqual({ host: '::1', port: 9 });
    expect(httpsProxy({ https_proxy: 'http://p:1' })).toBe('http://p:1');
  });

  it("Electron's cache of downloaded zips, per platform", () => {
    expect(electronCacheRoot({ electron_config_cache: '/c' }, 'linux', '/home/me')).toBe('/c');
    expect(electronCacheRoot({}, 'linux', '/home/me')).toBe(join('/home/me', '.cache', 'electron'));
    expect(electronCacheRoot({ XDG_CACHE_HOME: '/x' }, 'linux', '/home/me')).toBe(join('/x', 'electron'));
    expect(electronCacheRoot({}, 'darwin', '/Users/me')).toBe(join('/Users/me', 'Library', 'Caches', 'electron'));
    expect(electronCacheRoot({ LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local' }, 'win32', 'C:\\Users\\me')).toBe(
      join('C:\\Users\\me\\AppData\\Local', 'electron', 'Cache'),
    );
  });

  it("the arch of Electron's download, which the native build must match (arm64 under Rosetta, as install.js does)", () => {
    const rosetta = () => true;
    const native = () => false;
    expect(electronArch({}, 'linux', 'x64', rosetta)).toBe('x64');
    expect(electronArch({}, 'darwin', 'x64', native)).toBe('x64');
    expect(electronArch({}, 'darwin', 'x64', rosetta)).toBe('arm64');
    expect(electronArch({ npm_config_arch: 'x64' }, 'darwin', 'x64', rosetta)).toBe('x64');
    expect(electronArch({ ELECTRON_INSTALL_ARCH: 'arm64' }, 'win32', 'x64', native)).toBe('arm64');
  });
});

describe('the children that fetch and build', () => {
  it("drop npm's settings that would build for Node instead of Electron", () => {
    const env = childEnv({
      PATH: '/bin',
      npm_config_nodedir: '/usr/include/node',
      NPM_CONFIG_TARGET: '20.19.0',
      npm_config_runtime: 'node',
      npm_package_resolved: 'git+x',
      npm_config_cache: '/c',
    });
    expect(env).toEqual({ PATH: '/bin', npm_config_cache: '/c' });
  });

  it('report the line that says what went wrong', () => {
    const stack =
      'HTTPError: Response code 404 (Not Found) for http://127.0.0.1:1/v45.4.1/electron-v45.4.1-linux-x64.zip\n    at FetchDownloader.download (file:///x.js:1:1)\n';
    expect(failureLine(stack)).toBe('HTTPError: Response code 404 (Not Found) for http://127.0.0.1:1/v45.4.1/electron-v45.4.1-linux-x64.zip');
    expect(failureLine('prebuild-install warn install No prebuilt binaries found\n')).toBe('prebuild-install warn install No prebuilt binaries found');
    expect(failureLine('')).toBe('no output');
    expect(seconds(300)).toBe('0.3 s');
    expect(seconds(600_000)).toBe('10 min');
  });
});
