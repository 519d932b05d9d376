import { describe, expect, it } from 'vitest';
import { startWebServer } from '../../main/web/server.js';
import { createBrowserBridge, readEventStream } from '../../renderer/bridge/browser.js';
import { type TransportUnderTest, contractSuite } from '../desktop/contract-suite.js';
import { openCore, value } from '../desktop/helpers.js';
import { demo } from '../support/fixtures.js';
import { waitFor } from '../support/wait.js';

/** The browser bridge over a real HTTP server on 127.0.0.1, with the same core behind it. */
async function openWeb() {
  const c = await openCore();
  const server = await startWebServer({ core: c.core, port: 0, rendererDir: null });
  const api = createBrowserBridge({ origin: server.origin, token: server.token, reconnectMs: 50 });
  return {
    ...c,
    server,
    api,
    async close() {
      await server.close();
      await c.close();
    },
  };
}

contractSuite('the browser bridge (HTTP + server-sent events)', async (): Promise<TransportUnderTest> => openWeb());

describe('browser bridge server', () => {
  const call = (origin: string, channel: string, init: RequestInit = {}) => fetch(`${origin}/bridge/${channel}`, { method: 'POST', ...init });

  it('prints an address on 127.0.0.1 with a random per-run token in the fragment', async () => {
    const a = await openWeb();
    const b = await openWeb();
    try {
      expect(a.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{32}$/);
      expect(a.server.token).not.toBe(b.server.token);
      expect(a.server.server.address()).toMatchObject({ address: '127.0.0.1' });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses a missing or wrong token, another Origin, another Host, and preflights', async () => {
    const t = await openWeb();
    const auth = { authorization: `Bearer ${t.server.token}` };
    try {
      const missing = await call(t.server.origin, 'sync.status');
      expect(missing.status).toBe(401);
      expect(await missing.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
      expect((await call(t.server.origin, 'sync.status', { headers: { authorization: `Bearer ${t.server.token.slice(0, -1)}x` } })).status).toBe(401);
      expect((await call(t.server.origin, 'sync.status', { headers: { authorization: t.server.token } })).status).toBe(401);
      const foreign = await call(t.server.origin, 'sync.status', { headers: { ...auth, origin: 'https://evil.example.com' } });
      expect(foreign.status).toBe(403);
      expect(await foreign.json()).toMatchObject({ error: { code: 'forbidden_origin' } });
      expect((await call(t.server.origin, 'sync.status', { headers: { ...auth, 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
      expect((await fetch(`${t.server.origin}/bridge/sync.status`, { method: 'OPTIONS', headers: { origin: 'https://evil.example.com' } })).status).toBe(403);
      // The page's own origin is fine.
      const own = await call(t.server.origin, 'sync.status', { headers: { ...auth, origin: t.server.origin } });
      expect(await own.json()).toMatchObject({ ok: true, value: { mode: 'local-only' } });
      // The events stream is guarded the same way.
      expect((await fetch(`${t.server.origin}/bridge/events`)).status).toBe(401);
      expect((await fetch(`${t.server.origin}/bridge/events`, { headers: { ...auth, origin: 'http://127.0.0.1:1' } })).status).toBe(403);
      // No CORS header ever.
      expect(own.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('answers only on its loopback address (a rebinding DNS name gets nothing)', async () => {
    const t = await openWeb();
    try {
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: t.server.port,
            path: '/bridge/sync.status',
            method: 'POST',
            headers: { host: `attacker.example:${t.server.port}`, authorization: `Bearer ${t.server.token}` },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(421);
    } finally {
      await t.close();
    }
  });

  it('rejects a body that is not JSON, an unknown channel, and a body over the limit', async () => {
    const t = await openWeb();
    const auth = { authorization: `Bearer ${t.server.token}` };
    try {
      const notJson = await call(t.server.origin, 'stock.adjust', { headers: { ...auth, 'content-type': 'application/json' }, body: '{"delta":' });
      expect(notJson.status).toBe(400);
      const wrongType = await call(t.server.origin, 'stock.adjust', { headers: { ...auth, 'content-type': 'text/plain' }, body: '{}' });
      expect(wrongType.status).toBe(415);
      const unknown = await call(t.server.origin, 'stock.dropTable', { headers: auth });
      expect(await unknown.json()).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
      const proto = await call(t.server.origin, 'constructor.prototype', { headers: auth });
      expect(await proto.json()).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    } finally {
      await t.close();
    }
    const c = await openCore();
    const small = await startWebServer({ core: c.core, port: 0, rendererDir: null, bodyLimit: 1000 });
    try {
      const headers = { authorization: `Bearer ${small.token}`, 'content-type': 'application/json' };
      const big = await call(small.origin, 'messages.stageFile', { headers, body: JSON.stringify({ name: 'a.txt', bytes: { $bytes: 'A'.repeat(1500) } }) });
      expect(big.status).toBe(413);
      expect(await big.json()).toMatchObject({ ok: false, error: { code: 'payload_too_large' } });
    } finally {
      await small.close();
      await c.close();
    }
  });

  it('streams events as server-sent events: the status at connect, then changes', async () => {
    const t = await openWeb();
    const abort = new AbortController();
    try {
      const res = await fetch(`${t.server.origin}/bridge/events`, { headers: { authorization: `Bearer ${t.server.token}` }, signal: abort.signal });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events: { type: string; userProductIds?: string[] }[] = [];
      const reading = readEventStream(res.body!, (data) => events.push(JSON.parse(data) as { type: string })).catch(() => undefined);
      await waitFor(() => events.some((e) => e.type === 'sync.status'), 'the first status');
      value(await t.api.stock.adjust({ userProductId: demo.userProducts.termo, type: 'seller_warehouse', storeId: demo.stores.palermo, delta: 2 }));
      await waitFor(() => events.find((e) => e.type === 'stock.changed'), 'stock.changed');
      expect(events.find((e) => e.type === 'stock.changed')).toEqual({ type: 'stock.changed', userProductIds: [demo.userProducts.termo] });
      abort.abort();
      await reading;
    } finally {
      await t.close();
    }
  });

  it('parses server-sent events split anywhere, with CRLF, comments and multi-line data', async () => {
    const text = ': hello\r\nretry: 1\r\n\r\ndata: {"a":\r\ndata: 1}\r\n\r\n: ping\n\ndata: 2\n\n';
    const bytes = new TextEncoder().encode(text);
    const chunks = [bytes.slice(0, 7), bytes.slice(7, 30), bytes.slice(30, 31), bytes.slice(31)];
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(chunk);
        c.close();
      },
    });
    const got: string[] = [];
    await readEventStream(stream, (d) => got.push(d));
    expect(got).toEqual(['{"a":\n1}', '2']);
  });
});
