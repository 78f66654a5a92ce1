// Move text for display (P17, R17): localised piece letters or figurines.
import { settings } from './settings';
import { currentLang, pieceLetters } from './i18n';
import { resolveTyped, toFigurineSan, toLocalSan } from './locale/san';

export function displaySan(san: string, white: boolean): string {
  if (settings.figurine) return toFigurineSan(san, white);
  return toLocalSan(san, pieceLetters());
}

// The move box (P14, P17): what a player typed, in the UI language's letters,
// English letters or figurines, as the SAN (and, when it is one legal move, the UCI)
// to send. `legal` and `fen` come from the last state.
export function typedMove(text: string, fen: string, legal: Record<string, string[]> | null | undefined): { san: string; uci?: string } {
  return resolveTyped(text, currentLang(), fen, legal);
}

// Move number and side of the first move, from the initial FEN.
export function startOf(initialFen: string): { number: number; blackFirst: boolean } {
  const parts = initialFen.split(' ');
  return { number: parseInt(parts[5] ?? '1', 10) || 1, blackFirst: parts[1] === 'b' };
}
