// The move box (P14, P16): moves typed as SAN or coordinates ("Nf3", "g1f3",
// "0-0"), and commands that announce the position: /board, /clock, /last, a square
// (/e4) or a piece letter (/N, /n).
import { t } from '../i18n';
import { typedMove } from '../notation';
import { makePiece, parseBoardFen } from 'chessops/fen';
import { makeSquare } from 'chessops/util';
import { describeMove, pieceWords, roleWord } from '../speech';
import type { Color, GameState, MoveText } from '../types';

export type Typed = { kind: 'command'; text: string } | { kind: 'move'; move: MoveText } | null;

// A move that is not coordinates is read by typedMove (R17, P14, P17): the UI
// language's piece letters, English letters, figurines, kept when one legal move.
export function readTyped(raw: string, fen: string, legal: Record<string, string[]> | null | undefined): Typed {
  const text = raw.trim();
  if (!text) return null;
  if (text.startsWith('/')) return { kind: 'command', text: text.slice(1).trim() };
  const compact = text.replace(/[-\s]/g, '').toLowerCase();
  if (/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(compact)) return { kind: 'move', move: { uci: compact } };
  const m = typedMove(text.replace(/^0-0-0/, 'O-O-O').replace(/^0-0/, 'O-O'), fen, legal ?? null);
  return { kind: 'move', move: m.uci ? { uci: m.uci } : { san: m.san } };
}

// Square -> FEN letter of the piece on it, from a FEN's placement.
export function placement(fen: string): Map<string, string> {
  const out = new Map<string, string>();
  const board = parseBoardFen(fen.split(' ')[0]);
  if (board.isErr) return out;
  for (const [sq, piece] of board.value) out.set(makeSquare(sq), makePiece(piece));
  return out;
}

const ORDER = 'KQRBNP';

export interface CommandContext {
  state: GameState;
  remaining(c: Color): number;
  sideOfPly(i: number): Color;
}

// The words to announce for a command, or null when the command is unknown.
export function commandText(c: string, ctx: CommandContext): string | null {
  const s = ctx.state;
  const pieces = placement(s.fen);
  if (/^clocks?$/i.test(c)) {
    return (['white', 'black'] as const).map((side) => {
      const ms = Math.max(0, ctx.remaining(side));
      return t('sayClockOf', { side: t(side), min: Math.floor(ms / 60000), sec: Math.floor((ms % 60000) / 1000) });
    }).join(', ');
  }
  if (/^last$/i.test(c)) {
    const n = s.san.length;
    const from = Math.max(0, n - 4);
    return s.san.slice(from).map((san, k) => describeMove(s.moves[from + k], san, ctx.sideOfPly(from + k) === 'white')).join('. ') || t('noMoves');
  }
  if (/^(board|position)$/i.test(c)) {
    return (['white', 'black'] as const).map((color) => {
      const list = [...pieces].filter(([, p]) => (p === p.toUpperCase()) === (color === 'white'))
        .sort((a, b) => ORDER.indexOf(a[1].toUpperCase()) - ORDER.indexOf(b[1].toUpperCase()))
        .map(([sq, p]) => `${roleWord(p)} ${sq}`);
      return `${t(color)}: ${list.join(', ')}`;
    }).join('. ');
  }
  if (/^[a-h][1-8]$/i.test(c)) {
    const p = pieces.get(c.toLowerCase());
    return `${c.toLowerCase()}: ${p ? pieceWords(p) : t('emptySquare')}`;
  }
  if (/^[KQRBNPkqrbnp]$/.test(c)) {
    const sqs = [...pieces].filter(([, p]) => p === c).map(([sq]) => sq);
    return `${pieceWords(c)}: ${sqs.join(', ') || t('none')}`;
  }
  return null;
}
