/**
 * The browser bridge: `window.stockroom` for a page served by `npm run web`, over the loopback
 * HTTP server instead of IPC. The same channel list and the same API object as the preload
 * (common/contract/api.ts); calls are `POST /bridge/<area>.<function>`, events arrive as server-sent events
 * read from a fetch stream (so the same code runs in Node for the contract tests). Every request
 * carries the per-run token as a bearer token; cookies are never sent.
 */
import { type StockroomApi, createApi } from '../../common/contract/api.js';
import { CHANNEL_PREFIX } from '../../common/contract/channels.js';
import type { StockroomEvent } from '../../common/contract/contract.js';
import { ERROR_CODES } from '../../common/errors.js';
import { fromWire, toWire } from '../../common/contract/wire.js';

export interface BrowserBridgeOptions {
  /** The web server's origin, e.g. `http://127.0.0.1:43117` (the page's own origin in a browser). */
  origin: string;
  /** The per-run token printed by `npm run web` (in the address's fragment). */
  token: string;
  fetch?: typeof fetch;
  /** Wait before reconnecting the event stream (default 2 s). */
  reconnectMs?: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/** Reads a `text/event-stream` body and calls `onData` with the data of each event, until the stream ends. */
export async function readEventStream(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const flush = (block: string) => {
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
    if (data.length > 0) onData(data.join('\n'));
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      flush(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  }
}

export function createBrowserBridge(o: BrowserBridgeOptions): StockroomApi {
  const f = o.fetch ?? globalThis.fetch.bind(globalThis);
  const auth = { authorization: `Bearer ${o.token}` };
  return createApi({
    async invoke(channel, payload) {
      const res = await f(`${o.origin}/bridge/${channel.slice(CHANNEL_PREFIX.length)}`, {
        method: 'POST',
        headers: payload === undefined ? auth : { ...auth, 'content-type': 'application/json' },
        ...(payload === undefined ? {} : { body: toWire(payload) }),
        credentials: 'omit',
      });
      const text = await res.text();
      try {
        return fromWire(text);
      } catch {
        return { ok: false, error: { code: ERROR_CODES.internal, message: `The app answered HTTP ${res.status}`, status: res.status } };
      }
    },
    listen(listener) {
      const abort = new AbortController();
      const run = async () => {
        while (!abort.signal.aborted) {
          try {
            const res = await f(`${o.origin}/bridge/events`, { headers: { ...auth, accept: 'text/event-stream' }, signal: abort.signal, credentials: 'omit' });
            if (res.ok && res.body) {
              await readEventStream(res.body, (data) => {
                try {
                  listener(fromWire(data) as StockroomEvent);
                } catch (e) {
                  console.error('stockroom: a bad event from the bridge', e);
                }
              });
            }
          } catch {
            // The server went away or the stream was stopped: retry below unless stopped.
          }
          if (!abort.signal.aborted) await sleep(o.reconnectMs ?? 2000, abort.signal);
        }
      };
      void run();
      return () => abort.abort();
    },
  });
}
