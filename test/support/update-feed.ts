/**
 * What the updater tests run against: a generic-provider update feed on 127.0.0.1 (latest.yml,
 * latest-linux.yml, latest-mac.yml and the file they name, as `npm run dist` writes them to
 * release/), and a stand-in for the `electron` module so that electron-updater's own classes
 * (ElectronAppAdapter, ElectronHttpExecutor, AppImageUpdater) run under Node: `app` records quits,
 * `net.request` is Node's http.request (the same ClientRequest events the executor listens to).
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import { Module, createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

export interface Release {
  version: string;
  /** The file's name in the feed (`Stockroom-1.1.0.AppImage`). */
  file: string;
  bytes: Buffer;
  /** What latest*.yml claims (default: the real digest of `bytes`), to serve a corrupt release. */
  sha512?: string;
}

export interface UpdateFeed {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  /** Replaces what the feed offers. */
  publish(release: Release): void;
  /**
   * The next download of the file sends its first half and stops there until `release()`:
   * `sent` resolves once that half is on the wire.
   */
  holdDownload(): { sent: Promise<void>; release(): void };
  close(): Promise<void>;
}

export const sha512Base64 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/** latest*.yml of a generic feed, as electron-builder writes it. */
export function latestYml(r: Release): string {
  const sha512 = r.sha512 ?? sha512Base64(r.bytes);
  return [
    `version: ${r.version}`,
    'files:',
    `  - url: ${r.file}`,
    `    sha512: ${sha512}`,
    `    size: ${r.bytes.length}`,
    `path: ${r.file}`,
    `sha512: ${sha512}`,
    `releaseDate: '2026-11-24T12:00:00.000Z'`,
    '',
  ].join('\n');
}

export async function startUpdateFeed(first: Release): Promise<UpdateFeed> {
  let current = first;
  const requests: string[] = [];
  let hold: { sent: () => void; go: Promise<void> } | null = null;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://feed').pathname;
    requests.push(path);
    if (req.method !== 'GET') {
      res.writeHead(405).end();
      return;
    }
    if (/^\/latest(-linux|-mac)?\.yml$/.test(path)) {
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(latestYml(current));
      return;
    }
    if (path === `/${current.file}`) {
      const bytes = current.bytes;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) });
      const h = hold;
      hold = null;
      if (!h) {
        res.end(bytes);
        return;
      }
      const half = Math.floor(bytes.length / 2);
      res.write(bytes.subarray(0, half), () => h.sent());
      void h.go.then(() => res.end(bytes.subarray(half)));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    publish: (r) => void (current = r),
    holdDownload() {
      let sent!: () => void;
      let go!: () => void;
      const sentP = new Promise<void>((r) => (sent = r));
      const goP = new Promise<void>((r) => (go = r));
      hold = { sent, go: goP };
      return { sent: sentP, release: go };
    },
    close: () =>
      new Promise<void>((resolve) => {
        hold = null;
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ElectronStandIn {
  app: EventEmitter & { isPackaged: boolean; getVersion(): string; quit(): void };
  /** Calls of `app.quit()`. */
  quits: number;
  /** Runs at each `app.quit()` (a test records what the app was doing then). */
  onQuit: (() => void) | null;
  /** Takes the stand-in out of the module cache. */
  remove(): void;
}

/**
 * Puts a stand-in `electron` module into Node's module cache (require.cache, where Node looks
 * before loading a file), under the path `require('electron')` resolves to from electron-updater:
 * the real package's index.js would try to download Electron.
 */
export function installElectronStandIn(o: { version: string; userData: string }): ElectronStandIn {
  const require_ = createRequire(import.meta.url);
  const id = createRequire(require_.resolve('electron-updater')).resolve('electron');
  const standIn: ElectronStandIn = {
    quits: 0,
    onQuit: null,
    app: Object.assign(new EventEmitter(), {
      name: 'Stockroom',
      isPackaged: true,
      getName: () => 'Stockroom',
      getVersion: () => o.version,
      getAppPath: () => o.userData,
      getPath: () => o.userData,
      whenReady: () => Promise.resolve(),
      relaunch: () => undefined,
      quit: () => {
        standIn.quits++;
        standIn.onQuit?.();
      },
    }),
    remove: () => void delete require_.cache[id],
  };
  const exports = {
    app: standIn.app,
    autoUpdater: new EventEmitter(),
    session: { fromPartition: () => ({}) },
    // electron's net.request takes the same options (protocol, hostname, port, path, headers) and its
    // ClientRequest emits what Node's does ('response', 'error', 'abort'); `session` and `redirect` are ignored.
    net: { request: (options: Parameters<typeof request>[0]) => request(options) },
  };
  const m = new Module(id);
  m.filename = id;
  m.loaded = true;
  m.exports = exports;
  require_.cache[id] = m;
  return standIn;
}
