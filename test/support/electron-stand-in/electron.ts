/**
 * A stand-in for the `electron` module, so the built main process (dist/main/app.js) runs under
 * plain Node (mapped in by hooks.ts). It exports what main/ imports from 'electron', behaving as
 * Electron does where the app depends on it: `ready` comes after the main script ran; privileged
 * schemes only before it, windows, sessions, protocol handlers and screens only after it; quit runs
 * before-quit (which may be prevented), closes the windows (their `close`), then will-quit and
 * exits; the single-instance lock is per user-data folder and tells the first instance about the
 * second; IPC payloads and answers are structured-cloned; the window's preload runs in a context
 * that can require only what a sandboxed preload can. Chromium's part (the page) is played by the
 * test through the control channel (control.ts): it invokes IPC as a frame, fetches through the
 * protocol handler, asks for permissions, navigates, clicks notifications, quits.
 * process.versions.electron is left unset: this is Node, with Node's native modules.
 * One file past 400 lines because it stands for one module whose parts share one lifecycle (ready,
 * quitting, the windows and their sessions); split, every part would import the same state.
 */
import { EventEmitter } from 'node:events';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { type Server, connect, createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import * as timers from 'node:timers';
import * as url from 'node:url';
import * as vm from 'node:vm';
import type {
  BrowserWindowConstructorOptions,
  CustomScheme,
  HandlerDetails,
  MenuItemConstructorOptions,
  NotificationConstructorOptions,
  OnHeadersReceivedListenerDetails,
  Rectangle,
  SafeStorage,
  WindowOpenHandlerResponse,
} from 'electron';
import type * as Real from 'electron';
import { type ReplyMessage, type StandInCommand, type StandInRecord, commandMessage } from './control.js';

// ---------------------------------------------------------------- the control channel

/** The last messages must reach the test before the process exits. */
let sending = Promise.resolve();

function post(message: { record: StandInRecord } | { reply: ReplyMessage }): void {
  const send = process.send?.bind(process);
  if (!send || !process.connected) {
    if ('record' in message) console.error(`[electron stand-in] ${JSON.stringify(message.record)}`);
    return;
  }
  sending = new Promise((done) => {
    try {
      send(message, undefined, undefined, () => done());
    } catch {
      done();
    }
  });
}

function record(r: StandInRecord): void {
  post({ record: r });
}

/** What can be recorded of options and arguments: data, without functions or native handles. */
function plain(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'function' ? undefined : v))) as unknown;
}

// ---------------------------------------------------------------- events and app

/** Electron's Event: what a listener may prevent. */
interface StandInEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}

function newEvent<T extends object>(extra?: T): StandInEvent & T {
  const e = {
    ...(extra ?? ({} as T)),
    defaultPrevented: false,
    preventDefault() {
      e.defaultPrevented = true;
    },
  };
  return e;
}

let ready = false;
const readyPromise = new Promise<void>((resolve) => {
  // Electron emits `ready` once the main script has run: after this module graph evaluated.
  setImmediate(() => {
    ready = true;
    record({ type: 'ready' });
    app.emit('ready', newEvent(), {});
    resolve();
  });
});

// Electron's main loop keeps the process alive until it quits.
const mainLoop = setInterval(() => undefined, 1 << 30);

function requireReady(what: string): void {
  if (!ready) throw new Error(`${what} cannot be used before the app is ready`);
}

function findPackageJson(): { name?: string; productName?: string; version?: string } {
  let dir = dirname(process.argv[1] ?? process.cwd());
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { name?: string; productName?: string; version?: string };
    const up = dirname(dir);
    if (up === dir) return {};
    dir = up;
  }
}

const pkg = findPackageJson();
const standInRoot = join(tmpdir(), 'electron-stand-in');

class App extends EventEmitter {
  readonly isPackaged = false;
  /** Chromium's command line: what is appended is recorded, with whether it came too late (after ready). */
  readonly commandLine = {
    appendSwitch(name: string, value = ''): void {
      record({ type: 'switch', name, value, afterReady: ready });
    },
  };
  name = pkg.productName ?? pkg.name ?? 'Electron';
  private readonly paths = new Map<string, string>();
  private badge = 0;
  private quitting = false;
  private singleton: { lock: string; server: Server | null } | null = null;
  /** Things to finish before exiting (telling the first instance about this one). */
  private readonly beforeExit: Promise<unknown>[] = [];

  constructor() {
    super();
    // Never the person's real folders: every default lives under the temporary folder.
    this.paths.set('home', homedir());
    this.paths.set('temp', tmpdir());
    this.paths.set('appData', join(standInRoot, 'appData'));
    this.paths.set('downloads', join(standInRoot, 'Downloads'));
    this.paths.set('documents', join(standInRoot, 'Documents'));
    this.paths.set('desktop', join(standInRoot, 'Desktop'));
    this.paths.set('logs', join(standInRoot, 'logs'));
  }

  whenReady(): Promise<void> {
    return readyPromise;
  }

  isReady(): boolean {
    return ready;
  }

  getPath(name: string): string {
    if (name === 'userData' || name === 'sessionData') return this.paths.get(name) ?? join(this.paths.get('appData')!, this.name);
    const p = this.paths.get(name);
    if (p === undefined) throw new Error(`Failed to get '${name}' path`);
    return p;
  }

  setPath(name: string, path: string): void {
    if (!isAbsolute(path)) throw new Error('Path must be absolute');
    this.paths.set(name, path);
  }

  getLocale(): string {
    return process.env.ELECTRON_STAND_IN_LOCALE ?? 'en-US';
  }

  getVersion(): string {
    return pkg.version ?? '0.0.0';
  }

  getName(): string {
    return this.name;
  }

  setBadgeCount(count?: number): boolean {
    this.badge = count ?? 0;
    record({ type: 'badge', count: this.badge });
    return true;
  }

  getBadgeCount(): number {
    return this.badge;
  }

  setAppUserModelId(_id: string): void {}

  focus(): void {}

  /**
   * Per user-data folder, as Electron's (which keeps SingletonLock there): a lock file with the
   * owner's pid (a lock of a process that is gone is taken over) and a local socket the first
   * instance listens on; the second tells it its argv (`second-instance`) and gets false.
   */
  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean {
    const userData = this.getPath('userData');
    mkdirSync(userData, { recursive: true });
    const lock = join(userData, 'SingletonLock');
    const socket =
      process.platform === 'win32'
        ? `\\\\.\\pipe\\electron-stand-in-${createHash('sha256').update(userData).digest('hex').slice(0, 16)}`
        : join(tmpdir(), `electron-stand-in-${createHash('sha256').update(userData).digest('hex').slice(0, 16)}.sock`);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(lock, 'wx');
        writeSync(fd, String(process.pid));
        closeSync(fd);
        if (process.platform !== 'win32') rmSync(socket, { force: true });
        const server = createServer((conn) => {
          let text = '';
          conn.setEncoding('utf8');
          conn.on('data', (chunk: string) => (text += chunk));
          conn.on('end', () => {
            const argv = JSON.parse(text) as { argv: string[]; cwd: string; data: unknown };
            record({ type: 'second-instance', argv: argv.argv });
            this.emit('second-instance', newEvent(), argv.argv, argv.cwd, argv.data);
          });
        });
        server.listen(socket);
        server.unref();
        this.singleton = { lock, server };
        process.once('exit', () => {
          rmSync(lock, { force: true });
          if (process.platform !== 'win32') rmSync(socket, { force: true });
        });
        record({ type: 'single-instance', granted: true });
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const pid = Number(readFileSync(lock, 'utf8').trim());
        if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
          this.beforeExit.push(
            new Promise<void>((done) => {
              const conn = connect(socket, () => conn.end(JSON.stringify({ argv: process.argv, cwd: process.cwd(), data: additionalData ?? null })));
              conn.on('close', () => done());
              conn.on('error', () => done());
            }),
          );
          record({ type: 'single-instance', granted: false });
          return false;
        }
        rmSync(lock, { force: true });
      }
    }
    throw new Error('stand-in: cannot take the single-instance lock');
  }

  releaseSingleInstanceLock(): void {
    if (!this.singleton) return;
    this.singleton.server?.close();
    rmSync(this.singleton.lock, { force: true });
    this.singleton = null;
  }

  /** Electron's order: before-quit (preventable), every window's close (preventable), will-quit, quit, exit. */
  quit(): void {
    if (this.quitting) return;
    const before = newEvent();
    record({ type: 'quit', phase: 'before-quit' });
    this.emit('before-quit', before);
    if (before.defaultPrevented) {
      record({ type: 'quit', phase: 'prevented' });
      return;
    }
    for (const w of [...BrowserWindow.getAllWindows()]) {
      if (!w.closeForQuit()) return;
    }
    const will = newEvent();
    this.emit('will-quit', will);
    if (will.defaultPrevented) return;
    record({ type: 'quit', phase: 'will-quit' });
    this.quitting = true;
    this.emit('quit', newEvent(), 0);
    void this.exitProcess(0);
  }

  /** Exits at once: no before-quit, no close events. */
  exit(code = 0): void {
    this.quitting = true;
    for (const w of [...BrowserWindow.getAllWindows()]) w.destroy();
    void this.exitProcess(code);
  }

  /** The last window closed (not during a quit): `window-all-closed`, or a quit when nobody listens. */
  lastWindowClosed(): void {
    if (this.quitting) return;
    if (this.listenerCount('window-all-closed') === 0) this.quit();
    else this.emit('window-all-closed');
  }

  private async exitProcess(code: number): Promise<void> {
    clearInterval(mainLoop);
    await Promise.all(this.beforeExit);
    await sending;
    process.exit(code);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export const app = new App();

// ---------------------------------------------------------------- IPC

type InvokeHandler = (event: IpcMainInvokeEventLike, ...args: unknown[]) => unknown;

interface IpcMainInvokeEventLike {
  sender: WebContents;
  senderFrame: { url: string; parent: object | null; top: object | null } | null;
  frameId: number;
  processId: number;
}

const invokeHandlers = new Map<string, InvokeHandler>();

class IpcMain extends EventEmitter {
  handle(channel: string, listener: InvokeHandler): void {
    if (invokeHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    invokeHandlers.set(channel, listener);
    record({ type: 'ipc-handled', channel });
  }

  handleOnce(channel: string, listener: InvokeHandler): void {
    this.handle(channel, (event, ...args) => {
      this.removeHandler(channel);
      return listener(event, ...args);
    });
  }

  removeHandler(channel: string): void {
    if (invokeHandlers.delete(channel)) record({ type: 'ipc-removed', channel });
  }
}

export const ipcMain = new IpcMain();

/** ipcRenderer.invoke as Electron runs it: arguments and answer cross by structured clone; a throw rejects with Electron's wording. */
async function invokeFromFrame(sender: WebContents, frame: { url: string; subframe: boolean }, channel: string, args: unknown[]): Promise<unknown> {
  const handler = invokeHandlers.get(channel);
  if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
  const top = {};
  const event: IpcMainInvokeEventLike = {
    sender,
    senderFrame: { url: frame.url, parent: frame.subframe ? top : null, top },
    frameId: frame.subframe ? 2 : 1,
    processId: 1,
  };
  try {
    return structuredClone(await handler(event, ...structuredClone(args)));
  } catch (e) {
    throw new Error(`Error invoking remote method '${channel}': ${String(e)}`, { cause: e });
  }
}

// ---------------------------------------------------------------- protocol and session

const protocolHandlers = new Map<string, (request: Request) => Response | Promise<Response>>();
let privilegedRegistered = false;

export const protocol = {
  registerSchemesAsPrivileged(schemes: CustomScheme[]): void {
    if (ready) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
    // Electron keeps only the last call's list: a second call would silently drop the first's schemes.
    if (privilegedRegistered) throw new Error('stand-in: protocol.registerSchemesAsPrivileged called twice (Electron keeps only the last list)');
    privilegedRegistered = true;
    record({ type: 'privileged-schemes', schemes: schemes.map((s) => ({ scheme: s.scheme, ...(s.privileges ? { privileges: { ...s.privileges } } : {}) })) });
  },
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void {
    requireReady('protocol');
    if (protocolHandlers.has(scheme)) throw new Error(`The scheme has been registered: ${scheme}`);
    protocolHandlers.set(scheme, handler);
    record({ type: 'protocol-handled', scheme });
  },
  unhandle(scheme: string): void {
    protocolHandlers.delete(scheme);
  },
  isProtocolHandled(scheme: string): boolean {
    return protocolHandlers.has(scheme);
  },
};

/** A request of the page, answered by the handler of its scheme (null: no handler, as for http here). */
async function requestThroughProtocol(raw: string, method = 'GET'): Promise<Response | null> {
  const scheme = new URL(raw).protocol.slice(0, -1);
  const handler = protocolHandlers.get(scheme);
  if (!handler) return null;
  return handler(new Request(raw, { method }));
}

type PermissionRequestHandler = (wc: WebContents, permission: string, callback: (granted: boolean) => void, details: object) => void;
type PermissionCheckHandler = (wc: WebContents | null, permission: string, origin: string, details: object) => boolean;
type HeadersListener = (
  details: OnHeadersReceivedListenerDetails,
  callback: (response: { cancel?: boolean; responseHeaders?: Record<string, string[]> }) => void,
) => void;

class Session {
  permissionRequest: PermissionRequestHandler | null = null;
  permissionCheck: PermissionCheckHandler | null = null;
  headersListener: HeadersListener | null = null;
  readonly webRequest = {
    onHeadersReceived: (listener: HeadersListener | null) => {
      this.headersListener = listener;
    },
  };

  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.permissionRequest = handler;
  }

  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    this.permissionCheck = handler;
  }
}

const defaultSession = new Session();

export const session = {
  get defaultSession(): Session {
    requireReady('session');
    return defaultSession;
  },
};

// ---------------------------------------------------------------- windows

let nextWebContentsId = 1;

class WebContents extends EventEmitter {
  readonly id = nextWebContentsId++;
  private url = '';
  private destroyed = false;
  windowOpenHandler: ((details: HandlerDetails) => WindowOpenHandlerResponse) | null = null;
  /** ipcRenderer.on listeners of the page's preload. */
  readonly rendererListeners = new Map<string, Set<(event: object, ...args: unknown[]) => void>>();
  /** What the preload put in the main world (contextBridge.exposeInMainWorld). */
  readonly mainWorld = new Map<string, unknown>();

  constructor(
    readonly windowId: number,
    private readonly preload: string | undefined,
  ) {
    super();
  }

  get session(): Session {
    return defaultSession;
  }

  getURL(): string {
    return this.url;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  destroy(): void {
    this.destroyed = true;
  }

  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    record({ type: 'send', window: this.windowId, channel, args: args.map(plain) });
    for (const l of this.rendererListeners.get(channel) ?? []) l({ sender: null }, ...structuredClone(args));
  }

  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void {
    this.windowOpenHandler = handler;
  }

  openDevTools(): void {
    this.emit('devtools-opened');
  }

  closeDevTools(): void {}

  navigated(url: string): void {
    this.url = url;
  }

  /** As Chromium loads a page: the request through the scheme's handler, the preload, then the page's load events. */
  async loadURL(target: string): Promise<void> {
    this.url = target;
    const response = await requestThroughProtocol(target);
    record({ type: 'load', window: this.windowId, url: target, status: response?.status ?? 0 });
    if (this.preload) this.runPreload(this.preload);
    this.emit('did-finish-load');
    BrowserWindow.fromWebContents(this)?.emit('ready-to-show');
  }

  /** Runs the preload as a sandboxed renderer does: CommonJS, and `require` only of electron, events, timers and url. */
  private runPreload(file: string): void {
    const allowed: Record<string, unknown> = { electron: rendererElectron(this), events: { EventEmitter, default: EventEmitter }, timers, url };
    const requireInSandbox = (id: string): unknown => {
      if (!(id in allowed)) throw new Error(`module not found: ${id}`);
      return allowed[id];
    };
    const module = { exports: {} as object };
    try {
      const context = vm.createContext({ console, setTimeout, clearTimeout, setInterval, clearInterval, queueMicrotask, structuredClone });
      const wrapper = vm.runInContext(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, context, {
        filename: file,
      }) as (exports: object, require: (id: string) => unknown, module: { exports: object }, filename: string, dirname: string) => void;
      wrapper(module.exports, requireInSandbox, module, file, dirname(file));
      record({ type: 'preload', window: this.windowId, exposed: [...this.mainWorld.keys()] });
    } catch (e) {
      record({ type: 'preload', window: this.windowId, exposed: [...this.mainWorld.keys()], error: String(e) });
    }
  }
}

/** The renderer side of `electron` the preload gets: contextBridge and ipcRenderer, wired to this window. */
function rendererElectron(wc: WebContents) {
  const ipcRenderer = {
    invoke: (channel: string, ...args: unknown[]) => invokeFromFrame(wc, { url: wc.getURL(), subframe: false }, channel, args),
    on(channel: string, listener: (event: object, ...args: unknown[]) => void) {
      let set = wc.rendererListeners.get(channel);
      if (!set) wc.rendererListeners.set(channel, (set = new Set()));
      set.add(listener);
      return ipcRenderer;
    },
    removeListener(channel: string, listener: (event: object, ...args: unknown[]) => void) {
      wc.rendererListeners.get(channel)?.delete(listener);
      return ipcRenderer;
    },
  };
  const contextBridge = {
    exposeInMainWorld(key: string, api: unknown) {
      if (wc.mainWorld.has(key)) throw new Error(`Cannot bind an API on top of an existing property on the window object: ${key}`);
      wc.mainWorld.set(key, api);
    },
  };
  return { ipcRenderer, contextBridge };
}

const DISPLAY: Rectangle = { x: 0, y: 0, width: 1920, height: 1080 };
const WORK_AREA: Rectangle = { x: 0, y: 0, width: 1920, height: 1040 };
let nextWindowId = 1;
const openWindows = new Set<BrowserWindow>();

export class BrowserWindow extends EventEmitter {
  readonly id = nextWindowId++;
  readonly webContents: WebContents;
  private bounds: Rectangle;
  private maximized = false;
  private minimized = false;
  private visible: boolean;
  private destroyed = false;

  constructor(options: BrowserWindowConstructorOptions = {}) {
    super();
    requireReady('BrowserWindow');
    const width = options.width ?? 800;
    const height = options.height ?? 600;
    // Without a position Electron centres the window on the primary display.
    this.bounds = {
      x: options.x ?? Math.round(WORK_AREA.x + (WORK_AREA.width - width) / 2),
      y: options.y ?? Math.round(WORK_AREA.y + (WORK_AREA.height - height) / 2),
      width,
      height,
    };
    this.visible = options.show !== false;
    this.webContents = new WebContents(this.id, options.webPreferences?.preload);
    openWindows.add(this);
    record({ type: 'window', window: this.id, options: plain(options) as Record<string, unknown> });
    app.emit('web-contents-created', newEvent(), this.webContents);
    app.emit('browser-window-created', newEvent(), this);
  }

  static getAllWindows(): BrowserWindow[] {
    return [...openWindows];
  }

  static fromWebContents(wc: WebContents): BrowserWindow | null {
    return [...openWindows].find((w) => w.webContents === wc) ?? null;
  }

  private call(method: string, ...args: unknown[]): void {
    record({ type: 'window-call', window: this.id, method, args: args.map(plain) });
  }

  loadURL(target: string): Promise<void> {
    return this.webContents.loadURL(target);
  }

  show(): void {
    this.visible = true;
    this.minimized = false;
    this.call('show');
    this.emit('show');
  }

  hide(): void {
    this.visible = false;
    this.call('hide');
  }

  isVisible(): boolean {
    return this.visible;
  }

  focus(): void {
    this.call('focus');
    this.emit('focus');
  }

  maximize(): void {
    this.maximized = true;
    this.call('maximize');
    this.emit('maximize');
  }

  unmaximize(): void {
    this.maximized = false;
    this.call('unmaximize');
  }

  isMaximized(): boolean {
    return this.maximized;
  }

  minimize(): void {
    this.minimized = true;
    this.call('minimize');
  }

  isMinimized(): boolean {
    return this.minimized;
  }

  restore(): void {
    this.minimized = false;
    this.call('restore');
    this.emit('restore');
  }

  getBounds(): Rectangle {
    return this.maximized ? { ...WORK_AREA } : { ...this.bounds };
  }

  /** The bounds of the window when neither maximized nor minimized. */
  getNormalBounds(): Rectangle {
    return { ...this.bounds };
  }

  setBounds(b: Partial<Rectangle>): void {
    const moved = (b.x !== undefined && b.x !== this.bounds.x) || (b.y !== undefined && b.y !== this.bounds.y);
    const resized = (b.width !== undefined && b.width !== this.bounds.width) || (b.height !== undefined && b.height !== this.bounds.height);
    this.bounds = { ...this.bounds, ...b };
    if (moved) this.emit('move');
    if (resized) this.emit('resize');
  }

  setTitle(title: string): void {
    this.call('setTitle', title);
  }

  setOverlayIcon(icon: NativeImageStandIn | null, description: string): void {
    this.call('setOverlayIcon', icon, description);
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** The person closes the window: `close` (preventable), then `closed`; the last one tells the app. */
  close(): void {
    if (this.destroyed || !this.emitClose()) return;
    this.destroy();
    if (openWindows.size === 0) app.lastWindowClosed();
  }

  /** Closing as part of a quit; false when a `close` listener kept the window (which cancels the quit). */
  closeForQuit(): boolean {
    if (this.destroyed) return true;
    if (!this.emitClose()) return false;
    this.destroy();
    return true;
  }

  private emitClose(): boolean {
    const e = newEvent();
    this.emit('close', e);
    return !e.defaultPrevented;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroy();
    openWindows.delete(this);
    this.emit('closed');
  }
}

export const screen = {
  getAllDisplays() {
    requireReady('screen');
    return [
      {
        id: 1,
        bounds: { ...DISPLAY },
        workArea: { ...WORK_AREA },
        size: { width: DISPLAY.width, height: DISPLAY.height },
        scaleFactor: 1,
        rotation: 0,
        internal: false,
      },
    ];
  },
  getPrimaryDisplay() {
    return screen.getAllDisplays()[0]!;
  },
};

// ---------------------------------------------------------------- menu, dialogs, shell, images

class MenuStandIn {
  constructor(readonly items: MenuItemConstructorOptions[]) {}

  static buildFromTemplate(template: MenuItemConstructorOptions[]): MenuStandIn {
    return new MenuStandIn(template);
  }

  static setApplicationMenu(menu: MenuStandIn | null): void {
    applicationMenu = menu;
    record({ type: 'menu', items: (menu?.items ?? []).map((i) => i.label ?? i.role ?? i.type ?? '') });
  }

  static getApplicationMenu(): MenuStandIn | null {
    return applicationMenu;
  }
}
let applicationMenu: MenuStandIn | null = null;
export { MenuStandIn as Menu };

export const dialog = {
  async showOpenDialog(): Promise<{ canceled: boolean; filePaths: string[] }> {
    return { canceled: true, filePaths: [] };
  },
  async showSaveDialog(): Promise<{ canceled: boolean; filePath: string }> {
    return { canceled: true, filePath: '' };
  },
  async showMessageBox(): Promise<{ response: number; checkboxChecked: boolean }> {
    return { response: 0, checkboxChecked: false };
  },
  showErrorBox(title: string, content: string): void {
    console.error(`[electron stand-in] error box: ${title}: ${content}`);
    record({ type: 'error-box', title, content });
  },
};

export const shell = {
  async openExternal(target: string): Promise<void> {
    record({ type: 'open-external', url: target });
  },
  async openPath(path: string): Promise<string> {
    record({ type: 'open-path', path });
    return '';
  },
};

class NativeImageStandIn {
  constructor(
    private readonly bitmap: Buffer,
    private readonly size: { width: number; height: number },
  ) {}

  isEmpty(): boolean {
    return this.bitmap.length === 0;
  }

  getSize(): { width: number; height: number } {
    return { ...this.size };
  }

  toBitmap(): Buffer {
    return Buffer.from(this.bitmap);
  }

  toJSON(): { nativeImage: { width: number; height: number; bytes: number } } {
    return { nativeImage: { ...this.size, bytes: this.bitmap.length } };
  }
}

export const nativeImage = {
  createFromBitmap(buffer: Buffer, options: { width: number; height: number }): NativeImageStandIn {
    if (buffer.length !== options.width * options.height * 4) throw new Error('Invalid buffer size');
    return new NativeImageStandIn(buffer, { width: options.width, height: options.height });
  },
  createEmpty(): NativeImageStandIn {
    return new NativeImageStandIn(Buffer.alloc(0), { width: 0, height: 0 });
  },
};

// ---------------------------------------------------------------- notifications

let nextNotificationId = 1;
const notifications = new Map<number, NotificationStandIn>();

class NotificationStandIn extends EventEmitter {
  readonly id = nextNotificationId++;

  constructor(private readonly options: NotificationConstructorOptions = {}) {
    super();
  }

  static isSupported(): boolean {
    return true;
  }

  get title(): string {
    return this.options.title ?? '';
  }

  get body(): string {
    return this.options.body ?? '';
  }

  show(): void {
    notifications.set(this.id, this);
    record({ type: 'notification', id: this.id, title: this.title, body: this.body });
    this.emit('show', newEvent());
  }

  close(): void {
    notifications.delete(this.id);
    this.emit('close', newEvent());
  }
}
export { NotificationStandIn as Notification };

// ---------------------------------------------------------------- safeStorage

/** A reversible stand-in cipher: never the plain text on disk, and a foreign blob fails as Electron's does. */
const MAGIC = Buffer.from('v10stand-in:');
const KEY = 0x5a;
const scramble = (b: Buffer) => Buffer.from(b.map((x) => x ^ KEY));

type SafeStorageUsed = Pick<
  SafeStorage,
  | 'isEncryptionAvailable'
  | 'encryptString'
  | 'decryptString'
  | 'encryptStringAsync'
  | 'decryptStringAsync'
  | 'getSelectedStorageBackend'
  | 'isAsyncEncryptionAvailable'
>;

export const safeStorage: SafeStorageUsed = {
  isEncryptionAvailable: () => ready,
  isAsyncEncryptionAvailable: async () => ready,
  getSelectedStorageBackend: () => (ready ? 'gnome_libsecret' : 'unknown'),
  encryptString(plainText: string): Buffer {
    if (!ready) throw new Error('Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.');
    return Buffer.concat([MAGIC, scramble(Buffer.from(plainText, 'utf8'))]);
  },
  decryptString(encrypted: Buffer): string {
    if (!Buffer.isBuffer(encrypted) || !encrypted.subarray(0, MAGIC.length).equals(MAGIC)) {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    }
    return scramble(encrypted.subarray(MAGIC.length)).toString('utf8');
  },
  encryptStringAsync: async (plainText: string) => safeStorage.encryptString(plainText),
  decryptStringAsync: async (encrypted: Buffer) => ({ shouldReEncrypt: false, result: safeStorage.decryptString(encrypted) }),
};

// ---------------------------------------------------------------- commands from the test

async function run(command: StandInCommand): Promise<unknown> {
  const win = BrowserWindow.getAllWindows()[0];
  const contents = () => {
    if (!win) throw new Error('no window');
    return win.webContents;
  };
  switch (command.cmd) {
    case 'invoke':
      return invokeFromFrame(contents(), { url: command.senderUrl ?? contents().getURL(), subframe: command.subframe ?? false }, command.channel, [
        command.payload,
      ]);
    case 'api': {
      const root = contents().mainWorld.get('stockroom') as Record<string, Record<string, (payload: unknown) => Promise<unknown>> | undefined> | undefined;
      const fn = root?.[command.area]?.[command.fn];
      if (typeof fn !== 'function') throw new Error(`window.stockroom.${command.area}.${command.fn} is not a function`);
      return fn(command.payload);
    }
    case 'fetch': {
      const res = await requestThroughProtocol(command.url, command.method);
      if (!res) throw new Error(`no protocol handler for ${command.url}`);
      return { status: res.status, headers: Object.fromEntries(res.headers), body: new Uint8Array(await res.arrayBuffer()) };
    }
    case 'permission': {
      const wc = contents();
      const s = defaultSession;
      // Without handlers Electron grants every permission.
      const requested = s.permissionRequest
        ? await new Promise<boolean>((done) => s.permissionRequest!(wc, command.permission, done, { requestingUrl: wc.getURL(), isMainFrame: true }))
        : true;
      const checked = s.permissionCheck ? s.permissionCheck(wc, command.permission, new URL(wc.getURL()).origin, { isMainFrame: true }) : true;
      return { requested, checked };
    }
    case 'headers': {
      const listener = defaultSession.headersListener;
      const responseHeaders = { 'content-type': ['text/html'] };
      if (!listener) return { responseHeaders };
      const details = {
        id: 1,
        url: command.url,
        method: 'GET',
        resourceType: 'mainFrame',
        referrer: '',
        timestamp: Date.now(),
        statusLine: 'HTTP/1.1 200 OK',
        statusCode: 200,
        responseHeaders,
      } as unknown as OnHeadersReceivedListenerDetails;
      return new Promise((done) => listener(details, (r) => done({ responseHeaders: r.responseHeaders ?? responseHeaders })));
    }
    case 'navigate': {
      const wc = contents();
      const event = newEvent({ url: command.url, isSameDocument: false, isMainFrame: true });
      wc.emit('will-navigate', event, command.url);
      if (!event.defaultPrevented) wc.navigated(command.url);
      return { prevented: event.defaultPrevented };
    }
    case 'open-window': {
      const handler = contents().windowOpenHandler;
      if (!handler) return { action: 'allow' };
      const details = {
        url: command.url,
        frameName: '',
        features: '',
        disposition: 'foreground-tab',
        referrer: { url: contents().getURL(), policy: 'strict-origin-when-cross-origin' },
      } as HandlerDetails;
      return { action: handler(details).action };
    }
    case 'click-notification': {
      const n = notifications.get(command.id);
      if (!n) throw new Error(`no notification ${command.id} is shown`);
      notifications.delete(command.id);
      n.emit('click', newEvent());
      return null;
    }
    case 'set-bounds':
      if (!win) throw new Error('no window');
      win.setBounds(command.bounds);
      return win.getNormalBounds();
    case 'quit':
      app.quit();
      return null;
  }
}

// The test that started this process is gone: nothing can drive or stop it any more.
process.on('disconnect', () => app.exit(1));

process.on('message', (raw: unknown) => {
  const parsed = commandMessage.safeParse(raw);
  if (!parsed.success) {
    console.error(`[electron stand-in] a command that does not parse: ${parsed.error.message}`);
    return;
  }
  const { id, command } = parsed.data;
  run(command).then(
    (value) => post({ reply: { id, ok: true, value } }),
    (e: unknown) => post({ reply: { id, ok: false, error: e instanceof Error ? e.message : String(e) } }),
  );
});

// ---------------------------------------------------------------- the shapes main/ relies on, checked against electron.d.ts

const _shapes: [
  Pick<
    typeof Real.app,
    'whenReady' | 'getPath' | 'setPath' | 'getLocale' | 'getVersion' | 'requestSingleInstanceLock' | 'quit' | 'exit' | 'setBadgeCount' | 'isPackaged' | 'name'
  >,
  Pick<typeof Real.protocol, 'registerSchemesAsPrivileged' | 'handle'>,
  Pick<typeof Real.shell, 'openExternal' | 'openPath'>,
  Pick<typeof Real.dialog, 'showErrorBox'>,
  Pick<typeof Real.ipcMain, 'removeHandler'>,
  Pick<typeof Real.Notification, 'isSupported'>,
] = [app, protocol, shell, dialog, ipcMain, NotificationStandIn];
void _shapes;
