// Move text for display (P17, R17): localised piece letters or figurines.
import { settings } from './settings';
import { pieceLetters } from './i18n';

const FIG_W: Record<string, string> = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘' };
const FIG_B: Record<string, string> = { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞' };

export function displaySan(san: string, white: boolean): string {
  if (settings.figurine) {
    const fig = white ? FIG_W : FIG_B;
    return san.replace(/[KQRBN]/g, (c) => fig[c]);
  }
  const letters = pieceLetters();
  if (!letters) return san;
  return san.replace(/[KQRBN]/g, (c) => letters[c] ?? c);
}

// Move number and side of the first move, from the initial FEN.
export function startOf(initialFen: string): { number: number; blackFirst: boolean } {
  const parts = initialFen.split(' ');
  return { number: parseInt(parts[5] ?? '1', 10) || 1, blackFirst: parts[1] === 'b' };
}
