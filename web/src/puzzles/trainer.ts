// A board to train on (issue 29: puzzles, learn from your mistakes): chessground with
// the legal moves of the position (chessops), played by mouse, touch, the keyboard
// board (keyboardboard.ts) or typed in the move box (SAN or coordinates, in the UI's
// piece letters, as the game screen reads them), each move said in words for the
// screen reader (speech.ts). The page decides what a move means; this file only
// turns it into UCI as the server writes it (castling e1g1).
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
import { announce, describeMove } from '../speech';

export type Side = 'white' | 'black';

export class TrainerBoard {
  readonly el: HTMLElement;
  readonly input: HTMLInputElement;
  readonly board: Board;
  private readonly kb: KeyboardBoard;
  pos: Chess = Chess.default();
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
    this.board.onMove = (m) => this.fromBoard(m.from, m.to);
    this.kb = new KeyboardBoard(wrap, this.board);
  }

  fen(): string { return makeFen(this.pos.toSetup()); }

  // A new position (no animation), seen from `orientation`.
  setPosition(fen: string, orientation: Side) {
    const setup = parseFen(fen);
    this.pos = setup.isOk ? Chess.fromSetup(setup.value).unwrap() : Chess.default();
    this.orientation = orientation;
    this.mover = null;
    this.board.set({ fen: this.fen(), orientation, lastMove: undefined, turnColor: this.pos.turn, check: this.pos.isCheck() ? this.pos.turn : false,
      movable: { color: undefined, dests: new Map() }, drawable: { autoShapes: [] } });
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
    this.board.set({ fen: this.fen(), lastMove: [uci.slice(0, 2) as Key, uci.slice(2, 4) as Key], turnColor: this.pos.turn,
      check: this.pos.isCheck() ? this.pos.turn : false, drawable: { autoShapes: [] } });
    this.allow(this.mover);
    if (say) announce(describeMove(uci, san, whiteMoved));
    return san;
  }

  // Lets `side` move (when it is its turn), or nobody.
  allow(side: Side | null) {
    this.mover = side;
    const on = side !== null && this.pos.turn === side;
    this.board.set({ movable: { color: on ? side : undefined, dests: on ? chessgroundDests(this.pos) : new Map() } });
    this.input.disabled = !on;
  }

  shapes(shapes: DrawShape[]) { this.board.set({ drawable: { autoShapes: shapes } }); }

  // "e1h1" or "e1g1" as the board gave it: the server's form (e1g1); a pawn on the last
  // rank becomes a queen (typed moves choose: e7e8n, e8=N).
  private toUci(from: string, to: string, promotion = ''): string {
    const piece = this.pos.board.get(parseSquare(from)!);
    let dest = to;
    if (piece?.role === 'king') {
      const target = this.pos.board.get(parseSquare(to)!);
      const df = to.charCodeAt(0) - from.charCodeAt(0);
      if ((target?.role === 'rook' && target.color === piece.color) || Math.abs(df) > 1) dest = `${df > 0 ? 'g' : 'c'}${from[1]}`;
    }
    if (piece?.role === 'pawn' && (to[1] === '8' || to[1] === '1') && !promotion) promotion = 'q';
    return from + dest + promotion;
  }

  private fromBoard(from: string, to: string) {
    if (!this.mover) return;
    this.submit(this.toUci(from, to));
  }

  private submit(uci: string) {
    const m = parseUci(uci);
    if (!m || !('from' in m) || !this.pos.isLegal(normalizeMove(this.pos, m) as NormalMove)) {
      announce(t('err_illegal_move'));
      this.board.set({ fen: this.fen() });
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
      const m = parseSan(this.pos, read.move.san);
      if (m && 'from' in m) uci = makeSquare(m.from) + makeSquare(m.to) + (m.promotion ? m.promotion[0] === 'k' ? 'n' : m.promotion[0] : '');
    }
    if (!uci || !isKey(uci.slice(0, 2)) || !isKey(uci.slice(2, 4))) { announce(t('err_illegal_move')); return; }
    this.submit(this.toUci(uci.slice(0, 2), uci.slice(2, 4), uci.slice(4)));
  }

  destroy() {
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
