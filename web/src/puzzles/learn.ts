// Learn from your mistakes (issue 29 item 4): #/learn/GAME. From the analysis of a
// finished game of one's own, each of one's inaccuracies, mistakes and blunders in
// turn: the position before it, a better move to find (the server's engine judges it:
// good when within an inaccuracy of its best), then the engine's line. Moves are
// written in the player's notation (notation.ts); the screen-reader mode has the
// puzzle page's keys (srpanel.ts).
import { fetchGame } from '../api';
import { ApiError } from '../api';
import { clear, h } from '../dom';
import { errorText, t } from '../i18n';
import { account } from '../account';
import { displaySan } from '../notation';
import { announce } from '../speech';
import { fetchAnalysis, type MoveAnalysis } from '../analysis/api';
import { TrainingPanel } from './srpanel';
import { TrainerBoard, TrainerSan, type PlayedMove, type Side } from './trainer';
import { tryBetterMove } from './api';

export class LearnView {
  private readonly trainer = new TrainerBoard(t('lmBoard'));
  private marked: MoveAnalysis[] = [];
  private index = 0;
  private shown = 0; // counts the positions shown: the engine's answer about an earlier one is dropped
  private fens: string[] = [];  // the position before each ply (index ply - 1)
  private played: PlayedMove[] = []; // the game's moves (index ply - 1)
  private mine: Side | null = null;
  private destroyed = false;
  private readonly status = h('p.learn-status', { 'data-learn': 'status', role: 'status' });
  private readonly line = h('p.learn-line', { 'data-learn': 'line' });
  private readonly buttons = h('div.puzzle-actions');
  private readonly sr = new TrainingPanel(this.trainer, () => this.mine, {
    task: () => (this.marked.length ? this.intro() : this.status.textContent ?? ''),
    hint: () => { if (!this.marked.length) return this.status.textContent ?? ''; this.showBest(); return null; },
    result: () => [this.status, this.line].map((e) => e.textContent?.trim() ?? '').filter(Boolean).join(' '),
    next: () => {
      if (this.index + 1 < this.marked.length) { this.show(this.index + 1); return null; }
      return this.marked.length ? t('lmLast') : this.status.textContent ?? '';
    },
  }, { hint: 'lmShowBest', next: 'lmNext' });

  constructor(private mount: HTMLElement, private gameId: string) {
    this.trainer.onUserMove = (uci) => void this.tried(uci);
    clear(mount, h('main.page.puzzle-page.learn-page',
      h('h1', t('lmTitle')),
      h('div.puzzle-layout', this.trainer.el,
        h('aside.puzzle-side', { 'aria-label': t('lmTitle') }, this.status, this.line, this.buttons,
          h('p', h('a', { href: `#/game/${encodeURIComponent(gameId)}` }, t('lmBack'))), this.sr.el))));
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
      for (const m of state.moves) {
        const fen = replay.fen();
        this.fens.push(fen);
        this.played.push({ uci: m, san: replay.san(m), white: fen.split(' ')[1] === 'w' });
      }
      this.marked = analysis.analysis.moves.filter((m) => m.mark && m.color === side);
      if (!this.marked.length) { this.say(t('lmNone')); return; }
      this.show(0);
    } catch (e) {
      if (!this.destroyed) this.say(errorText(e instanceof ApiError ? e.code : 'http', (e as Error).message));
    }
  }

  private show(i: number) {
    this.index = i;
    this.shown++;
    const m = this.marked[i];
    this.trainer.setPosition(this.fens[m.ply - 1], m.color, this.played[m.ply - 2]);
    this.trainer.allow(m.color);
    this.line.textContent = '';
    clear(this.buttons,
      h('button.action', { type: 'button', 'data-action': 'show-best', onclick: () => this.showBest() }, t('lmShowBest')),
      i + 1 < this.marked.length ? h('button.action.primary', { type: 'button', 'data-action': 'next-mistake', onclick: () => this.show(i + 1) }, t('lmNext')) : null);
    this.say(this.intro());
  }

  // "2 of 3: you played Kf2, a blunder. Find a better move."
  private intro(): string {
    const m = this.marked[this.index];
    return t('lmIntro', { n: this.index + 1, total: this.marked.length, move: displaySan(m.san, m.color === 'white'), mark: t(`lmMark_${m.mark!}`) });
  }

  private san(san: string, white = this.mine === 'white'): string { return displaySan(san, white); }

  private showBest() {
    const m = this.marked[this.index];
    if (!m.best_uci || !m.best_san) return;
    this.trainer.shapes([{ orig: m.best_uci.slice(0, 2) as never, dest: m.best_uci.slice(2, 4) as never, brush: 'green' }]);
    this.say(t('bestHere', { move: this.san(m.best_san) }));
  }

  private async tried(uci: string) {
    const m = this.marked[this.index];
    const before = this.trainer.fen();
    const san = this.trainer.play(uci) ?? uci;
    const shown = this.shown;
    this.say(t('lmChecking'));
    try {
      const r = await tryBetterMove(this.gameId, m.ply, uci);
      if (this.destroyed || shown !== this.shown) return;
      this.say(r.accepted ? t('lmGood', { move: this.san(san) }) : t('lmNotBetter', { move: this.san(san) }));
      // The line is the engine's from the position before the mistake: the player's move first.
      if (r.line_san.length) this.line.textContent = t('lmLine', { line: r.line_san.map((x, k) => this.san(x, (this.mine === 'white') === (k % 2 === 0))).join(' ') });
      if (r.best) this.trainer.shapes([{ orig: r.best.uci.slice(0, 2) as never, dest: r.best.uci.slice(2, 4) as never, brush: 'green' }]);
      if (!r.accepted || this.index + 1 >= this.marked.length) {
        this.buttons.prepend(h('button.action', { type: 'button', 'data-action': 'retry', onclick: () => this.show(this.index) }, t('lmRetry')));
      }
      if (r.accepted && this.index + 1 >= this.marked.length) announce(t('lmDone'));
    } catch (e) {
      if (this.destroyed || shown !== this.shown) return;
      this.trainer.setPosition(before, m.color, this.played[m.ply - 2]);
      this.trainer.allow(m.color);
      this.say(errorText(e instanceof ApiError ? e.code : 'http', (e as Error).message));
    }
  }

  private say(text: string) {
    this.status.textContent = text;
    announce(text);
  }

  destroy() {
    this.destroyed = true;
    this.sr.destroy();
    this.trainer.destroy();
    void this.mount;
  }
}
