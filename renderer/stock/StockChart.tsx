/**
 * A product's stock per store over time (one stepped line per store) and its units sold per day
 * (bars), drawn as plain SVG. No charting library on purpose: two small shapes need about a
 * hundred lines here, where a library adds tens of kilobytes to the renderer's bundle and draws
 * its own inaccessible markup; this one has a <title> and <desc> (its accessible name and
 * summary), a legend in text, dashes as well as colours per store, and every figure in tables.
 */
import { useId } from 'react';
import type { StockInsightView } from '../../common/contract/contract.js';
import type { StockWords } from './words.js';

export interface ChartSeries {
  storeId: string;
  label: string;
  /** Oldest first; the last is the quantity shown now. */
  points: { at: number; quantity: number }[];
}

const W = 320;
const LINE_H = 110;
const BAR_H = 44;
const GAP = 10;
const PAD = 4;
/** Dashes per series, so the lines differ without colour too. */
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4'];
const SERIES_COLOURS = 6;

/** The lines of each store: its changes in the window, then where it stands now. */
export function seriesOf(insight: StockInsightView, label: (storeId: string) => string, now: (storeId: string) => number | undefined): ChartSeries[] {
  return insight.stores.map((s) => {
    const current = now(s.storeId) ?? s.points.at(-1)?.quantity;
    const points = [...s.points];
    if (points.length === 0 && current !== undefined) points.push({ at: insight.since, quantity: current });
    if (current !== undefined) points.push({ at: insight.now, quantity: current });
    return { storeId: s.storeId, label: label(s.storeId), points };
  });
}

function steps(points: ChartSeries['points'], x: (at: number) => number, y: (q: number) => number): string {
  return points.map((p, i) => (i === 0 ? `M${x(p.at)},${y(p.quantity)}` : `H${x(p.at)}V${y(p.quantity)}`)).join('');
}

export function StockChart({
  insight,
  series,
  product,
  days,
  w,
}: {
  insight: StockInsightView;
  series: ChartSeries[];
  product: string;
  days: number;
  w: StockWords;
}) {
  const id = useId();
  const span = Math.max(1, insight.now - insight.since);
  const top = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.quantity)));
  const x = (at: number) => PAD + ((at - insight.since) / span) * (W - 2 * PAD);
  const y = (q: number) => PAD + (1 - q / top) * (LINE_H - 2 * PAD);
  const sold = insight.sales.reduce((n, d) => n + d.units, 0);
  const most = Math.max(1, ...insight.sales.map((d) => d.units));
  const barW = (W - 2 * PAD) / Math.max(1, insight.sales.length);
  const ranges = series
    .map((s) =>
      w.t('insight.storeRange', {
        store: s.label,
        from: w.formatNumber(s.points[0]?.quantity ?? 0),
        to: w.formatNumber(s.points.at(-1)?.quantity ?? 0),
      }),
    )
    .join('; ');
  return (
    <figure className="stock-chart">
      <svg
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        viewBox={`0 0 ${W} ${LINE_H + GAP + BAR_H}`}
        preserveAspectRatio="none"
        className="stock-chart-svg"
      >
        <title id={`${id}-title`}>{w.t('insight.chartTitle', { product })}</title>
        <desc id={`${id}-desc`}>{w.t('insight.chartDesc', { days: w.formatNumber(days), stores: ranges, units: w.formatNumber(sold) })}</desc>
        <line className="chart-axis" x1={PAD} x2={W - PAD} y1={LINE_H - PAD} y2={LINE_H - PAD} />
        {series.map((s, i) => (
          <path
            key={s.storeId}
            className={`chart-line chart-series-${i % SERIES_COLOURS}`}
            d={steps(s.points, x, y)}
            strokeDasharray={DASHES[i % DASHES.length] || undefined}
            data-store={s.storeId}
          />
        ))}
        <g transform={`translate(0 ${LINE_H + GAP})`}>
          <line className="chart-axis" x1={PAD} x2={W - PAD} y1={BAR_H} y2={BAR_H} />
          {insight.sales.map((d, i) =>
            d.units > 0 ? (
              <rect
                key={d.day}
                className="chart-bar"
                x={PAD + i * barW + barW * 0.15}
                width={barW * 0.7}
                y={BAR_H - (d.units / most) * BAR_H}
                height={(d.units / most) * BAR_H}
                data-day={d.day}
              />
            ) : null,
          )}
        </g>
      </svg>
      <ul className="chart-legend">
        {series.map((s, i) => (
          <li key={s.storeId}>
            <svg aria-hidden="true" width="24" height="8" viewBox="0 0 24 8">
              <line
                className={`chart-line chart-series-${i % SERIES_COLOURS}`}
                x1="0"
                x2="24"
                y1="4"
                y2="4"
                strokeDasharray={DASHES[i % DASHES.length] || undefined}
              />
            </svg>{' '}
            {s.label}
          </li>
        ))}
        <li>
          <svg aria-hidden="true" width="24" height="8" viewBox="0 0 24 8">
            <rect className="chart-bar" x="8" y="0" width="8" height="8" />
          </svg>{' '}
          {w.t('insight.sales')}
        </li>
      </ul>
      <details className="chart-tables">
        <summary>{w.t('insight.table')}</summary>
        <table>
          <caption>{w.t('insight.chartTitle', { product })}</caption>
          <thead>
            <tr>
              <th scope="col">{w.t('insight.col.when')}</th>
              <th scope="col">{w.t('insight.col.store')}</th>
              <th scope="col">{w.t('insight.col.quantity')}</th>
            </tr>
          </thead>
          <tbody>
            {series.flatMap((s) =>
              s.points.map((p, i) => (
                <tr key={`${s.storeId}-${i}`}>
                  <td>{i === s.points.length - 1 ? w.t('insight.now') : w.formatDate(p.at, 'datetime')}</td>
                  <td>{s.label}</td>
                  <td>{w.formatNumber(p.quantity)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
        {sold === 0 ? (
          <p>{w.t('insight.noSales', { days: w.formatNumber(insight.sales.length) })}</p>
        ) : (
          <table>
            <caption>{w.t('insight.sales')}</caption>
            <thead>
              <tr>
                <th scope="col">{w.t('insight.col.day')}</th>
                <th scope="col">{w.t('insight.col.units')}</th>
              </tr>
            </thead>
            <tbody>
              {insight.sales
                .filter((d) => d.units > 0)
                .map((d) => (
                  <tr key={d.day}>
                    <td>{w.formatDate(new Date(`${d.day}T12:00:00`), 'date')}</td>
                    <td>{w.formatNumber(d.units)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        )}
      </details>
    </figure>
  );
}
