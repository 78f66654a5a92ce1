// Protocol v1 (docs/protocol.md): the shapes the server sends and accepts.
export type Color = 'white' | 'black';
export type Seat = Color | 'both' | 'spectator';

export interface ClockState {
  white_ms: number;
  black_ms: number;
  running: Color | null;
  delay_ms?: number; // what is left of the running side's simple delay, as the server counts it
  server_time: number;
  time_control: string;
  class: string;
}

export interface PlayerInfo {
  kind: 'human' | 'robot';
  name?: string;
  account?: string | null; // P21: the seat's account (its name), null when anonymous
  level?: number;
  elo?: number;
  rating?: number;       // P23: once a rated game is over, the rating before it
  provisional?: boolean; // ... provisional (shown "1500?")
  rating_diff?: number;  // ... and its change
}

export interface GameState {
  id: string;
  variant: 'standard' | 'chess960';
  chess960?: number;
  initial_fen: string;
  fen: string;
  turn: Color;
  ply: number;
  pgn_plies?: number; // the first plies, from the PGN the game started from: nobody's moves
  moves: string[];
  san: string[];
  last_move: string | null;
  check: string | null;
  legal?: Record<string, string[]>;
  status: string;
  result: string;
  winner: Color | null;
  end: string;
  arbiter_reason?: string; // SPEC D9: the arbiter's words when an admin ended the game
  claimable: string[];
  draw_offer: Color | null;
  takeback_request: Color | null;
  can_abort: boolean;
  awaiting_friend?: boolean; // an invitation whose friend has not opened the link yet
  clock: ClockState | null;
  players: { white: PlayerInfo; black: PlayerInfo };
  you: Seat;
  rematch?: { offered_by: Color | null; game: string | null; seat: string | null } | null;
  presence?: Presence;
  rated?: boolean;                 // P23: the game counts for ratings
  adjournable?: boolean;           // R18: created with the adjournment option
  adjournment?: Adjournment | null;
}

// R18/P19 (docs/protocol.md, "Adjournment"): times are UTC ISO texts; the sealed
// move only once the game has resumed.
export interface Adjournment {
  sealed_by: Color;
  move_number: number;
  sealed_at: string;
  resume_at: string | null;
  proposal: { by: Color; at: string } | null;
  resumed_at: string | null;
  sealed_move: string | null;
  white_ms: number;
  black_ms: number;
}

// P22: each seat's connection state; gone_ms while gone; claim_in_ms: when the player
// present may claim the game as abandoned (0: now; null: no claim coming).
export interface SeatPresence { state: 'online' | 'away' | 'gone'; gone_ms?: number }
export interface Presence { white: SeatPresence; black: SeatPresence; claim_in_ms: number | null }

// elo: measured when `measured`, else the design target (0: not known); error: the 95% margin.
export interface Level { level: number; elo: number; label: string; measured: boolean; error?: number; games?: number }

export interface NewGameRequest {
  v: 1;
  opponent: 'robot' | 'hotseat' | 'invite';
  color: Color | 'random';
  level?: number;
  elo?: number;
  time_control: string;
  variant: 'standard' | 'chess960';
  chess960?: number;
  fen?: string;
  pgn?: string;
  casual: boolean;
  name?: string;
  opponent_name?: string; // hotseat: the name of the player of the other colour
  days_per_move?: number;  // C3: 1-14 (or time_control "Nd")
  adjournment?: boolean;   // R18/P19
  robot_instant?: boolean; // the robot moves at once (no human thinking time)
}

export interface NewGameResponse {
  v: 1;
  game: string;
  seats: { white?: string; black?: string };
  you: Color | 'both';
}

// SUMMARY (docs/protocol.md) names the move count `moves`; servers before the
// rebuild sent `plies` (-1: not known). Read both, prefer `moves` (movesOf in games.ts).
export interface GameSummary {
  id: string;
  white: string;
  black: string;
  status: string;
  result: string;
  moves?: number;     // docs/protocol.md's SUMMARY
  plies?: number;     // what the server sends (-1 when the game is not loaded)
  updated: number | string;
  you: Seat;
  time_control?: string;
  turn?: Color | null;   // C3: whose move (null when over)
  deadline?: number;     // C3: when the running flag falls (ms since 1970; 0: none)
  adjourned?: boolean;   // R18
}

export interface ServerError { v: 1; t: 'error'; code: string; message: string }

// WebSocket messages (docs/protocol.md, "Client to server"), one case each.
export type DrawAction = 'offer' | 'accept' | 'decline';
export type TakebackAction = 'request' | 'accept' | 'decline';
export type Claim = 'threefold-repetition' | 'fifty-moves';
export type AbandonmentClaim = 'abandonment-win' | 'abandonment-draw';
export interface MoveText { uci?: string; san?: string }

export type ClientMessage =
  | ({ t: 'move'; ply: number; lag_ms?: number } & MoveText)
  | ({ t: 'claim'; claim: Claim } & MoveText)
  | { t: 'resign' }
  | { t: 'abort' }
  | { t: 'draw'; action: DrawAction }
  | { t: 'takeback'; action: TakebackAction }
  | { t: 'give_time'; seconds: number }
  | { t: 'rematch'; action: 'offer' | 'accept' }
  | { t: 'claim'; claim: AbandonmentClaim }
  | { t: 'presence'; state: 'away' | 'online' }
  | { t: 'ping' }
  | { t: 'sync' }
  | { t: 'seal'; move: string }
  | { t: 'resume'; at: string }
  | { t: 'resume'; action: 'accept' }
  | { t: 'name'; name: string };

// MOVE carries the move and the fields of STATE that a move changes.
export type MoveDelta = Partial<Omit<GameState, 'moves' | 'san' | 'you' | 'rematch'>> & { ply: number; uci: string; san: string };

// Server to client: `state`, `move`, `pong`, `error`.
export type ServerMessage =
  | { t: 'state'; game: GameState }
  | { t: 'move'; game: MoveDelta }
  | { t: 'presence'; game: { id: string; presence: Presence } }
  | { t: 'pong'; server_time?: number }
  | { t: 'error'; code: string; message: string };
