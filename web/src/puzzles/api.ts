// The puzzles' routes (docs/protocol.md, "Puzzles"; issue 29) and learn from your
// mistakes. The server checks every move: this module only carries them.
import { ApiError } from '../api';

export interface Puzzle {
  id: string; fen: string; opponent_move: string; color: 'white' | 'black'; steps: number;
  themes: string[]; rating: number; plays: number; game_url: string;
}
export interface PuzzleRating { rating: number; rd: number; provisional: boolean; attempts: number; before?: number; diff?: number }
export interface PuzzleAnswer { puzzle: Puzzle; rating: PuzzleRating | null }
export interface AttemptAnswer {
  status: 'continue' | 'solved' | 'failed';
  reply?: string; solution?: string[]; wrong_step?: number; rated?: boolean; rating?: PuzzleRating | null;
}
export interface HintAnswer { from: string; to: string; rated: boolean; rating: PuzzleRating | null }
export interface ThemeCount { theme: string; count: number }
export interface HistoryEntry {
  id: number; puzzle: string; at: number; solved: boolean; rated: boolean;
  rating_before: number; rating_after: number; puzzle_rating: number;
}

async function call<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, body === undefined ? { credentials: 'same-origin' } : {
    method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: 1, ...body as object }),
  });
  let j: { code?: string; message?: string; t?: string };
  try { j = await res.json(); } catch { throw new ApiError('bad_response', `${res.status}`); }
  if (!res.ok || j.t === 'error') throw new ApiError(j.code ?? 'http', j.message ?? `${res.status}`);
  return j as T;
}

const enc = encodeURIComponent;
export const nextPuzzle = (theme: string, skip: string[]) =>
  call<PuzzleAnswer>(`/api/v1/puzzles/next?${new URLSearchParams({ ...(theme ? { theme } : {}), ...(skip.length ? { skip: skip.join(',') } : {}) })}`);
export const fetchPuzzle = (id: string) => call<PuzzleAnswer>(`/api/v1/puzzles/${enc(id)}`);
export const sendAttempt = (id: string, moves: string[], giveUp = false) =>
  call<AttemptAnswer>(`/api/v1/puzzles/${enc(id)}/attempt`, giveUp ? { moves, give_up: true } : { moves });
export const askHint = (id: string, moves: string[]) => call<HintAnswer>(`/api/v1/puzzles/${enc(id)}/hint`, { moves });
export const fetchThemes = () => call<{ themes: ThemeCount[]; total: number }>('/api/v1/puzzles/themes');
export const fetchHistory = () => call<{ rating: PuzzleRating | null; history: HistoryEntry[] }>('/api/v1/puzzles/history?limit=50');

export interface MistakeAnswer {
  accepted: boolean; uci: string; san: string; eval: { cp?: number; mate?: number };
  best_eval: { cp?: number; mate?: number }; best: { uci: string; san: string } | null; line: string[]; line_san: string[];
}
export const tryBetterMove = (game: string, ply: number, uci: string) =>
  call<MistakeAnswer>(`/api/v1/games/${enc(game)}/mistakes`, { ply, uci });

// The puzzles this browser was given lately (not given again to a guest).
const RECENT = 'outpost.puzzles.recent';
export function recentPuzzles(): string[] {
  try { const v: unknown = JSON.parse(localStorage.getItem(RECENT) ?? '[]'); return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(-50) : []; } catch { return []; }
}
export function rememberPuzzle(id: string) {
  try { localStorage.setItem(RECENT, JSON.stringify([...recentPuzzles().filter((x) => x !== id), id].slice(-50))); } catch { /* private mode */ }
}
