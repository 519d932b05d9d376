/** One line of the benchmark table: a figure, the floor it is compared with, and the target. */
export interface Row {
  section: string;
  name: string;
  value: number;
  unit: string;
  floor?: { name: string; value: number };
  /** Minimum acceptable ratio value/floor (or, with `lowerIsBetter`, floor/value). */
  target?: number;
  lowerIsBetter?: boolean;
  /** Absolute limit instead of a ratio (e.g. a p99 under 1 ms). */
  limit?: { max: number; unit: string };
  note?: string;
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(3));

export function ratioOf(r: Row): number | undefined {
  if (!r.floor) return undefined;
  return r.lowerIsBetter ? r.floor.value / r.value : r.value / r.floor.value;
}

export function verdict(r: Row): string {
  const ratio = ratioOf(r);
  if (r.target !== undefined && ratio !== undefined) return ratio >= r.target ? 'ok' : 'BELOW TARGET';
  if (r.limit) return r.value <= r.limit.max ? 'ok' : 'OVER LIMIT';
  return '';
}

/** Prints rows as a Markdown table, ready to paste into the README. */
export function printTable(rows: Row[]): string {
  const lines = ['| section | measure | value | floor | ratio | target | verdict |', '| --- | --- | --- | --- | --- | --- | --- |'];
  for (const r of rows) {
    const ratio = ratioOf(r);
    const target = r.target !== undefined ? `>= ${r.target}` : r.limit ? `<= ${r.limit.max} ${r.limit.unit}` : '';
    lines.push(
      `| ${r.section} | ${r.name}${r.note ? ` (${r.note})` : ''} | ${fmt(r.value)} ${r.unit} | ${r.floor ? `${r.floor.name}: ${fmt(r.floor.value)} ${r.unit}` : ''} | ${ratio !== undefined ? ratio.toFixed(2) : ''} | ${target} | ${verdict(r)} |`,
    );
  }
  const text = lines.join('\n');
  console.log(text);
  return text;
}

/** One figure of `test-output/bench.json`, so that runs can be compared across commits by a script. */
export interface FigureJson {
  section: string;
  name: string;
  value: number;
  unit: string;
  floor: { name: string; value: number } | null;
  ratio: number | null;
  /** A ratio target (`ratio >= min`, or with lowerIsBetter `floor / value >= min`) or an absolute limit. */
  target: { ratio: number; lowerIsBetter: boolean } | { max: number; unit: string } | null;
  verdict: 'ok' | 'below target' | 'over limit' | 'no target';
  note: string | null;
}

export function figureJson(r: Row): FigureJson {
  const ratio = ratioOf(r);
  const v = verdict(r);
  return {
    section: r.section,
    name: r.name,
    value: r.value,
    unit: r.unit,
    floor: r.floor ?? null,
    ratio: ratio === undefined ? null : Number(ratio.toFixed(4)),
    target: r.target !== undefined ? { ratio: r.target, lowerIsBetter: r.lowerIsBetter === true } : r.limit ? { ...r.limit } : null,
    verdict: v === 'ok' ? 'ok' : v === 'BELOW TARGET' ? 'below target' : v === 'OVER LIMIT' ? 'over limit' : 'no target',
    note: r.note ?? null,
  };
}

/** The whole run: when and where it ran (figures from a busy machine are not comparable), then every figure. */
export function benchJson(rows: Row[], run: { commit: string | null; startedAt: string; node: string; cpus: number; sections: string[] }) {
  return { ...run, figures: rows.map(figureJson) };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** Runs `fn` repeatedly for about `ms` milliseconds and returns operations per second. */
export function opsPerSecond(fn: (i: number) => void, ms = 1500): number {
  for (let i = 0; i < 200; i++) fn(i); // warm-up
  let n = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < end) {
    for (let k = 0; k < 100; k++) fn(n++);
    now = process.hrtime.bigint();
  }
  return n / (Number(now - start) / 1e9);
}

/** opsPerSecond for an async operation, awaited one at a time. */
export async function opsPerSecondAsync(fn: (i: number) => Promise<void>, ms = 1500): Promise<number> {
  for (let i = 0; i < 200; i++) await fn(i);
  let n = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < end) {
    await fn(n++);
    now = process.hrtime.bigint();
  }
  return n / (Number(now - start) / 1e9);
}

/**
 * `writers` loops at once, each awaiting `fn` before its next call, for `total` calls; calls per
 * second. What a server's write path can do with no HTTP in front (its writes batch as under load).
 */
export async function concurrentOpsPerSecond(fn: (i: number, writer: number) => Promise<unknown>, total: number, writers = 16): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = next++; i < total; i = next++) await fn(i, w);
    }),
  );
  return total / (Number(process.hrtime.bigint() - start) / 1e9);
}
