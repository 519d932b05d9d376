import { Pool } from 'undici';
import { percentile } from './report.js';

export interface LoadRequest {
  method: 'GET' | 'PUT' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  statuses: Map<number, number>;
}

/**
 * Closed-loop load: `connections` keep-alive connections, each sending its next request as soon as
 * the previous answer arrived, for `total` requests. `make(i, worker)` builds request i.
 */
export async function runLoad(
  url: string,
  opts: {
    connections: number;
    total: number;
    make: (i: number, worker: number) => LoadRequest;
    onResponse?: (worker: number, status: number, headers: Record<string, string | string[] | undefined>) => void;
  },
): Promise<LoadResult> {
  const pool = new Pool(url, { connections: opts.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  let errors = 0;
  const started = process.hrtime.bigint();
  async function worker(w: number) {
    for (;;) {
      const i = next++;
      if (i >= opts.total) return;
      const req = opts.make(i, w);
      const t0 = process.hrtime.bigint();
      try {
        const res = await pool.request({ origin: url, method: req.method, path: req.path, headers: req.headers ?? {}, body: req.body ?? null });
        await res.body.dump();
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode >= 400) errors++;
        opts.onResponse?.(w, res.statusCode, res.headers);
      } catch {
        errors++;
      }
    }
  }
  await Promise.all(Array.from({ length: opts.connections }, (_, w) => worker(w)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { rps: opts.total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, statuses };
}
