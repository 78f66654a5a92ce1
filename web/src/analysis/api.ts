// The analysis of a finished game (docs/protocol.md, "Analysis"): ask for it, poll it.
import { ApiError } from '../api';

export type Mark = 'inaccuracy' | 'mistake' | 'blunder';
export const MARKS: Mark[] = ['inaccuracy', 'mistake', 'blunder'];
// The marks' glyphs (as PGN's NAGs $6, $2, $4 print) and colours.
export const GLYPH: Record<Mark, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };
export const COLOUR: Record<Mark, string> = { inaccuracy: '#3c9ad6', mistake: '#e08a00', blunder: '#d23c3c' };
export interface Eval { cp?: number; mate?: number; winner?: 'white' | 'black' }
export interface MoveAnalysis {
  ply: number; color: 'white' | 'black'; uci: string; san: string; eval: Eval;
  mark: Mark | null; best_uci?: string; best_san?: string; was_best: boolean; accuracy: number | null;
}
export interface SideCounts { inaccuracy: number; mistake: number; blunder: number }
export interface GameAnalysis {
  settings: string;
  opening: { eco: string; name: string } | null;
  accuracy: { white: number | null; black: number | null };
  marks: { white: SideCounts; black: SideCounts };
  evals: Eval[];
  moves: MoveAnalysis[];
}
export interface AnalysisStatus {
  status: 'queued' | 'running' | 'done' | 'failed';
  queue_position?: number; done?: number; total?: number; error?: string;
  analysis?: GameAnalysis;
}

const url = (id: string) => `/api/v1/games/${encodeURIComponent(id)}/analysis`;

async function read(res: Response): Promise<AnalysisStatus | null> {
  if (res.status === 404) return null;
  let body: unknown;
  try { body = await res.json(); } catch { throw new ApiError('bad_response', `${res.status}`); }
  const b = body as { t?: string; code?: string; message?: string } & AnalysisStatus;
  if (!res.ok || b.t === 'error') throw new ApiError(b.code ?? 'http', b.message ?? `${res.status}`);
  return b;
}

// Null when nobody has asked for an analysis of this game.
export async function fetchAnalysis(id: string): Promise<AnalysisStatus | null> {
  return read(await fetch(url(id)));
}

export async function requestAnalysis(id: string): Promise<AnalysisStatus> {
  const r = await read(await fetch(url(id), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: 1 }),
  }));
  if (!r) throw new ApiError('not_found', 'no such game');
  return r;
}

// "+0.35", "−1.20", "#3", "#−2"; nothing after a checkmate (the move says it).
export function evalText(e: Eval): string {
  if (e.mate !== undefined) return e.mate === 0 ? '' : `#${e.mate < 0 ? '−' : ''}${Math.abs(e.mate)}`;
  const p = (e.cp ?? 0) / 100;
  return `${p > 0 ? '+' : p < 0 ? '−' : ''}${Math.abs(p).toFixed(2)}`;
}
