/**
 * Builds `window.stockroom` from the contract's channel list over a transport: IPC in the preload
 * (preload/index.ts), HTTP + server-sent events in the browser bridge (renderer/bridge/browser.ts).
 * One definition, two transports; the renderer sees the same typed object either way.
 * No Node and no Electron imports: this file is bundled into the sandboxed preload and the renderer.
 */
import { CHANNELS, ERROR_CODES } from './channels.js';
import { unpackAnswer } from './grid-pack.js';
import type { Area, EventOf, EventType, FnOf, InputOf, OutputOf, Result, StockroomEvent } from './contract.js';

export interface Transport {
  /** Sends one call; resolves with the `Result` the main process answered (never rejects on a service error). */
  invoke(channel: string, payload: unknown): Promise<unknown>;
  /** Starts delivering every event from main to `listener`; returns the function that stops it. */
  listen(listener: (event: StockroomEvent) => void): () => void;
}

type Call<A extends Area, F extends FnOf<A>> =
  undefined extends InputOf<A, F> ? (payload?: InputOf<A, F>) => Promise<Result<OutputOf<A, F>>> : (payload: InputOf<A, F>) => Promise<Result<OutputOf<A, F>>>;

export type StockroomCalls = { [A in Area]: { [F in FnOf<A>]: Call<A, F> } };

export interface StockroomSubscriptions {
  /**
   * Calls `listener` for every event of `type` from main (sync status, new messages, conflicts,
   * stock changes, settings, session); returns the unsubscribe function.
   */
  subscribe<T extends EventType>(type: T, listener: (event: EventOf<T>) => void): () => void;
}

export type StockroomApi = StockroomCalls & StockroomSubscriptions;

/** A transport failure (the channel is missing, the server is gone) as an error value, like every other. */
function transportError(e: unknown): Result<never> {
  const message = e instanceof Error ? e.message : String(e);
  return { ok: false, error: { code: ERROR_CODES.internal, message: `The app did not answer: ${message.slice(0, 200)}` } };
}

export function createApi(transport: Transport): StockroomApi {
  const calls: Record<string, Record<string, (payload?: unknown) => Promise<unknown>>> = {};
  for (const { area, fn, channel } of CHANNELS) {
    calls[area] ??= {};
    // Never rejects: a transport failure, or an answer that cannot be unpacked, is an error value.
    calls[area][fn] = (payload?: unknown) =>
      transport
        .invoke(channel, payload)
        .then((answer) => unpackAnswer(channel, answer))
        .catch(transportError);
  }

  // One transport listener, shared by every subscriber; started with the first, stopped with the last.
  const listeners = new Map<EventType, Set<(event: StockroomEvent) => void>>();
  let stop: (() => void) | null = null;
  let count = 0;
  const dispatch = (event: StockroomEvent) => {
    for (const l of listeners.get(event.type) ?? []) {
      try {
        l(event);
      } catch (e) {
        console.error('stockroom: an event listener failed', e);
      }
    }
  };

  const subscribe = <T extends EventType>(type: T, listener: (event: EventOf<T>) => void): (() => void) => {
    const l = listener as (event: StockroomEvent) => void;
    let set = listeners.get(type);
    if (!set) listeners.set(type, (set = new Set()));
    if (set.has(l)) return () => undefined;
    set.add(l);
    count++;
    if (stop === null) stop = transport.listen(dispatch);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      set.delete(l);
      count--;
      if (count === 0 && stop) {
        const s = stop;
        stop = null;
        s();
      }
    };
  };

  return { ...(calls as unknown as StockroomCalls), subscribe };
}
