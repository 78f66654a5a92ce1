// A board to train on (issue 29: puzzles, learn from your mistakes): chessground with
// the legal moves of the position (chessops), played by mouse, touch, the keyboard
// board (keyboardboard.ts) or typed in the move box (SAN or coordinates, in the UI's
// piece letters, as the game screen reads them), each move said in words for the
// screen reader (speech.ts). A pawn taken to the last rank by mouse, touch, keys or a
// typed move that names no piece asks which piece with the game screen's chooser
// (round/promotion.ts). The page decides
// what a move means; this file only turns it into UCI as the server writes it
// (castling e1g1).
import { Chess, normalizeMove } from 'chessops/chess';
import { chessgroundDests } from 'chessops/compat';
import { makeFen, parseFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { makeSquare, parseSquare, parseUci } from 'chessops/util';
import type { NormalMove } from 'chessops/types';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import { Board, isKey } from '../board';
import { h } from '../dom';
import { t } from '../i18n';
import { KeyboardBoard } from '../keyboardboard';
import { readTyped, positionByRank } from '../round/keyboardMove';
import { Promotion, isLastRank } from '../round/promotion';
import { announce, describeMove } from '../speech';

export type Side = 'white' | 'black';
// A move played on the board, as the screen reader says it.
export interface PlayedMove { uci: string; san: string; white: boolean }

export class TrainerBoard {
  readonly el: HTMLElement;
  readonly input: HTMLInputElement;
  readonly board: Board;
  private readonly kb: KeyboardBoard;
  private readonly promotion: Promotion;
  pos: Chess = Chess.default();
  // The moves played since the last setPosition (its `last` move first).
  played: PlayedMove[] = [];
  private mover: Side | null = null;
  orientation: Side = 'white';
  // A move of the player, in UCI (castling as e1g1).
  onUserMove: (uci: string) => void = () => {};

  constructor(label: string) {
    const wrap = h('div.board', { 'data-board': 'trainer' });
    this.input = h('input.move-input', {
      type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', 'data-action': 'move-input',
      'aria-label': t('trMoveBox'), placeholder: t('trMoveBoxHint'),
    }) as HTMLInputElement;
    const form = h('form.trainer-move', { onsubmit: (e: Event) => { e.preventDefault(); this.typed(); } },
      this.input, h('button.action', { type: 'submit' }, t('trPlay')),
      h('button.action', { type: 'button', 'data-action': 'read-position', onclick: () => announce(positionByRank(this.fen(), this.orientation)) }, t('trReadPosition')));
    this.el = h('div.trainer', h('div.board-wrap', { role: 'region', 'aria-label': label }, wrap), form);
    this.board = new Board(wrap, { viewOnly: false, movable: { color: undefined }, premovable: { enabled: false } });
    this.board.onMove = (m) => this.fromUser(m.from, m.to);
    this.kb = new KeyboardBoard(wrap, this.board);
    this.promotion = new Promotion(wrap);
  }

  fen(): string { return makeFen(this.pos.toSetup()); }

  // A new position (no animation), seen from `orientation`; `last`: the move that led
  // to it, shown on the board and kept for the screen reader.
  setPosition(fen: string, orientation: Side, last?: PlayedMove) {
    this.promotion.cancel();
    const setup = parseFen(fen);
    this.pos = setup.isOk ? Chess.fromSetup(setup.value).unwrap() : Chess.default();
    this.orientation = orientation;
    this.mover = null;
    this.played = last ? [last] : [];
    const lastMove = last && isKey(last.uci.slice(0, 2)) && isKey(last.uci.slice(2, 4)) ? [last.uci.slice(0, 2), last.uci.slice(2, 4)] as Key[] : undefined;
    this.board.set({ fen: this.fen(), orientation, lastMove, turnColor: this.pos.turn, check: this.pos.isCheck() ? this.pos.turn : false,
      movable: { color: undefined, dests: new Map() }, drawable: { autoShapes: [] } });
  }

  // The last move `side` played here, in words ("Black pawn c7 to c6"), or null.
  lastMoveOf(side: Side): string | null {
    const m = [...this.played].reverse().find((x) => x.white === (side === 'white'));
    return m ? describeMove(m.uci, m.san, m.white) : null;
  }

  // Plays a UCI move on the board (animated), says it; its SAN, or null when not legal.
  play(uci: string, say = true): string | null {
    const m = parseUci(uci);
    if (!m || !('from' in m)) return null;
    const move = normalizeMove(this.pos, m) as NormalMove;
    if (!this.pos.isLegal(move)) return null;
    const san = makeSan(this.pos, move);
    const whiteMoved = this.pos.turn === 'white';
    this.pos.play(move);
    this.played.push({ uci, san, white: whiteMoved });
    this.board.set({ fen: this.fen(), lastMove: [uci.slice(0, 2) as Key, uci.slice(2, 4) as Key], turnColor: this.pos.turn,
      check: this.pos.isCheck() ? this.pos.turn : false, drawable: { autoShapes: [] } });
    this.allow(this.mover);
    if (say) announce(describeMove(uci, san, whiteMoved));
    return san;
  }

  // Lets `side` move (when it is its turn), or nobody.
  allow(side: Side | null) {
    if (side === null) this.promotion.cancel();
    this.mover = side;
    const on = side !== null && this.pos.turn === side;
    this.board.set({ movable: { color: on ? side : undefined, dests: on ? chessgroundDests(this.pos) : new Map() } });
    this.input.disabled = !on;
  }

  shapes(shapes: DrawShape[]) { this.board.set({ drawable: { autoShapes: shapes } }); }

  // "e1h1" or "e1g1" as the board gave it: the server's form (e1g1).
  private toUci(from: string, to: string, promotion = ''): string {
    const piece = this.pos.board.get(parseSquare(from)!);
    let dest = to;
    if (piece?.role === 'king') {
      const target = this.pos.board.get(parseSquare(to)!);
      const df = to.charCodeAt(0) - from.charCodeAt(0);
      if ((target?.role === 'rook' && target.color === piece.color) || Math.abs(df) > 1) dest = `${df > 0 ? 'g' : 'c'}${from[1]}`;
    }
    return from + dest + promotion;
  }

  // A move by board or box; a pawn to the last rank without its piece asks which.
  private fromUser(from: string, to: string, promotion = '') {
    const mover = this.mover;
    if (!mover) return;
    const piece = this.pos.board.get(parseSquare(from)!);
    if (piece?.role === 'pawn' && isLastRank(to) && !promotion) {
      void this.promotion.choose(to, piece.color, this.orientation).then((p) => {
        if (p && this.mover === mover) this.submit(this.toUci(from, to, p));
        else this.restore(); // cancelled: the pawn goes back
      });
      return;
    }
    this.submit(this.toUci(from, to, promotion));
  }

  // The board as the position stands (after a move the board ran ahead with).
  private restore() {
    const last = this.played[this.played.length - 1];
    this.board.set({ fen: this.fen(), turnColor: this.pos.turn, lastMove: last ? [last.uci.slice(0, 2), last.uci.slice(2, 4)] as Key[] : undefined,
      check: this.pos.isCheck() ? this.pos.turn : false });
    this.allow(this.mover);
  }

  private submit(uci: string) {
    const m = parseUci(uci);
    if (!m || !('from' in m) || !this.pos.isLegal(normalizeMove(this.pos, m) as NormalMove)) {
      announce(t('err_illegal_move'));
      this.restore();
      return;
    }
    this.allow(null);
    this.onUserMove(uci);
  }

  private typed() {
    if (!this.mover) return;
    const legal: Record<string, string[]> = {};
    for (const [from, tos] of chessgroundDests(this.pos)) legal[from] = tos;
    const read = readTyped(this.input.value, this.fen(), legal);
    this.input.value = '';
    if (!read) return;
    if (read.kind === 'command') { announce(positionByRank(this.fen(), this.orientation)); return; }
    let uci = read.move.uci;
    if (!uci && read.move.san) {
      const san = read.move.san;
      const m = parseSan(this.pos, san);
      // "f8" or "fxg8" names no piece: the move is found as if it did, and the chooser asks.
      const bare = !m && /^([a-h]x)?[a-h][18][+#]?$/.test(san) ? parseSan(this.pos, `${san.replace(/[+#]$/, '')}=Q`) : undefined;
      if (m && 'from' in m) uci = makeSquare(m.from) + makeSquare(m.to) + (m.promotion ? m.promotion[0] === 'k' ? 'n' : m.promotion[0] : '');
      else if (bare && 'from' in bare) uci = makeSquare(bare.from) + makeSquare(bare.to);
    }
    if (!uci || !isKey(uci.slice(0, 2)) || !isKey(uci.slice(2, 4))) { announce(t('err_illegal_move')); return; }
    this.fromUser(uci.slice(0, 2), uci.slice(2, 4), uci.slice(4));
  }

  destroy() {
    this.promotion.cancel();
    this.kb.destroy();
    this.board.destroy();
  }
}

// SAN of a line of UCI moves from a FEN (a solution or an engine line as the player reads it).
export class TrainerSan {
  private pos: Chess;
  constructor(fen: string, before: string[] = []) {
    const s = parseFen(fen);
    this.pos = s.isOk ? Chess.fromSetup(s.value).unwrap() : Chess.default();
    for (const m of before) this.san(m);
  }
  fen(): string { return makeFen(this.pos.toSetup()); }
  san(uci: string): string {
    const m = parseUci(uci);
    if (!m || !('from' in m)) return uci;
    const move = normalizeMove(this.pos, m) as NormalMove;
    if (!this.pos.isLegal(move)) return uci;
    const s = makeSan(this.pos, move);
    this.pos.play(move);
    return s;
  }
}
