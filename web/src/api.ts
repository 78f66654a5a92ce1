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

export async function fetchLevels(): Promise<Level[]> {
  const r = await json<{ levels: Level[] }>(await fetch('/api/v1/levels'));
  return r.levels;
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

export type SocketStatus = 'connecting' | 'open' | 'closed';

export interface SocketHandlers {
  state(s: GameState): void;
  error(code: string, message: string): void;
  status(s: SocketStatus): void;
  lag?(rttMs: number): void;
}

// One game's WebSocket, reconnecting with backoff after a drop until closed.
export class GameSocket {
  private ws: WebSocket | null = null;
  private closed = false;
  private retry = 0;
  private pingTimer = 0;
  private pingSent = 0;
  private reconnectTimer = 0;
  private last: GameState | null = null; // the state as of the last message

  constructor(private game: string, private seat: string | null, private h: SocketHandlers) {
    this.connect();
  }

  private url(): string {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = new URLSearchParams({ game: this.game });
    if (this.seat) q.set('seat', this.seat);
    return `${proto}//${location.host}/api/v1/ws?${q}`;
  }

  private connect() {
    if (this.closed) return;
    this.h.status('connecting');
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.h.status('open');
      this.ping();
      window.clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => this.ping(), 10000);
    };
    ws.onmessage = (ev) => {
      let m: any;
      try { m = JSON.parse(String(ev.data)); } catch { return; }
      if (m.t === 'state' && m.game) {
        this.last = m.game as GameState;
        this.h.state(this.last);
      } else if (m.t === 'move' && m.game) {
        // One move and what it changed (docs/protocol.md). A gap means a message was
        // missed: ask for the whole state again.
        const prev = this.last;
        if (!prev || m.game.ply !== prev.ply + 1) {
          this.send({ t: 'sync' });
          return;
        }
        const { uci, san, ...changed } = m.game;
        const next: GameState = { ...prev, ...changed, moves: [...prev.moves, uci], san: [...prev.san, san] };
        this.last = next;
        this.h.state(next);
      } else if (m.t === 'error') this.h.error(m.code, m.message);
      else if (m.t === 'pong' && this.pingSent) { this.h.lag?.(performance.now() - this.pingSent); this.pingSent = 0; }
    };
    ws.onclose = () => {
      window.clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      this.h.status('closed');
      if (this.closed) return;
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      this.reconnectTimer = window.setTimeout(() => this.connect(), delay);
    };
  }

  private ping() {
    if (this.pingSent) return; // the previous one is still unanswered
    this.pingSent = performance.now();
    this.send({ t: 'ping' });
  }

  // Reconnect now (e.g. the page became visible again or the network came back).
  kick() {
    if (this.closed || this.ws) return;
    window.clearTimeout(this.reconnectTimer);
    this.retry = 0;
    this.connect();
  }

  get open() { return this.ws?.readyState === WebSocket.OPEN; }

  send(msg: Record<string, unknown>): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ v: 1, ...msg }));
    return true;
  }

  close() {
    this.closed = true;
    window.clearInterval(this.pingTimer);
    window.clearTimeout(this.reconnectTimer);
    this.ws?.close();
    this.ws = null;
  }
}
