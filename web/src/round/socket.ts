// One game's WebSocket (protocol v1, docs/protocol.md): typed messages in and out,
// MOVE deltas applied to the last STATE, reconnection with backoff after a drop.
// The server is the authority: this module only carries messages.
import type { ClientMessage, GameState, MoveDelta, Presence, ServerMessage } from '../types';
import { sessionEnded } from '../account';

export type SocketStatus = 'connecting' | 'open' | 'closed';

export interface SocketHandlers {
  state(s: GameState): void;
  error(code: string, message: string): void;
  status(s: SocketStatus): void;
  lag(rttMs: number): void;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// Reads one message; null for anything that is not a message of protocol v1. The
// shape of `game` is the server's word (it is the authority); only its presence and
// the fields this client indexes by are checked.
export function readMessage(text: string): ServerMessage | null {
  let m: unknown;
  try { m = JSON.parse(text); } catch { return null; }
  if (!isObject(m)) return null;
  switch (m.t) {
    case 'state':
      return isObject(m.game) && typeof m.game.ply === 'number' ? { t: 'state', game: m.game as unknown as GameState } : null;
    case 'move':
      return isObject(m.game) && typeof m.game.ply === 'number' && typeof m.game.uci === 'string' && typeof m.game.san === 'string'
        ? { t: 'move', game: m.game as unknown as MoveDelta } : null;
    case 'presence':
      return isObject(m.game) && isObject(m.game.presence) ? { t: 'presence', game: m.game as unknown as { id: string; presence: Presence } } : null;
    case 'pong':
      return { t: 'pong', server_time: typeof m.server_time === 'number' ? m.server_time : undefined };
    case 'error':
      return { t: 'error', code: String(m.code ?? 'error'), message: String(m.message ?? '') };
    default:
      return null;
  }
}

// The state after a MOVE, or null when it does not follow `prev` (a message was
// missed: the caller asks for the whole state again).
export function applyMove(prev: GameState | null, d: MoveDelta): GameState | null {
  if (!prev || d.ply !== prev.ply + 1) return null;
  const { uci, san, ...changed } = d;
  return { ...prev, ...changed, moves: [...prev.moves, uci], san: [...prev.san, san] };
}

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
    ws.onmessage = (ev) => this.receive(readMessage(String(ev.data)));
    ws.onclose = (ev) => {
      sessionEnded(ev);
      window.clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      this.h.status('closed');
      if (this.closed) return;
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      this.reconnectTimer = window.setTimeout(() => this.connect(), delay);
    };
  }

  private receive(m: ServerMessage | null) {
    if (!m) return;
    switch (m.t) {
      case 'state':
        this.last = m.game;
        this.h.state(m.game);
        break;
      case 'move': {
        const next = applyMove(this.last, m.game);
        if (!next) { this.send({ t: 'sync' }); return; }
        this.last = next;
        this.h.state(next);
        break;
      }
      case 'presence': // P22: folded into the state like a move
        if (!this.last) return;
        this.last = { ...this.last, presence: m.game.presence };
        this.h.state(this.last);
        break;
      case 'error':
        this.h.error(m.code, m.message);
        break;
      case 'pong':
        if (this.pingSent) { this.h.lag(performance.now() - this.pingSent); this.pingSent = 0; }
        break;
    }
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

  send(msg: ClientMessage): boolean {
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
