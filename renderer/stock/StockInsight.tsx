/** The history panel's chart: the focused product's stock per store and its recent sales (issue 28). */
import { useEffect, useState } from 'react';
import type { ApiError, GridRowView, StockInsightView } from '../../common/contract/contract.js';
import { errorDetail, errorText } from '../i18n/errors.js';
import { type ChartSeries, StockChart, seriesOf } from './StockChart.js';
import { useStock, useStockStore } from './store.js';
import { useStockWords } from './words.js';
import './insight.css';

/** The window the chart shows (the core bounds each store's line to its last 200 changes too). */
export const INSIGHT_DAYS = 30;

export function StockInsight({ row }: { row: GridRowView }) {
  const store = useStockStore();
  const w = useStockWords();
  const columns = useStock((s) => s.allColumns);
  const stockSeq = useStock((s) => s.stockSeq);
  const [insight, setInsight] = useState<StockInsightView | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const userProductId = row.userProductId;

  useEffect(() => {
    let live = true;
    // A short wait, as the history's: moving with the arrow keys does not read every product passed.
    const timer = setTimeout(() => {
      void store
        .getState()
        .api.stock.insight({ userProductId, days: INSIGHT_DAYS, utcOffsetMinutes: -new Date().getTimezoneOffset() })
        .then((r) => {
          if (!live) return;
          if (r.ok) {
            setInsight(r.value);
            setError(null);
          } else setError(r.error);
        });
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [store, userProductId, stockSeq]);

  const product = row.title ?? row.userProductId;
  let body;
  if (error) {
    body = (
      <p role="alert" title={errorDetail(error, w.language)}>
        {w.t('error', { message: errorText(error, w.language) })}
      </p>
    );
  } else if (!insight || insight.userProductId !== userProductId) body = <p>{w.t('loading')}</p>;
  else {
    const series: ChartSeries[] = seriesOf(
      insight,
      (id) => columns.find((c) => c.storeId === id)?.label ?? id,
      // What the grid shows now (queued edits included), not only what the history last recorded.
      (id) => row.cells[id]?.shown,
    );
    body = <StockChart insight={insight} series={series} product={product} days={INSIGHT_DAYS} w={w} />;
  }
  return (
    <section className="stock-insight" aria-labelledby="stock-insight-title">
      <h3 id="stock-insight-title">{w.t('insight.title', { days: w.formatNumber(INSIGHT_DAYS) })}</h3>
      {body}
    </section>
  );
}
