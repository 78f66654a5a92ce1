// Learn from your mistakes (issue 29 item 4): #/learn/GAME. From the analysis of a
// finished game of one's own, each of one's inaccuracies, mistakes and blunders in
// turn: the position before it, a better move to find (the server's engine judges it:
// good when within an inaccuracy of its best), then the engine's line.
import { fetchGame } from '../api';
import { ApiError } from '../api';
import { clear, h } from '../dom';
import { errorText, t } from '../i18n';
import { account } from '../account';
import { announce } from '../speech';
import { fetchAnalysis, type MoveAnalysis } from '../analysis/api';
import { TrainerBoard, TrainerSan, type Side } from './trainer';
import { tryBetterMove } from './api';

export class LearnView {
  private readonly trainer = new TrainerBoard(t('lmBoard'));
  private marked: MoveAnalysis[] = [];
  private index = 0;
  private fens: string[] = [];  // the position before each ply (index ply - 1)
  private mine: Side = 'white';
  private destroyed = false;
  private readonly status = h('p.learn-status', { 'data-learn': 'status', role: 'status' });
  private readonly line = h('p.learn-line', { 'data-learn': 'line' });
  private readonly buttons = h('div.puzzle-actions');

  constructor(private mount: HTMLElement, private gameId: string) {
    this.trainer.onUserMove = (uci) => void this.tried(uci);
    clear(mount, h('main.page.puzzle-page.learn-page',
      h('h1', t('lmTitle')),
      h('div.puzzle-layout', this.trainer.el,
        h('aside.puzzle-side', { 'aria-label': t('lmTitle') }, this.status, this.line, this.buttons,
          h('p', h('a', { href: `#/game/${encodeURIComponent(gameId)}` }, t('lmBack')))))));
    void this.load();
  }

  private async load() {
    try {
      const [state, analysis] = await Promise.all([fetchGame(this.gameId), fetchAnalysis(this.gameId)]);
      if (this.destroyed) return;
      const me = account()?.name.toLowerCase();
      const side = (['white', 'black'] as const).find((c) => me && state.players[c].account?.toLowerCase() === me);
      if (!side) { this.say(t('lmNotYours')); return; }
      this.mine = side;
      if (analysis?.status !== 'done' || !analysis.analysis) {
        this.say(t('lmNeedAnalysis'));
        this.buttons.append(h('a.action', { href: `#/game/${encodeURIComponent(this.gameId)}?analyse=1` }, t('analyse')));
        return;
      }
      const replay = new TrainerSan(state.initial_fen);
      for (const m of state.moves) { this.fens.push(replay.fen()); replay.san(m); }
      this.marked = analysis.analysis.moves.filter((m) => m.mark && m.color === side);
      if (!this.marked.length) { this.say(t('lmNone')); return; }
      this.show(0);
    } catch (e) {
      if (!this.destroyed) this.say(errorText(e instanceof ApiError ? e.code : 'http', (e as Error).message));
    }
  }

  private show(i: number) {
    this.index = i;
    const m = this.marked[i];
    this.trainer.setPosition(this.fens[m.ply - 1], this.mine);
    this.trainer.allow(this.mine);
    this.line.textContent = '';
    clear(this.buttons,
      h('button.action', { type: 'button', 'data-action': 'show-best', onclick: () => this.showBest() }, t('lmShowBest')),
      i + 1 < this.marked.length ? h('button.action.primary', { type: 'button', 'data-action': 'next-mistake', onclick: () => this.show(i + 1) }, t('lmNext')) : null);
    this.say(t('lmIntro', { n: i + 1, total: this.marked.length, move: m.san, mark: t(`lmMark_${m.mark!}`) }));
  }

  private showBest() {
    const m = this.marked[this.index];
    if (!m.best_uci || !m.best_san) return;
    this.trainer.shapes([{ orig: m.best_uci.slice(0, 2) as never, dest: m.best_uci.slice(2, 4) as never, brush: 'green' }]);
    this.say(t('bestHere', { move: m.best_san }));
  }

  private async tried(uci: string) {
    const m = this.marked[this.index];
    const before = this.trainer.fen();
    const san = this.trainer.play(uci) ?? uci;
    this.say(t('lmChecking'));
    try {
      const r = await tryBetterMove(this.gameId, m.ply, uci);
      if (this.destroyed) return;
      this.say(r.accepted ? t('lmGood', { move: san }) : t('lmNotBetter', { move: san }));
      if (r.line_san.length) this.line.textContent = t('lmLine', { line: r.line_san.join(' ') });
      if (r.best) this.trainer.shapes([{ orig: r.best.uci.slice(0, 2) as never, dest: r.best.uci.slice(2, 4) as never, brush: 'green' }]);
      if (!r.accepted || this.index + 1 >= this.marked.length) {
        this.buttons.prepend(h('button.action', { type: 'button', 'data-action': 'retry', onclick: () => this.show(this.index) }, t('lmRetry')));
      }
      if (r.accepted && this.index + 1 >= this.marked.length) announce(t('lmDone'));
    } catch (e) {
      if (this.destroyed) return;
      this.trainer.setPosition(before, this.mine);
      this.trainer.allow(this.mine);
      this.say(errorText(e instanceof ApiError ? e.code : 'http', (e as Error).message));
    }
  }

  private say(text: string) {
    this.status.textContent = text;
    announce(text);
  }

  destroy() {
    this.destroyed = true;
    this.trainer.destroy();
    void this.mount;
  }
}
