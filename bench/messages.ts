import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';
import { DEMO_FIXTURES } from '../main/fixtures/load.js';
import type { FixtureFile } from '../main/fixtures/schema.js';
import { startChild } from './lib/child.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { type Row, concurrentOpsPerSecond, percentile } from './lib/report.js';
import { startServer } from '../main/http/server.js';
import { seedInbox } from './ui-inbox.js';
import { benchModeration } from './moderation.js';
import { DesktopCore } from '../main/desktop/core.js';

const SELLER = 1780493260;
const BUYER = 1780493262;
const SELLER_TOKEN = 'APP_USR-5503910054141466-demo-seller';
const APP = 5503910054141466;
const BIG_PACK = 4000009000001;
const SEND_PACKS = 200;
const CONNECTIONS = 16;
const MB = 1024 * 1024;
/** Rounds of copy, upload and download of 25 MB, and of the send and list loads against their floor. */
const ROUNDS = 5;
/** Pack reads per round (the floor answers four times as many per round). */
const LIST_ROUND = 5000;
/**
 * Sends per round, after as many not counted (the floor answers four times as many per round).
 * The server's CPU per send (/proc) falls from about 400 µs in the first 3,000 sends of a fresh
 * process to 200-240 µs after them (JIT, the 200 packs' pages cached): rounds of 1,000 after 500
 * measured the warm-up, not the steady rate.
 */
const SEND_ROUND = 3000;

/** Seconds `fn` took. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Runs `a` (the service) then `b` (its floor), ROUNDS times, and answers each side's median round
 * by throughput (noise on this shared machine hits both alike); `a`'s errors are those of every round.
 */
async function alternate(a: () => Promise<LoadResult>, b: () => Promise<LoadResult>): Promise<[LoadResult, LoadResult]> {
  const as: LoadResult[] = [];
  const bs: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    as.push(await a());
    bs.push(await b());
  }
  const byRps = (xs: LoadResult[]) => [...xs].sort((x, y) => x.rps - y.rps)[Math.floor(xs.length / 2)]!;
  const statuses = new Map<number, number>();
  for (const r of as) for (const [status, n] of r.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
  return [{ ...byRps(as), errors: as.reduce((n, r) => n + r.errors, 0), statuses }, byRps(bs)];
}

/**
 * Uploads `file` as the `file` part of a multipart form, streamed from disk with its length
 * known (what a desktop client does; fetch with a FormData goes through web streams and is
 * itself slower than the server here). Resolves with the attachment id.
 */
async function uploadFile(pool: Pool, file: string, auth: Record<string, string>): Promise<string> {
  const boundary = `----stockroom-bench-${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="factura.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body() {
    yield head;
    for await (const chunk of createReadStream(file, { highWaterMark: MB })) yield chunk as Buffer;
    yield tail;
  }
  const res = await pool.request({
    method: 'POST',
    path: '/messages/attachments?tag=post_sale&site_id=MLA',
    headers: {
      ...auth,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + statSync(file).size + tail.length),
    },
    body: Readable.from(body()),
  });
  const answer = (await res.body.json()) as { id?: string };
  if (res.statusCode !== 200 || !answer.id) throw new Error(`upload failed: ${res.statusCode} ${JSON.stringify(answer)}`);
  return answer.id;
}

/** Demo data plus one pack of 5,000 messages and 200 open conversations to send into. */
function fixtures(): FixtureFile {
  const f = JSON.parse(readFileSync(DEMO_FIXTURES, 'utf8')) as FixtureFile;
  const order = (id: number) => ({
    id,
    pack_id: null,
    seller_id: SELLER,
    buyer_id: BUYER,
    site_id: 'MLA',
    status: 'paid' as const,
    logistic_type: 'cross_docking' as const,
    delivered: true,
    mediation_in_process: false,
  });
  f.orders!.push(order(BIG_PACK), ...Array.from({ length: SEND_PACKS }, (_, i) => order(5000009000001 + i)));
  const start = Date.parse('2026-01-01T00:00:00Z');
  f.messages!.push(
    ...Array.from({ length: 5000 }, (_, i) => ({
      id: (0x1000000 + i).toString(16).padStart(32, 'b'),
      order_id: BIG_PACK,
      from_user_id: i % 2 ? SELLER : BUYER,
      to_user_id: i % 2 ? BUYER : SELLER,
      text: `Mensaje número ${i} sobre el pedido`,
      date_created: new Date(start + i * 60_000).toISOString(),
      moderation: { status: 'clean' as const, source: 'online', date: new Date(start + i * 60_000 + 1000).toISOString() },
    })),
  );
  return f;
}

/** Peak resident memory of a process, sampled from /proc while `during` runs. */
async function peakRss(pid: number, during: () => Promise<void>): Promise<{ idle: number; peak: number }> {
  const rss = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  };
  const idle = rss();
  let peak = idle;
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 5);
  try {
    await during();
  } finally {
    clearInterval(timer);
  }
  return { idle, peak: Math.max(peak, rss()) };
}

/** The i-th send of the bench: one of the SEND_PACKS conversations, a distinct text (identical ones across packs would be AUTOMATIC_MESSAGE). */
const sendPack = (i: number) => 5000009000001 + (i % SEND_PACKS);
const sendBody = (i: number) => ({
  from: { user_id: String(SELLER) },
  to: { user_id: String(BUYER) },
  text: `Hola! Tu pedido ${i} sale hoy por la tarde, gracias por tu compra.`,
});

/**
 * The ceiling of the send figure: the same server's service called directly by CONNECTIONS writers
 * (no HTTP), ROUNDS rounds of SEND_ROUND after as many not counted; the median round's sends/s.
 */
async function serviceSends(dir: string): Promise<number> {
  const server = await startServer({ dbFile: join(dir, 'service', 'marketplace.db'), port: 0, fixtures: join(dir, 'fixtures.json') });
  try {
    const query = { tag: 'post_sale', application_id: String(APP) };
    const sender = server.service.messages.authenticateSender(`Bearer ${SELLER_TOKEN}`, query, undefined);
    let sends = 0;
    const send = () => {
      const i = sends++;
      return server.service.messages.send(sender, String(sendPack(i)), String(SELLER), query, sendBody(i));
    };
    await concurrentOpsPerSecond(send, SEND_ROUND, CONNECTIONS);
    const rounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) rounds.push(await concurrentOpsPerSecond(send, SEND_ROUND, CONNECTIONS));
    return median(rounds);
  } finally {
    await server.close();
  }
}

export async function benchMessages(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'stockroom-bench-msg-'));
  try {
    writeFileSync(join(dir, 'fixtures.json'), JSON.stringify(fixtures()));
    const server = await startChild('main/http/cli.ts', ['--port', '0', '--data', join(dir, 'data'), '--fixtures', join(dir, 'fixtures.json')]);
    const bare = await startChild('bench/targets/bare-http.ts');
    const auth = { authorization: `Bearer ${SELLER_TOKEN}` };

    let sends = 0;
    const send = (total: number) => {
      const first = sends;
      sends += total;
      return runLoad(server.url, {
        connections: CONNECTIONS,
        total,
        make: (i) => ({
          method: 'POST',
          path: `/messages/packs/${sendPack(first + i)}/sellers/${SELLER}?tag=post_sale&application_id=${APP}`,
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(sendBody(first + i)),
        }),
      });
    };
    const bareLoad = (method: 'GET' | 'POST', total: number) =>
      runLoad(bare.url, { connections: CONNECTIONS, total, make: () => ({ method, path: '/', ...(method === 'POST' ? { body: '{"text":"x"}' } : {}) }) });
    await send(SEND_ROUND);
    const [sent, bareSend] = await alternate(
      () => send(SEND_ROUND),
      () => bareLoad('POST', 4 * SEND_ROUND),
    );
    if (sent.errors) throw new Error(`sends failed: ${[...sent.statuses].join(' ')}`);
    const sendCeiling = await serviceSends(dir);

    // A pack of 5,000 messages read 50 at a time at random offsets.
    const list = (total: number) =>
      runLoad(server.url, {
        connections: CONNECTIONS,
        total,
        make: (i) => ({
          method: 'GET',
          path: `/messages/packs/${BIG_PACK}/sellers/${SELLER}?limit=50&offset=${(i * 97) % 4950}&mark_as_read=false`,
          headers: auth,
        }),
      });
    // Rounds of a few seconds: rounds of 0.2 s swung from 0.19 to 0.32 of the floor between two
    // runs of the same code. The warm-up reads every page a round reads (the same offsets).
    await list(LIST_ROUND);
    const [listed, bareList] = await alternate(
      () => list(LIST_ROUND),
      () => bareLoad('GET', 4 * LIST_ROUND),
    );
    if (listed.errors) throw new Error(`pack reads failed: ${[...listed.statuses].join(' ')}`);

    // 25 MB: upload, download, and a plain file copy of the same bytes as the floor, ROUNDS times
    // interleaved (page-cache writeback makes any single copy here anywhere from 150 to 3,000 MB/s);
    // the medians are compared.
    const file = join(dir, 'big.pdf');
    const bytes = Buffer.alloc(25 * MB, 7);
    bytes.write('%PDF-1.7\n');
    const pool = new Pool(server.url);
    const copies: number[] = [];
    const kernelCopies: number[] = [];
    const uploads: number[] = [];
    const downloads: number[] = [];
    /** The largest rise of the server's memory above its idle level just before an upload. */
    const memory = { idle: 0, rise: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      // New content every round: the store keeps one file per content hash.
      bytes.writeUInt32LE(round + 1, 64);
      writeFileSync(file, bytes);
      kernelCopies.push(await timed(() => copyFile(file, join(dir, `kernel-copy-${round}.pdf`))));
      copies.push(await timed(() => pipeline(createReadStream(file), createWriteStream(join(dir, `copy-${round}.pdf`)))));
      let id = '';
      const m = await peakRss(server.child.pid!, async () => {
        uploads.push(
          await timed(async () => {
            id = await uploadFile(pool, file, auth);
          }),
        );
      });
      if (m.peak - m.idle >= memory.rise) Object.assign(memory, { idle: m.idle, rise: m.peak - m.idle });
      downloads.push(
        await timed(async () => {
          const dl = await pool.request({ method: 'GET', path: `/messages/attachments/${id}?tag=post_sale&site_id=MLA`, headers: auth });
          if (dl.statusCode !== 200) throw new Error(`download failed: ${dl.statusCode}`);
          await pipeline(dl.body, createWriteStream(join(dir, `downloaded-${round}.pdf`)));
        }),
      );
    }
    await pool.close();
    await server.stop();
    await bare.stop();
    const mbps = (seconds: number) => 25 / seconds;
    /** A transfer's median rate against the median streamed copy of the same rounds. */
    const transfer = (name: string, seconds: number[], note: string): Row => ({
      section: 'attachments',
      name,
      value: mbps(median(seconds)),
      unit: 'MB/s',
      floor: { name: 'file copy (read and write streams)', value: mbps(median(copies)) },
      target: 0.3,
      note,
    });
    return [
      {
        section: 'messages',
        name: 'send + moderate',
        value: sent.rps,
        unit: 'msg/s',
        floor: { name: 'bare node:http', value: bareSend.rps },
        target: 0.3,
        note: `${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds of ${SEND_ROUND.toLocaleString('en')} after as many not counted, p99 ${sent.p99.toFixed(1)} ms`,
      },
      {
        section: 'messages',
        name: 'send + moderate, the service alone (its ceiling: no HTTP)',
        value: sendCeiling,
        unit: 'msg/s',
        floor: { name: 'bare node:http', value: bareSend.rps },
        note: `the same server's service.messages.send called by ${CONNECTIONS} writers at once, median of ${ROUNDS} rounds of ${SEND_ROUND.toLocaleString('en')}: one SQLite writer, every send durable`,
      },
      {
        section: 'messages',
        name: 'list a pack of 5,000 messages, limit 50',
        value: listed.rps,
        unit: 'req/s',
        floor: { name: 'bare node:http', value: bareList.rps },
        target: 0.3,
        note: `${CONNECTIONS} connections, random offsets, median of ${ROUNDS} alternating rounds`,
      },
      {
        section: 'messages',
        name: 'list a pack of 5,000 messages, limit 50, p99',
        value: listed.p99,
        unit: 'ms',
        limit: { max: 10, unit: 'ms' },
        note: `of the median round; bare node:http p99 ${bareList.p99.toFixed(1)} ms`,
      },
      await benchInboxSearch(),
      ...benchModeration(),
      transfer('upload 25 MB (fsynced before the answer)', uploads, `median of ${ROUNDS}; in-kernel copyFile ${mbps(median(kernelCopies)).toFixed(0)} MB/s`),
      transfer('download 25 MB (written to a file)', downloads, `median of ${ROUNDS}`),
      {
        section: 'attachments',
        name: 'server memory above idle during a 25 MB upload (peak of the rounds)',
        value: memory.rise / MB,
        unit: 'MB',
        limit: { max: 64, unit: 'MB' },
        note: `idle ${(memory.idle / MB).toFixed(0)} MB`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The inbox's search (issue 15 §2) over 100,000 messages (2,000 conversations of 50), through the
 * core's call as the screen makes it (`messages.conversations` with `search`, first page of 50):
 * an order id (found in the orders and in the texts), a word in every conversation, two words, a
 * prefix, a buyer's name, and a word found nowhere. p95 of all the searches.
 */
export async function benchInboxSearch(conversations = 2000, perConversation = 50): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'stockroom-bench-search-'));
  try {
    seedInbox(dir, conversations, perConversation);
    const core = await DesktopCore.open({ dataDir: dir, log: () => undefined });
    try {
      const first = 3_000_000_000_001;
      const queries = ['seguimiento', 'llega pedido', 'mañan', 'Gómez', 'zzzz-nada'];
      for (let i = 0; i < 40; i++) queries.push(String(first + ((i * 97) % conversations)));
      const times: number[] = [];
      for (let round = 0; round < 3; round++) {
        for (const search of queries) {
          const t0 = process.hrtime.bigint();
          const r = await core.api.messages.conversations({ search, limit: 50 });
          times.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (!r.ok) throw new Error(`search ${search}: ${r.error.message}`);
          if (search === 'zzzz-nada' ? r.value.total !== 0 : r.value.total === 0) throw new Error(`search ${search} found ${r.value.total}`);
        }
      }
      times.sort((a, b) => a - b);
      return {
        section: 'messages',
        name: `search ${(conversations * perConversation).toLocaleString('en')} messages (first page), p95`,
        value: percentile(times, 95),
        unit: 'ms',
        limit: { max: 100, unit: 'ms' },
        note: `${times.length} searches, median ${median(times).toFixed(1)} ms; full-text index (migrations 017, 019), folded names and titles (030)`,
      };
    } finally {
      await core.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
