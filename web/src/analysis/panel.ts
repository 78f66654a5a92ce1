// The analysis of a finished game on the game screen (issue 10): the Analyse button,
// the progress while the server works, then an evaluation graph (uPlot), a per-side
// summary, the engine's best move as an arrow on the board and the marks in the move
// list (the round view asks markOf/shapes). Clicking the graph or a move goes there.
// The server does the chess; this file only shows what it sent.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import { ApiError } from '../api';
import { clear, h } from '../dom';
import { errorText, num, t } from '../i18n';
import { announce } from '../speech';
import { evalText, fetchAnalysis, requestAnalysis, type AnalysisStatus, type Eval, type GameAnalysis, type Mark } from './api';

export interface AnalysisHost {
  readonly gameId: string;
  shownPly(): number;                       // the ply the board shows
  goto(ply: number): void;
  moveText(ply: number): string;            // the move of a ply as the move list writes it
  redraw(): void;
}

const POLL_MS = 500;
const GLYPH: Record<Mark, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const COLOUR: Record<Mark, string> = { inaccuracy: '#3c9ad6', mistake: '#e08a00', blunder: '#d23c3c' };
const MARKS: Mark[] = ['inaccuracy', 'mistake', 'blunder'];
const isKey = (s: string): s is Key => /^[a-h][1-8]$/.test(s);

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

type Phase = 'idle' | 'asking' | 'queued' | 'running' | 'failed' | 'done';

export class AnalysisPanel {
  readonly el: HTMLElement;
  data: GameAnalysis | null = null;
  private phase: Phase = 'idle';
  private progress = { done: 0, total: 0, queue: 0 };
  private error = '';
  private timer = 0;
  private chart: uPlot | null = null;
  private graph: HTMLElement | null = null;
  private resize: ResizeObserver | null = null;
  private looked = false;
  private destroyed = false;

  constructor(private host: AnalysisHost) {
    this.el = h('section.analysis', { 'aria-label': t('analysisTitle'), hidden: true });
  }

  // A finished game is on the screen: show an analysis that exists already (stored
  // on the server), or start one when the address asks for it (`?analyse=1`).
  gameOver(autoStart: boolean) {
    if (this.looked) return;
    this.looked = true;
    void fetchAnalysis(this.host.gameId).then((st) => {
      if (this.destroyed) return;
      if (st) this.apply(st);
      else if (autoStart) this.start();
    }).catch(() => { if (autoStart) this.start(); });
  }

  get started(): boolean { return this.phase !== 'idle' && this.phase !== 'failed'; }

  // The Analyse button, for the end of the game (null once it runs or is there).
  button(): HTMLElement | null {
    if (this.started) return null;
    return h('button.action.primary', { type: 'button', 'data-action': 'analyse', onclick: () => this.start() }, t('analyse'));
  }

  start() {
    if (this.started) return;
    this.phase = 'asking';
    this.error = '';
    this.render();
    this.host.redraw();
    requestAnalysis(this.host.gameId).then((st) => this.apply(st)).catch((e) => this.fail(e));
  }

  private fail(e: unknown) {
    if (this.destroyed) return;
    this.phase = 'failed';
    this.error = e instanceof ApiError ? errorText(e.code, e.message) : t('err_http');
    this.render();
    this.host.redraw();
  }

  private apply(st: AnalysisStatus) {
    if (this.destroyed) return;
    window.clearTimeout(this.timer);
    if (st.status === 'done' && st.analysis) {
      this.data = st.analysis;
      this.phase = 'done';
      announce(t('analysisReady'));
      this.render();
      this.host.redraw();
      return;
    }
    if (st.status === 'failed') { this.fail(new ApiError('internal', st.error ?? '')); return; }
    this.phase = st.status === 'queued' ? 'queued' : 'running';
    this.progress = { done: st.done ?? 0, total: st.total ?? 0, queue: st.queue_position ?? 0 };
    this.render();
    this.timer = window.setTimeout(() => {
      fetchAnalysis(this.host.gameId).then((next) => {
        if (next) this.apply(next); else this.fail(new ApiError('not_found', ''));
      }).catch((e) => this.fail(e));
    }, POLL_MS);
  }

  // ---- what the round view asks -------------------------------------------

  markOf(ply: number): Mark | null {
    return this.data?.moves[ply - 1]?.mark ?? null;
  }

  glyph(mark: Mark): string { return GLYPH[mark]; }

  // The engine's best move in the position shown, as an arrow.
  shapes(ply: number): DrawShape[] {
    const best = this.data?.moves[ply]?.best_uci;
    if (!best) return [];
    const from = best.slice(0, 2); const to = best.slice(2, 4);
    return isKey(from) && isKey(to) ? [{ orig: from, dest: to, brush: 'blue' }] : [];
  }

  // ---- drawing --------------------------------------------------------------

  render() {
    const el = this.el;
    el.hidden = this.phase === 'idle';
    el.dataset.phase = this.phase;
    if (this.phase === 'done' && this.data) { this.renderDone(this.data); return; }
    this.dropChart();
    if (this.phase === 'failed') {
      clear(el, h('h2', t('analysisTitle')), h('p.analysis-error', { role: 'alert' }, t('analysisFailed', { message: this.error })));
      return;
    }
    const { done, total, queue } = this.progress;
    const text = this.phase === 'queued' && queue > 0
      ? t('analysisQueued', { n: queue })
      : total > 0 ? t('analysing', { done, total }) : t('analysisStarting');
    clear(el, h('h2', t('analysisTitle')),
      h('div.analysis-progress', { role: 'status' },
        h('progress', { max: String(Math.max(total, 1)), value: String(done), 'aria-label': t('analysisTitle') }),
        h('span.analysis-progress-text', text)));
  }

  // The shown ply changed: move the graph's marker and the comment.
  update() {
    if (this.phase !== 'done' || !this.data) return;
    this.chart?.redraw(false, false);
    const c = this.el.querySelector<HTMLElement>('.analysis-comment');
    if (c) clear(c, this.comment(this.data));
  }

  private comment(a: GameAnalysis): (HTMLElement | string)[] {
    const ply = this.host.shownPly();
    const out: (HTMLElement | string)[] = [];
    const m = a.moves[ply - 1];
    if (m) {
      const line = [`${this.host.moveText(ply)} ${evalText(m.eval)}`.trim()];
      if (m.mark) line.push(t(`mark_${m.mark}`));
      if (m.mark && m.best_san) line.push(t('bestWas', { move: m.best_san }));
      out.push(h('div.analysis-move', { class: m.mark ? `mark-${m.mark}` : '' }, line.join(' · ')));
    }
    const next = a.moves[ply];
    if (next?.best_san) out.push(h('div.analysis-best', t('bestHere', { move: next.best_san })));
    return out;
  }

  private renderDone(a: GameAnalysis) {
    const el = this.el;
    if (!this.graph || !el.contains(this.graph)) {
      this.dropChart();
      this.graph = h('div.eval-graph', { role: 'img', 'aria-label': t('evalGraph'), 'data-analysis': 'graph' });
      const acc = (v: number | null) => (v === null ? '–' : `${num(Math.round(v * 10) / 10)}%`);
      const sides = ['white', 'black'] as const;
      // A row per measure, a column per side: narrow enough for the side column.
      clear(el,
        h('h2', t('analysisTitle')),
        a.opening ? h('p.analysis-opening', `${a.opening.eco} · ${a.opening.name}`) : null,
        this.graph,
        h('div.analysis-comment'),
        h('table.analysis-summary',
          h('caption', t('analysisSummary')),
          h('thead', h('tr', h('td'), sides.map((side) => h('th', { scope: 'col' }, t(side))))),
          h('tbody',
            h('tr', { 'data-count': 'accuracy' }, h('th', { scope: 'row' }, t('accuracy')),
              sides.map((side) => h('td', { 'data-side': side }, acc(a.accuracy[side])))),
            MARKS.map((k) => h('tr', { 'data-count': k },
              h('th', { scope: 'row' }, h('span.glyph', { 'aria-hidden': 'true', style: `color:${COLOUR[k]}` }, GLYPH[k]), ' ', t(`marks_${k}`)),
              sides.map((side) => h('td', { 'data-side': side }, num(a.marks[side][k]))))))),
        h('p.analysis-settings', t('analysisBy', { settings: a.settings })));
      this.makeChart(a);
    }
    this.update();
  }

  private makeChart(a: GameAnalysis) {
    const graph = this.graph;
    if (!graph) return;
    const xs = a.evals.map((_, i) => i);
    const ys = a.evals.map(graphValue);
    const markSeries = MARKS.map((k) => a.evals.map((_, i) => (i > 0 && a.moves[i - 1]?.mark === k ? ys[i] : null)));
    const host = this.host;
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
    this.chart = chart;
    this.resize = new ResizeObserver(() => { if (this.chart && graph.clientWidth) this.chart.setSize({ width: width(), height: 120 }); });
    this.resize.observe(graph);
  }

  private dropChart() {
    this.resize?.disconnect();
    this.resize = null;
    this.chart?.destroy();
    this.chart = null;
    this.graph = null;
  }

  destroy() {
    this.destroyed = true;
    window.clearTimeout(this.timer);
    this.dropChart();
  }
}
