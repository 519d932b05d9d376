import { describe, expect, it } from 'vitest';
import { type Row, benchJson, figureJson } from '../../bench/lib/report.js';

const run = { commit: 'abc', startedAt: '2026-11-23T21:00:00.000Z', node: 'v20.20.0', cpus: 2, sections: ['stock'] };

describe('bench.json: one object per figure, comparable across commits', () => {
  it('carries a ratio against the floor and its verdict', () => {
    const row: Row = { section: 'stock', name: 'HTTP GET stock', value: 9888, unit: 'req/s', floor: { name: 'bare node:http', value: 22229 }, target: 0.4 };
    expect(figureJson(row)).toEqual({
      section: 'stock',
      name: 'HTTP GET stock',
      value: 9888,
      unit: 'req/s',
      floor: { name: 'bare node:http', value: 22229 },
      ratio: 0.4448,
      target: { ratio: 0.4, lowerIsBetter: false },
      verdict: 'ok',
      note: null,
    });
    expect(figureJson({ ...row, target: 0.6 }).verdict).toBe('below target');
  });

  it('inverts the ratio when lower is better (a latency against its floor)', () => {
    const f = figureJson({ section: 'ui', name: 'drag p95', value: 40, unit: 'ms', floor: { name: 'plain DOM', value: 33 }, target: 1, lowerIsBetter: true });
    expect(f.ratio).toBeCloseTo(0.825, 3);
    expect(f.verdict).toBe('below target');
  });

  it('keeps an absolute limit, and says when a figure has no target', () => {
    expect(figureJson({ section: 'stock', name: 'queue p99', value: 1.2, unit: 'ms', limit: { max: 1, unit: 'ms' } })).toMatchObject({
      ratio: null,
      target: { max: 1, unit: 'ms' },
      verdict: 'over limit',
    });
    expect(figureJson({ section: 'sync', name: 'replica size', value: 41, unit: 'MB', note: '100k products' })).toMatchObject({
      floor: null,
      target: null,
      verdict: 'no target',
      note: '100k products',
    });
  });

  it('wraps the figures with the run they came from, as JSON round-trips them', () => {
    const json = benchJson([{ section: 'stock', name: 'x', value: 1, unit: 'ops/s' }], run);
    expect(JSON.parse(JSON.stringify(json))).toEqual({ ...run, figures: [figureJson({ section: 'stock', name: 'x', value: 1, unit: 'ops/s' })] });
  });
});
