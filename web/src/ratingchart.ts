// The rating-history chart of a profile (P23), drawn with uPlot like the analysis graph
// (src/analysis/chart.ts), in a chunk of its own that profile.ts loads when there is a
// history to draw: one line per rating class, a point after every rated game.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { h } from './dom';
import { t } from './i18n';
import type { Key } from './i18n/en';

export interface RatingPoint { class: string; game: string; at: number; rating: number; rd: number; diff: number }

const COLOURS: Record<string, string> = {
  bullet: '#c0712c', blitz: '#4e7a2f', rapid: '#2f6fc3', classical: '#8a4fb5', correspondence: '#a33f5c', chess960: '#3d8c8c',
};

export function xRange(xs: number[]): [number, number] {
  const lo = Math.min(...xs); const hi = Math.max(...xs);
  const pad = Math.max(3600, (hi - lo) / 10);
  return [lo - pad, hi + pad];
}

export function ratingChart(mount: HTMLElement, points: RatingPoint[]): uPlot {
  const classes = [...new Set(points.map((p) => p.class))];
  // uPlot's data: one x (seconds since 1970, in order) and per class its ratings there.
  const xs = points.map((p) => p.at / 1000);
  const series = classes.map((c) => points.map((p) => (p.class === c ? p.rating : null)));
  const width = () => Math.max(240, Math.floor(mount.clientWidth || 480));
  const opts: uPlot.Options = {
    width: width(), height: 220,
    legend: { show: false }, // a legend of our own below (uPlot's is a table of live values)
    // The games' own span, padded by a tenth and at least an hour either side: a single
    // point or a day's games get an axis of hours, not days (uPlot alone would span
    // years for one point); the ratings padded to whole hundreds.
    scales: {
      x: { time: true, auto: false, range: xRange(xs) },
      y: { range: (_u, min, max) => [Math.floor((min - 50) / 100) * 100, Math.ceil((max + 50) / 100) * 100] },
    },
    axes: [{ stroke: 'currentColor' }, { stroke: 'currentColor' }],
    series: [
      {},
      ...classes.map((c) => ({
        label: t(`class_${c}` as Key), stroke: COLOURS[c] ?? '#888', width: 2, spanGaps: true,
        points: { show: true, size: 5, fill: COLOURS[c] ?? '#888' },
      })),
    ],
  };
  const chart = new uPlot(opts, [xs, ...series] as uPlot.AlignedData, mount);
  const [lo, hi] = xRange(xs);
  mount.dataset.spanSeconds = String(Math.round(hi - lo)); // the time the axis spans, for tests
  mount.append(h('ul.rating-legend', classes.map((c) => h('li', { 'data-class': c },
    h('span.swatch', { 'aria-hidden': 'true', style: `background:${COLOURS[c] ?? '#888'}` }), t(`class_${c}` as Key)))));
  new ResizeObserver(() => { if (mount.clientWidth) chart.setSize({ width: width(), height: 220 }); }).observe(mount);
  return chart;
}
