// The analysis of a finished game on the game screen (issue 10): the Analyse button,
// the progress while the server works, then an evaluation graph (uPlot), a per-side
// summary, the engine's best move as an arrow on the board and the marks in the move
// list (the round view asks markOf/shapes). Clicking the graph or a move goes there.
// The server does the chess; this file only shows what it sent.
import type uPlot from 'uplot';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import { ApiError } from '../api';
import { clear, h } from '../dom';
import { errorText, num, t } from '../i18n';
import { announce } from '../speech';
import { COLOUR, GLYPH, MARKS, evalText, fetchAnalysis, requestAnalysis, type AnalysisStatus, type GameAnalysis, type Mark } from './api';

export interface AnalysisHost {
  readonly gameId: string;
  shownPly(): number;                       // the ply the board shows
  goto(ply: number): void;
  moveText(ply: number): string;            // the move of a ply as the move list writes it
  redraw(): void;
  hasMoves(): boolean;
  myColor?(): 'white' | 'black' | null;      // the signed-in account's side, if it played
}

const POLL_MS = 500;

// The games whose analysis this browser asked for (the last 200).
const ASKED = 'outpost.analysed';
function askedList(): string[] {
  try { const v: unknown = JSON.parse(localStorage.getItem(ASKED) ?? '[]'); return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []; } catch { return []; }
}
const askedBefore = (id: string) => askedList().includes(id);
function rememberAsked(id: string) {
  try { localStorage.setItem(ASKED, JSON.stringify([...askedList().filter((x) => x !== id), id].slice(-200))); } catch { /* private mode */ }
}
const isKey = (s: string): s is Key => /^[a-h][1-8]$/.test(s);

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
  // Only an analysis this browser has asked for is looked up: a game nobody asked
  // about would answer 404 (logged by the browser as an error) after every game. The
  // Analyse button brings a stored one at once (asking again costs the server nothing).
  gameOver(autoStart: boolean) {
    if (this.looked) return;
    this.looked = true;
    if (autoStart) { this.start(); return; }
    if (!askedBefore(this.host.gameId)) return;
    void fetchAnalysis(this.host.gameId).then((st) => {
      if (!this.destroyed && st) this.apply(st);
    }).catch(() => { /* the button is there */ });
  }

  get started(): boolean { return this.phase !== 'idle' && this.phase !== 'failed'; }

  // The Analyse button, for the end of the game (null once it runs or is there).
  button(): HTMLElement | null {
    if (this.started || !this.host.hasMoves()) return null; // a game without a move has nothing to analyse
    return h('button.action.primary', { type: 'button', 'data-action': 'analyse', onclick: () => this.start() }, t('analyse'));
  }

  start() {
    if (this.started) return;
    this.phase = 'asking';
    this.error = '';
    rememberAsked(this.host.gameId);
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
        h('p.analysis-settings', t('analysisBy', { settings: a.settings })),
        this.learnLink(a));
      this.makeChart(a);
    }
    this.update();
  }

  // Issue 29: learn from one's own inaccuracies, mistakes and blunders in this game.
  private learnLink(a: GameAnalysis): HTMLElement | null {
    const mine = this.host.myColor?.();
    if (!mine || !MARKS.some((k) => a.marks[mine][k] > 0)) return null;
    return h('a.action', { href: `#/learn/${encodeURIComponent(this.host.gameId)}`, 'data-action': 'learn' }, t('lmButton'));
  }

  // uPlot comes in its own chunk, loaded with the first analysis shown: the game
  // screen does not carry it for every game.
  private makeChart(a: GameAnalysis) {
    const graph = this.graph;
    if (!graph) return;
    void import('./chart').then(({ evalChart }) => {
      if (this.graph !== graph || this.destroyed) return; // redrawn or gone meanwhile
      const made = evalChart(graph, a, this.host);
      this.chart = made.chart;
      this.resize = made.resize;
    });
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
