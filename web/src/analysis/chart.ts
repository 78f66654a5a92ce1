// The evaluation graph of an analysis (uPlot), in a chunk of its own (panel.ts loads it
// when the first analysis is shown). The curve is White's winning chances from the
// evaluations; the marked moves are dots in their colours; a line shows the position
// on the board; a click goes to the move under the pointer.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AnalysisHost } from './panel';
import { COLOUR, MARKS, type Eval, type GameAnalysis } from './api';

// White's advantage on the graph's scale: -1..1 along the curve that turns centipawns
// into winning chances (docs/analysis.md), so that +1 and +9 do not look alike but
// +9 and +15 do; a mate is the end of the scale.
export function graphValue(e: Eval): number {
  if (e.mate !== undefined) {
    if (e.mate === 0) return e.winner === 'black' ? -1 : 1;
    return e.mate > 0 ? 1 : -1;
  }
  return 2 / (1 + Math.exp(-0.00368208 * (e.cp ?? 0))) - 1;
}

export function evalChart(graph: HTMLElement, a: GameAnalysis, host: AnalysisHost): { chart: uPlot; resize: ResizeObserver } {
  const xs = a.evals.map((_, i) => i);
  const ys = a.evals.map(graphValue);
  const markSeries = MARKS.map((k) => a.evals.map((_, i) => (i > 0 && a.moves[i - 1]?.mark === k ? ys[i] : null)));
  const width = () => Math.max(200, Math.floor(graph.clientWidth || 300));
  const opts: uPlot.Options = {
    width: width(), height: 120,
    legend: { show: false },
    cursor: { y: false, drag: { x: false, y: false }, points: { show: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: { x: { time: false }, y: { range: [-1, 1] } },
    axes: [{ show: false }, { show: false }],
    series: [
      {},
      { stroke: '#888', width: 1.5, fill: 'rgba(255,255,255,0.75)', fillTo: -1 },
      ...MARKS.map((k) => ({ stroke: COLOUR[k], width: 0, paths: () => null, points: { show: true, size: 7, fill: COLOUR[k], stroke: COLOUR[k] } })),
    ],
    hooks: {
      draw: [(u: uPlot) => {
        // The position shown: a line across the graph; and the zero line.
        const ctx = u.ctx;
        const x = u.valToPos(host.shownPly(), 'x', true);
        const y0 = u.valToPos(0, 'y', true);
        ctx.save();
        ctx.strokeStyle = 'rgba(128,128,128,0.6)';
        ctx.lineWidth = 1;
        ctx.beginPath(); ctx.moveTo(u.bbox.left, y0); ctx.lineTo(u.bbox.left + u.bbox.width, y0); ctx.stroke();
        ctx.strokeStyle = '#4e7a2f';
        ctx.lineWidth = 2 * devicePixelRatio;
        ctx.beginPath(); ctx.moveTo(x, u.bbox.top); ctx.lineTo(x, u.bbox.top + u.bbox.height); ctx.stroke();
        ctx.restore();
      }],
    },
  };
  const chart = new uPlot(opts, [xs, ys, ...markSeries] as uPlot.AlignedData, graph);
  chart.over.addEventListener('click', () => {
    const i = chart.cursor.idx;
    if (typeof i === 'number') host.goto(i);
  });
  chart.over.style.cursor = 'pointer';
  const resize = new ResizeObserver(() => { if (graph.clientWidth) chart.setSize({ width: width(), height: 120 }); });
  resize.observe(graph);
  return { chart, resize };
}

