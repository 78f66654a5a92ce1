// HTTP and WebSocket access to `outpost serve` (protocol v1). The server is the
// authority: this module only carries messages; nothing here decides chess.
import type { GameState, GameSummary, Level, NewGameRequest, NewGameResponse, ServerError } from './types';

export class ApiError extends Error {
  constructor(public code: string, message: string) { super(message); }
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown;
  try { body = JSON.parse(text); } catch { throw new ApiError('bad_response', `${res.status} ${res.statusText}`); }
  const err = body as ServerError;
  if (!res.ok || err?.t === 'error') throw new ApiError(err?.code ?? 'http', err?.message ?? `${res.status}`);
  return body as T;
}

// The robot's levels and the custom Elo range (elo_min/elo_max; older servers
// send no range: undefined, the caller falls back).
export async function fetchLevels(): Promise<{ levels: Level[]; eloMin?: number; eloMax?: number }> {
  const r = await json<{ levels: Level[]; elo_min?: unknown; elo_max?: unknown }>(await fetch('/api/v1/levels'));
  const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
  return { levels: r.levels, eloMin: n(r.elo_min), eloMax: n(r.elo_max) };
}

export async function createGame(req: NewGameRequest): Promise<NewGameResponse> {
  return json(await fetch('/api/v1/games', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(req),
  }));
}

export async function fetchGame(id: string): Promise<GameState> {
  const r = await json<{ game: GameState }>(await fetch(`/api/v1/games/${encodeURIComponent(id)}`));
  return r.game;
}

export async function lookupGames(tokens: string[]): Promise<GameSummary[]> {
  if (tokens.length === 0) return [];
  const r = await json<{ games: GameSummary[] }>(await fetch('/api/v1/games/lookup', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: 1, tokens }),
  }));
  return r.games;
}

export const pgnUrl = (id: string) => `/api/v1/games/${encodeURIComponent(id)}/pgn`;
