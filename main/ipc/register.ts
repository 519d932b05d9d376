import { CHANNELS, ERROR_CODES, EVENT_CHANNEL, type Result, type StockroomEvent } from '../../common/contract/contract.js';
import { packAnswer } from '../../common/contract/grid-pack.js';

/** The part of Electron's IpcMainInvokeEvent this adapter reads. */
export interface IpcEventLike {
  senderFrame?: { url: string; parent?: unknown } | null;
}

/** The part of Electron's ipcMain this adapter uses (tests pass a plain object). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, payload: unknown) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface CallTarget {
  call(channel: string, payload: unknown): Promise<Result<unknown>>;
}

export interface IpcOptions {
  /** True when the frame's URL is the app's own page (main/security.ts isAllowedSenderUrl). */
  isAllowedSender(url: string): boolean;
}

export type IpcHandler = (event: IpcEventLike, payload: unknown) => Promise<Result<unknown>>;

/**
 * One handler per channel of the contract (`stockroom:<area>.<function>`). Each handler first
 * checks the sender — a top frame whose URL is the app's own origin — then hands the payload to
 * the core, which validates it against the channel's schema and answers a `Result`. A handler never
 * throws: a refused sender, a bad payload and a failure are answers (code and message, no stack).
 */
export function ipcHandlers(core: CallTarget, options: IpcOptions): Map<string, IpcHandler> {
  const handlers = new Map<string, IpcHandler>();
  for (const { channel } of CHANNELS) {
    handlers.set(channel, async (event, payload) => {
      const frame = event?.senderFrame;
      const topFrame = frame !== null && frame !== undefined && (frame.parent === null || frame.parent === undefined);
      if (!frame || !topFrame || !options.isAllowedSender(frame.url)) {
        return { ok: false, error: { code: ERROR_CODES.forbiddenSender, message: 'This window may not call the app', status: 403 } };
      }
      try {
        // Grid rows packed for the trip (common/contract/grid-pack.ts); createApi unpacks them.
        return packAnswer(channel, await core.call(channel, payload));
      } catch {
        return { ok: false, error: { code: ERROR_CODES.internal, message: 'Something went wrong in the app; the details are in its log', status: 500 } };
      }
    });
  }
  return handlers;
}

/** Registers every handler on `ipcMain`; returns the function that removes them. */
export function registerIpc(ipcMain: IpcMainLike, core: CallTarget, options: IpcOptions): () => void {
  const handlers = ipcHandlers(core, options);
  for (const [channel, handler] of handlers) ipcMain.handle(channel, handler);
  return () => {
    for (const channel of handlers.keys()) ipcMain.removeHandler(channel);
  };
}

/** The part of WebContents events are sent through. */
export interface EventSink {
  send(channel: string, event: StockroomEvent): void;
  isDestroyed(): boolean;
}

/** Forwards the core's events to the window on the one event channel; returns the unsubscribe. */
export function forwardEvents(
  events: { on(name: 'event', l: (e: StockroomEvent) => void): unknown; off(name: 'event', l: (e: StockroomEvent) => void): unknown },
  sink: () => EventSink | null,
): () => void {
  const listener = (e: StockroomEvent) => {
    const target = sink();
    if (target && !target.isDestroyed()) target.send(EVENT_CHANNEL, e);
  };
  events.on('event', listener);
  return () => void events.off('event', listener);
}
