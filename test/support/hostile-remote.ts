import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A hostile marketplace on loopback (issue 25): just enough of the API for a pull (a seller, one
 * store, items, stock, orders, one conversation, attachments), and modes that break it the way a
 * broken or hostile remote would. The mode can change between two pulls (`set`). Every request
 * is counted (`hits`), so a test can say how many a pull made.
 */
export type HostileMode =
  | 'normal'
  /** The item search announces 10⁹ items. */
  | 'huge-total'
  /** Stores and orders: every page is full and announces one more page. */
  | 'endless-pages'
  /** The seller's answer declares 700 MB and streams it (a valid JSON prefix, then spaces). */
  | 'huge-body'
  /** The seller's answer never ends (chunked, no length). */
  | 'endless-body'
  /** The seller's answer drips one byte every `dripMs` and never ends. */
  | 'slow-drip'
  /** The seller's answer is cut JSON. */
  | 'malformed-json'
  /** Orders and messages carry statuses, reasons and logistic types the app does not know, and hostile file names. */
  | 'unknown-enums'
  /** The seller's answer redirects to another origin (`redirectTo`). */
  | 'redirect';

export interface HostileRemote {
  url: string;
  sellerId: number;
  token: string;
  hits: Map<string, number>;
  set(mode: HostileMode): void;
  /** Bytes the attachment download serves (its metadata declares ATTACHMENT_DECLARED). */
  attachmentBytes: number;
  redirectTo: string;
  dripMs: number;
  close(): Promise<void>;
}

export const SELLER = 7001;
export const BUYER = 7002;
export const ORDER = 9001;
export const ATTACHMENT_ID = '7001_abc.pdf';
export const ATTACHMENT_DECLARED = 1000;
export const UNKNOWN = { orderStatus: 'partially_refunded', logistic: 'drone_delivery', reason: 'AI_FLAGGED_2031', moderation: 'under_review' };
/** Names the app's own rules refuse: a right-to-left override and a path out of a folder. */
export const HOSTILE_NAMES = ['invoice\u202Efdp.exe', '..\\..\\startup\\run.bat'];

const user = (id: number) => ({
  id,
  nickname: `USER${id}`,
  registration_date: '2020-01-01T00:00:00.000Z',
  first_name: 'Ana',
  last_name: 'Test',
  gender: '',
  country_id: 'AR',
  site_id: 'MLA',
  user_type: 'normal',
  tags: ['normal'],
});
const store = (n: number) => ({
  id: String(100 + n),
  user_id: String(SELLER),
  description: `Store ${n}`,
  status: 'active',
  location: {},
  tags: [],
  network_node_id: `NN${n}`,
});
const item = (id: string) => ({
  id,
  site_id: 'MLA',
  title: 'Item',
  seller_id: SELLER,
  category_id: 'MLA1',
  user_product_id: `UP${id}`,
  price: 10,
  base_price: 10,
  currency_id: 'ARS',
  listing_type_id: 'gold_special',
  channels: ['marketplace'],
  date_created: '2024-01-01T00:00:00.000Z',
});
function order(id: number, odd: boolean) {
  const logistic = odd ? UNKNOWN.logistic : 'cross_docking';
  return {
    id,
    status: odd ? UNKNOWN.orderStatus : 'paid',
    date_created: '2024-01-01T00:00:00.000Z',
    total_amount: 10,
    currency_id: 'ARS',
    order_items: [{ item: { id: 'MLA1', title: 'Item' }, quantity: 1, unit_price: 10, currency_id: 'ARS' }],
    buyer: { id: BUYER, nickname: 'BUYER', first_name: 'B', last_name: 'Y' },
    seller: { id: SELLER },
    shipping: { id: null, logistic_type: logistic },
    pack_id: null,
    site_id: 'MLA',
    status_date: '2024-01-01T00:00:00.000Z',
    logistic_type: logistic,
    delivered: false,
    mediation_in_process: false,
  };
}
function message(n: number, odd: boolean) {
  return {
    id: `m${n}`,
    site_id: 'MLA',
    client_id: null,
    from: { user_id: BUYER },
    to: { user_id: SELLER },
    status: 'available',
    subject: null,
    text: `hello ${n}`,
    message_date: { received: '2024-01-02T00:00:00.000Z', available: null, notified: null, created: `2024-01-02T00:00:0${n % 10}.000Z`, read: null },
    message_moderation: odd
      ? { status: UNKNOWN.moderation, reason: UNKNOWN.reason, source: 'online', moderation_date: '2024-01-02T00:00:00.000Z' }
      : { status: 'clean', reason: null, source: 'online', moderation_date: null },
    message_attachments:
      n === 0
        ? [
            {
              filename: ATTACHMENT_ID,
              original_filename: odd ? HOSTILE_NAMES[0]! : 'a.pdf',
              type: 'application/pdf',
              size: ATTACHMENT_DECLARED,
              potential_security_threat: false,
              creation_date: '2024-01-02T00:00:00.000Z',
            },
            ...(odd
              ? [
                  {
                    filename: '7001_b.bat',
                    original_filename: HOSTILE_NAMES[1]!,
                    type: 'text/plain',
                    size: 10,
                    potential_security_threat: false,
                    creation_date: '2024-01-02T00:00:00.000Z',
                  },
                ]
              : []),
          ]
        : null,
    message_resources: [{ id: String(ORDER), name: 'packs' }],
    conversation_first_message: n === 0,
  };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/** Streams `total` bytes of a JSON-looking body as fast as the client reads it (or forever when total is Infinity). */
function stream(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (sent >= total) res.end();
  };
  res.write('{"id":');
  pump();
}

/** Streams exactly `total` bytes (a file's content), at the client's pace. */
function exactly(res: ServerResponse, total: number): void {
  let left = total;
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const n = Math.min(left, 64 * 1024);
      left -= n;
      if (!res.write(Buffer.alloc(n, 0x25))) return void res.once('drain', pump);
    }
    if (left === 0) res.end();
  };
  pump();
}

export async function startHostileRemote(initial: HostileMode = 'normal'): Promise<HostileRemote> {
  let mode = initial;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const remote: HostileRemote = {
    url: '',
    sellerId: SELLER,
    token: 'hostile-token',
    hits: new Map(),
    set: (m) => void (mode = m),
    attachmentBytes: ATTACHMENT_DECLARED,
    redirectTo: 'http://127.0.0.1:9/',
    dripMs: 20,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  /** One byte every dripMs, for ever: each gap is far below any body timeout. */
  const drip = (res: ServerResponse, type: string): void => {
    res.writeHead(200, { 'content-type': type });
    res.write('{');
    const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), remote.dripMs);
    timers.add(t);
  };
  const seller = (res: ServerResponse): void => {
    switch (mode) {
      case 'huge-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 700 * 1024 * 1024 });
        return stream(res, 700 * 1024 * 1024);
      case 'endless-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        return stream(res, Number.POSITIVE_INFINITY);
      case 'slow-drip':
        return drip(res, 'application/json');
      case 'malformed-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"id": 7001, "nickname": "cut');
      case 'redirect':
        res.writeHead(302, { location: remote.redirectTo });
        return void res.end();
      default:
        return json(res, 200, user(SELLER));
    }
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    remote.hits.set(path, (remote.hits.get(path) ?? 0) + 1);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    let m: RegExpExecArray | null;
    if (path === `/users/${SELLER}`) return seller(res);
    if ((m = /^\/users\/(\d+)$/.exec(path))) return json(res, 200, user(Number(m[1])));
    if (path === `/users/${SELLER}/stores/search`) {
      if (mode === 'endless-pages')
        return json(res, 200, { paging: { total: offset + 2 * limit, limit }, results: Array.from({ length: limit }, (_, i) => store(offset + i)) });
      return json(res, 200, { paging: { total: 1, limit }, results: offset === 0 ? [store(0)] : [] });
    }
    if (path === `/users/${SELLER}/items/search`) {
      if (mode === 'huge-total') return json(res, 200, { paging: { total: 1e9 }, results: Array.from({ length: 100 }, (_, i) => `MLA${offset + i}`) });
      return json(res, 200, { paging: { total: 1 }, results: offset === 0 ? ['MLA1'] : [] });
    }
    if ((m = /^\/items\/([^/]+)$/.exec(path))) return json(res, 200, item(decodeURIComponent(m[1]!)));
    if (/^\/user-products\/[^/]+\/stock$/.test(path)) {
      const odd = mode === 'unknown-enums';
      // The marketplace's answer after the odd one is a newer version, which replaces it.
      res.writeHead(200, { 'content-type': 'application/json', 'x-version': odd ? '1' : '2' });
      return void res.end(
        JSON.stringify({ user_id: SELLER, locations: [{ type: 'selling_address', quantity: 3 }, ...(odd ? [{ type: 'drone_hangar', quantity: 9 }] : [])] }),
      );
    }
    if (path === `/users/${SELLER}/brands`) return json(res, 404, { error: 'not_found', message: 'B00001', status: 404, cause: [] });
    if (path === '/orders/search') {
      if (mode === 'endless-pages')
        return json(res, 200, { paging: { total: offset + 2 * limit }, results: Array.from({ length: limit }, (_, i) => order(ORDER + offset + i, false)) });
      return json(res, 200, { paging: { total: 1 }, results: offset === 0 ? [order(ORDER, mode === 'unknown-enums')] : [] });
    }
    if (path === `/messages/packs/${ORDER}/sellers/${SELLER}`) {
      const odd = mode === 'unknown-enums';
      return json(res, 200, { paging: { total: 2 }, messages: offset === 0 ? [message(0, odd), message(1, false)] : [] });
    }
    if (path.startsWith('/messages/attachments/')) {
      if (mode === 'slow-drip') return drip(res, 'application/pdf');
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return exactly(res, remote.attachmentBytes);
    }
    json(res, 404, { error: 'not_found', message: `no ${path}`, status: 404, cause: [] });
  };
  const server = createServer(handle);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  remote.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return remote;
}
