// The puzzle page (issue 29 item 3): #/puzzles and #/puzzles/ID. The opponent's move
// is played on the board, then the player finds the move: a right one is answered by
// the opponent's reply, a wrong one shows the solution; hints (the piece, then the
// square), the solution, the next puzzle, a theme to train; the puzzle rating and its
// change; moves in the player's notation (notation.ts); the screen-reader mode's keys
// (srpanel.ts). The server checks every move (docs/protocol.md, "Puzzles").
import { ApiError } from '../api';
import { clear, h, toast } from '../dom';
import { errorText, hasKey, num, t } from '../i18n';
import { account } from '../account';
import { displaySan } from '../notation';
import { announce, describeMove } from '../speech';
import { TrainingPanel } from './srpanel';
import { TrainerBoard, TrainerSan } from './trainer';
import {
  askHint, fetchPuzzle, fetchThemes, nextPuzzle, recentPuzzles, rememberPuzzle, sendAttempt,
  type AttemptAnswer, type Puzzle, type PuzzleRating,
} from './api';

type Phase = 'loading' | 'opponent' | 'solving' | 'waiting' | 'solved' | 'failed' | 'none';
const THEME = 'outpost.puzzles.theme';
const REPLY_MS = 450;

// A theme's name in the UI's language; a theme without a word of ours as lichess writes it.
export function themeName(theme: string): string {
  const key = `theme_${theme}`;
  return hasKey(key) ? t(key) : theme.replace(/([a-z])([A-Z0-9])/g, '$1 $2');
}

const signed = (n: number) => (n > 0 ? `+${num(n)}` : n < 0 ? `−${num(-n)}` : num(0));

export class PuzzleView {
  private readonly trainer = new TrainerBoard(t('pzBoard'));
  private puzzle: Puzzle | null = null;
  private moves: string[] = [];       // the solver's right moves so far
  private phase: Phase = 'loading';
  private hintLevel = 0;
  private timers: number[] = [];
  private destroyed = false;
  // Counts the puzzles asked for: an answer about an earlier one (the player went on
  // to the next meanwhile) is dropped.
  private generation = 0;
  private readonly status = h('p.puzzle-status', { 'data-puzzle': 'status', role: 'status' });
  private readonly ratingLine = h('p.puzzle-rating', { 'data-puzzle': 'rating' });
  private readonly info = h('p.puzzle-info', { 'data-puzzle': 'info' });
  private readonly solutionLine = h('p.puzzle-solution', { 'data-puzzle': 'solution' });
  private readonly themeSelect = h('select', { id: 'puzzle-theme', 'data-puzzle': 'theme', onchange: () => this.themeChanged() }) as HTMLSelectElement;
  private readonly hintButton = h('button.action', { type: 'button', 'data-action': 'hint', title: t('pzHintCost'), 'aria-describedby': 'pz-hint-cost', onclick: () => void this.hint() }, t('pzHint'));
  private readonly solutionButton = h('button.action', { type: 'button', 'data-action': 'solution', onclick: () => void this.giveUp() }, t('pzShowSolution'));
  private readonly nextButton = h('button.action.primary', { type: 'button', 'data-action': 'next', onclick: () => void this.next() }, t('pzNext'));
  private readonly sr = new TrainingPanel(this.trainer, () => this.puzzle?.color ?? null, {
    task: () => (this.puzzle ? t('pzYourTurn', { side: t(this.puzzle.color) }) : this.status.textContent ?? ''),
    hint: () => { if (this.phase !== 'solving') return this.resultText(); void this.hint(); return null; },
    result: () => this.resultText(),
    next: () => { if (this.phase === 'loading') return null; void this.next(); return null; },
  }, { hint: 'pzHint', next: 'pzNext' });

  constructor(mount: HTMLElement, id: string | null) {
    this.trainer.onUserMove = (uci) => void this.userMove(uci);
    clear(mount, h('main.page.puzzle-page',
      h('h1', t('pzTitle')),
      h('div.puzzle-layout',
        this.trainer.el,
        h('aside.puzzle-side', { 'aria-label': t('pzTitle') },
          this.status, this.ratingLine, this.info, this.solutionLine,
          h('div.puzzle-actions', this.hintButton, this.solutionButton, this.nextButton),
          // The tooltip's warning, for those who never hover: read with the button.
          h('span.sr-only', { id: 'pz-hint-cost' }, t('pzHintCost')),
          h('label.block', { for: 'puzzle-theme' }, t('pzTheme'), this.themeSelect), this.sr.el))));
    this.themeSelect.append(h('option', { value: '' }, t('pzAllThemes')));
    void this.loadThemes();
    this.showRating(null);
    void (id ? this.load(() => fetchPuzzle(id)) : this.next());
  }

  private get theme(): string { try { return localStorage.getItem(THEME) ?? ''; } catch { return ''; } }

  private async loadThemes() {
    try {
      const r = await fetchThemes();
      if (this.destroyed) return;
      const chosen = this.theme;
      for (const th of r.themes)
        this.themeSelect.append(h('option', { value: th.theme, selected: th.theme === chosen }, `${themeName(th.theme)} (${num(th.count)})`));
    } catch { /* the list stays "all themes" */ }
  }

  private themeChanged() {
    try { localStorage.setItem(THEME, this.themeSelect.value); } catch { /* private mode */ }
    void this.next();
  }

  private async next() { await this.load(() => nextPuzzle(this.theme, recentPuzzles())); }

  private stale(generation: number): boolean { return this.destroyed || generation !== this.generation; }

  private async load(get: () => ReturnType<typeof fetchPuzzle>) {
    const generation = ++this.generation;
    this.clearTimers();
    this.setPhase('loading');
    try {
      const r = await get();
      if (this.stale(generation)) return;
      this.showRating(r.rating);
      this.start(r.puzzle);
    } catch (e) {
      if (this.stale(generation)) return;
      const code = e instanceof ApiError ? e.code : 'http';
      this.setPhase('none');
      this.say(code === 'not_found' ? t('pzNone') : errorText(code, (e as Error).message));
    }
  }

  private start(p: Puzzle) {
    this.puzzle = p;
    this.moves = [];
    this.hintLevel = 0;
    this.solutionLine.textContent = '';
    rememberPuzzle(p.id);
    history.replaceState(null, '', `#/puzzles/${encodeURIComponent(p.id)}`);
    this.info.textContent = t('pzInfo', { id: p.id, rating: num(p.rating), themes: p.themes.map(themeName).join(', ') });
    this.trainer.setPosition(p.fen, p.color);
    this.setPhase('opponent');
    this.later(() => {
      // One announcement: the opponent's move, then what is asked.
      const san = this.trainer.play(p.opponent_move, false);
      this.setPhase('solving');
      this.trainer.allow(p.color);
      const asked = t('pzYourTurn', { side: t(p.color) });
      this.status.textContent = asked;
      announce(san ? `${describeMove(p.opponent_move, san, p.color === 'black')}. ${asked}` : asked);
    }, 500);
  }

  private async userMove(uci: string) {
    const p = this.puzzle;
    if (!p || this.phase !== 'solving') return;
    const fenBefore = this.trainer.fen();
    const lastBefore = this.trainer.played[this.trainer.played.length - 1];
    const generation = this.generation;
    this.trainer.play(uci);
    this.setPhase('waiting');
    let a: AttemptAnswer;
    try {
      a = await sendAttempt(p.id, [...this.moves, uci]);
    } catch (e) {
      if (this.stale(generation)) return;
      this.trainer.setPosition(fenBefore, p.color, lastBefore);
      this.setPhase('solving');
      this.trainer.allow(p.color);
      toast(errorText(e instanceof ApiError ? e.code : 'http', (e as Error).message));
      return;
    }
    if (this.stale(generation)) return;
    this.hintLevel = 0;
    this.trainer.shapes([]);
    if (a.status === 'continue' && a.reply) {
      this.moves.push(uci);
      this.say(t('pzRight'));
      this.later(() => {
        this.trainer.play(a.reply!);
        this.setPhase('solving');
        this.trainer.allow(p.color);
      }, REPLY_MS);
    } else if (a.status === 'solved') {
      this.moves.push(uci);
      this.setPhase('solved');
      this.say(t('pzSolved'));
      this.ended(a);
    } else {
      // The wrong move goes back; the rest of the solution is played from there.
      this.trainer.setPosition(fenBefore, p.color, lastBefore);
      this.failed(a);
    }
  }

  private failed(a: AttemptAnswer) {
    this.setPhase('failed');
    this.say(t('pzWrong'));
    this.ended(a);
    const rest = (a.solution ?? []).slice(2 * this.moves.length);
    rest.forEach((m, i) => this.later(() => this.trainer.play(m), 700 * (i + 1)));
  }

  private ended(a: AttemptAnswer) {
    if (a.rating) this.showRating(a.rating);
    const p = this.puzzle;
    if (!p || !a.solution) return;
    // The solution in the player's notation, from the position after the opponent's move.
    const replay = new TrainerSan(p.fen, [p.opponent_move]);
    const white = (i: number) => (p.color === 'white') === (i % 2 === 0);
    this.solutionLine.textContent = t('pzSolution', { moves: a.solution.map((m, i) => displaySan(replay.san(m), white(i))).join(' ') });
  }

  // What the page says now: the status, the rating and, once over, the solution.
  private resultText(): string {
    return [this.status, this.ratingLine, this.solutionLine].map((e) => e.textContent?.trim() ?? '').filter(Boolean).join(' ');
  }

  private async hint() {
    const p = this.puzzle;
    if (!p || this.phase !== 'solving') return;
    const generation = this.generation;
    const step = this.moves.length;
    try {
      const r = await askHint(p.id, this.moves);
      if (this.stale(generation) || this.moves.length !== step || this.phase !== 'solving') return; // moved meanwhile
      this.hintLevel = Math.min(2, this.hintLevel + 1);
      if (r.rating) this.showRating(r.rating);
      if (this.hintLevel === 1) {
        this.trainer.shapes([{ orig: r.from as never, brush: 'green' }]);
        this.say(t('pzHintPiece', { square: r.from }));
      } else {
        this.trainer.shapes([{ orig: r.from as never, dest: r.to as never, brush: 'green' }]);
        this.say(t('pzHintMove', { from: r.from, to: r.to }));
      }
    } catch (e) {
      if (!this.stale(generation)) toast(errorText(e instanceof ApiError ? e.code : 'http', (e as Error).message));
    }
  }

  private async giveUp() {
    const p = this.puzzle;
    if (!p || this.phase !== 'solving') return;
    const generation = this.generation;
    this.setPhase('waiting');
    try {
      const a = await sendAttempt(p.id, this.moves, true);
      if (!this.stale(generation)) this.failed(a);
    } catch (e) {
      if (this.stale(generation)) return;
      this.setPhase('solving');
      this.trainer.allow(p.color);
      toast(errorText(e instanceof ApiError ? e.code : 'http', (e as Error).message));
    }
  }

  private showRating(r: PuzzleRating | null) {
    if (!account()) { this.ratingLine.textContent = t('pzGuest'); return; }
    if (!r) { this.ratingLine.textContent = t('pzRatingNew'); return; }
    const shown = `${num(r.rating)}${r.provisional ? '?' : ''}`;
    this.ratingLine.textContent = r.diff !== undefined
      ? t('pzRatingChange', { rating: shown, diff: signed(r.diff) })
      : t('pzRating', { rating: shown });
    this.ratingLine.dataset.diff = String(r.diff ?? '');
  }

  private setPhase(phase: Phase) {
    this.phase = phase;
    const page = this.trainer.el.closest('.puzzle-page') as HTMLElement | null;
    if (page) page.dataset.phase = phase;
    const solving = phase === 'solving';
    (this.hintButton as HTMLButtonElement).disabled = !solving;
    (this.solutionButton as HTMLButtonElement).disabled = !solving;
    if (!solving) this.trainer.allow(null);
  }

  private say(text: string) {
    this.status.textContent = text;
    announce(text);
  }

  private later(f: () => void, ms: number) {
    this.timers.push(window.setTimeout(() => { if (!this.destroyed) f(); }, ms));
  }

  private clearTimers() {
    for (const id of this.timers) window.clearTimeout(id);
    this.timers = [];
  }

  destroy() {
    this.destroyed = true;
    this.sr.destroy();
    this.clearTimers();
    this.trainer.destroy();
  }
}
