// The board by keyboard alone (P16, FIDE Laws appendix for visually impaired players):
// Tab reaches the board, arrow keys move a focus square (as the board is seen: up is
// away from the player), each square is announced ("e4, white knight"), Enter or
// Space picks up a piece and then puts it on its square, Escape puts it back. Moves
// go through chessground's own selection, so everything a click can do (castling by
// king to g1 or onto the rook, premoves, the promotion chooser, which takes q r b n)
// a key can do. Tab leaves the board: focus is never held.
import type { Key } from '@lichess-org/chessground/types';
import type { Board } from './board';
import { h } from './dom';
import { t } from './i18n';
import { announce, pieceWords, squareWords } from './speech';

const FILES = 'abcdefgh';
const ARROWS: Record<string, [number, number]> = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

const LETTER: Record<string, string> = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' };
const keyAt = (file: number, rank: number): Key => `${FILES[file]}${rank + 1}` as Key;

export class KeyboardBoard {
  private focus: Key | null = null;
  // Keys act on the board only when it was reached by keyboard: a mouse or touch
  // player who clicked the board keeps ←/→ for reviewing the moves.
  private active = false;
  private readonly marker = h('div.kb-focus', { 'aria-hidden': 'true' });

  // `el`: the board's element (chessground's wrap), made focusable here. `touch`: the
  // touch-move rule (R15) of a training game: the piece that must be moved, if any,
  // and what to do after a key has picked or put a piece.
  constructor(private el: HTMLElement, private board: Board,
    private touch: { lock(): Key | null; refuse(): void; after(): void } = { lock: () => null, refuse: () => {}, after: () => {} }) {
    el.tabIndex = 0;
    el.dataset.keyboardBoard = '';
    el.setAttribute('aria-roledescription', t('board'));
    el.setAttribute('aria-label', t('kbBoardLabel'));
    el.addEventListener('keydown', this.onKey);
    el.addEventListener('focus', this.onFocus);
    el.addEventListener('blur', this.onBlur);
    el.addEventListener('pointerdown', this.onPointer, true);
  }

  destroy() {
    this.el.removeEventListener('keydown', this.onKey);
    this.el.removeEventListener('focus', this.onFocus);
    this.el.removeEventListener('blur', this.onBlur);
    this.el.removeEventListener('pointerdown', this.onPointer, true);
    this.marker.remove();
  }

  private get white(): boolean { return this.board.cg.state.orientation === 'white'; }

  private onPointer = () => {
    this.active = false;
    this.marker.remove();
  };

  private onFocus = () => {
    this.active = this.el.matches(':focus-visible'); // the browser's word: reached by keyboard
    if (!this.active) return;
    if (!this.focus) this.focus = this.white ? 'e1' : 'e8';
    this.draw();
    announce(this.describe(this.focus));
  };

  private onBlur = () => { this.marker.remove(); };

  // "e4, white knight" or "e4, empty".
  describe(sq: Key): string {
    const p = this.board.cg.state.pieces.get(sq);
    const letter = p ? LETTER[p.role] : '';
    const words = p ? pieceWords(p.color === 'white' ? letter : letter.toLowerCase()) : t('emptySquare');
    return `${squareWords(sq)}, ${words.toLowerCase()}`; // "Eva vier, …" with the FIDE phonetic setting
  }

  private draw() {
    if (!this.focus) return;
    const file = FILES.indexOf(this.focus[0]); const rank = Number(this.focus[1]) - 1;
    const col = this.white ? file : 7 - file; const row = this.white ? 7 - rank : rank;
    this.marker.style.left = `${col * 12.5}%`;
    this.marker.style.top = `${row * 12.5}%`;
    if (!this.marker.isConnected) this.el.append(this.marker); // chessground may rebuild its wrap
  }

  private onKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (!this.active) {
      if (e.key !== 'Enter' && e.key !== ' ') return; // the page's own keys (review, flip …)
      this.active = true; // Enter on a clicked board: the player goes on by keyboard
    }
    const sq = this.focus ?? (this.white ? 'e1' : 'e8');
    const arrow = ARROWS[e.key];
    if (arrow) {
      const sign = this.white ? 1 : -1;
      const file = Math.min(7, Math.max(0, FILES.indexOf(sq[0]) + arrow[0] * sign));
      const rank = Math.min(7, Math.max(0, Number(sq[1]) - 1 + arrow[1] * sign));
      this.focus = keyAt(file, rank);
      this.draw();
      announce(this.describe(this.focus));
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.focus = sq;
      this.choose(sq);
    } else if (e.key === 'Escape') {
      if (!this.board.cg.state.selected) return; // nothing picked up: let Escape do its usual job
      if (this.touch.lock()) { this.touch.refuse(); e.preventDefault(); e.stopPropagation(); return; } // R15: it must be moved
      this.board.cg.selectSquare(null);
      announce(t('kbCancelled'));
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };

  // Enter on a square: as a click there (pick up, put down, or pick up another).
  private choose(sq: Key) {
    const cg = this.board.cg;
    const locked = this.touch.lock();
    if (locked && cg.state.selected !== locked) cg.selectSquare(locked);
    if (locked && !(cg.state.movable.dests?.get(locked) ?? []).includes(sq)) {
      this.touch.refuse(); // R15: another piece, or back on its square: the touched piece must be moved
      return;
    }
    const before = cg.state.selected;
    const turnBefore = cg.state.turnColor;
    cg.selectSquare(sq);
    const selected = cg.state.selected;
    if (selected === sq && selected !== before) {
      const dests = cg.state.movable.dests?.get(sq) ?? cg.state.premovable.dests ?? [];
      announce(dests.length
        ? t('kbPicked', { piece: this.describe(sq), squares: dests.map(squareWords).join(', ') })
        : t('kbNoMoves', { square: this.describe(sq) }));
    } else if (!selected && before && cg.state.turnColor === turnBefore && !cg.state.premovable.current) {
      if (before === sq) announce(t('kbCancelled'));
      else {
        cg.selectSquare(before); // a square it cannot reach: the piece stays in hand
        announce(t('kbNotThere', { square: squareWords(sq) }));
      }
    } else if (!selected && !before) {
      announce(t('kbNoMoves', { square: this.describe(sq) }));
    }
    this.draw();
    this.touch.after();
  }
}
