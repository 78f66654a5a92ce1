// A stand-in for `outpost serve` that speaks protocol v1 (docs/protocol.md) well
// enough for the browser tests, and serves web/dist. The rules here come from
// chessops and exist for the tests only: the real rules are Outpost's C++.
//
//   node tests/mock-server.mjs [port]     (default 8080; serves ../dist)
// SPDX-License-Identifier: GPL-3.0-or-later
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { Chess } from 'chessops/chess';
import { parseFen, makeFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { parseUci, makeSquare, parseSquare, opposite } from 'chessops/util';
import { chessgroundDests } from 'chessops/compat';
import { parsePgn } from 'chessops/pgn';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const LEVEL_ELO = [800, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500, 2850];
const LEVEL_LABEL = ['Just learned the moves', 'Beginner', 'Casual', 'Club novice', 'Club player', 'Strong club player',
  'Expert', 'Candidate master', 'Master', 'Full strength'];
const STATUS_END = {
  checkmate: (w) => `${w} wins by checkmate`, resignation: (w, l) => `${w} wins: ${l} resigned`,
  timeout: (w) => `${w} wins on time`, stalemate: () => 'Draw by stalemate',
  'dead-position': () => 'Draw: dead position, neither side can checkmate',
  'fivefold-repetition': () => 'Draw by fivefold repetition', 'seventy-five-moves': () => 'Draw by the seventy-five-move rule',
  'threefold-repetition': () => 'Draw by threefold repetition', 'fifty-moves': () => 'Draw by the fifty-move rule',
  agreement: () => 'Draw by agreement', 'timeout-draw': () => 'Draw: time ran out, but the opponent could not checkmate',
  aborted: () => 'Game aborted',
};
const cap = (c) => (c === 'white' ? 'White' : 'Black');
const token = () => crypto.randomBytes(12).toString('base64url');
const gameId = () => crypto.randomBytes(6).toString('base64url').replace(/[-_]/g, 'x');

class ProtocolError extends Error {
  constructor(code, message, status = 400) { super(message); this.code = code; this.status = status; }
}

// ---- chess helpers (mock only) ---------------------------------------------

function chess960Fen(n) {
  const r = Array(8).fill(null);
  let q = n;
  r[(q % 4) * 2 + 1] = 'b'; q = Math.floor(q / 4);
  r[(q % 4) * 2] = 'b'; q = Math.floor(q / 4);
  const empties = () => r.map((v, i) => (v ? -1 : i)).filter((i) => i >= 0);
  r[empties()[q % 6]] = 'q'; q = Math.floor(q / 6);
  const KN = [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]][q];
  const e = empties();
  r[e[KN[0]]] = 'n'; r[e[KN[1]]] = 'n';
  const rest = empties();
  r[rest[0]] = 'r'; r[rest[1]] = 'k'; r[rest[2]] = 'r';
  const black = r.join('');
  return `${black}/pppppppp/8/8/8/8/PPPPPPPP/${black.toUpperCase()} w KQkq - 0 1`;
}

const repKey = (pos) => makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');

// The UCI text of a move: standard castling as e1g1, Chess960 as king takes rook.
function moveUci(pos, move, chess960) {
  const from = makeSquare(move.from); let to = makeSquare(move.to);
  const piece = pos.board.get(move.from); const target = pos.board.get(move.to);
  if (!chess960 && piece?.role === 'king' && target?.role === 'rook' && target.color === piece.color) {
    to = `${move.to > move.from ? 'g' : 'c'}${from[1]}`;
  }
  return from + to + (move.promotion ? { queen: 'q', rook: 'r', bishop: 'b', knight: 'n' }[move.promotion] : '');
}

function legalMap(pos, chess960) {
  const out = {};
  for (const [from, tos] of chessgroundDests(pos, { chess960 })) {
    const list = tos.filter((to) => {
      if (chess960) return true;
      const p = pos.board.get(parseSquare(from)); const tgt = pos.board.get(parseSquare(to));
      return !(p?.role === 'king' && tgt?.role === 'rook' && tgt.color === p.color);
    });
    if (list.length) out[from] = list;
  }
  return out;
}

function parseClientMove(pos, { uci, san }, chess960) {
  let move;
  if (typeof uci === 'string' && uci) {
    move = parseUci(uci);
    if (!move || !('from' in move)) throw new ProtocolError('bad_request', `not a UCI move: '${uci}'`);
    const piece = pos.board.get(move.from);
    if (!chess960 && piece?.role === 'king' && Math.abs(move.to - move.from) === 2) {
      move = { from: move.from, to: move.to > move.from ? move.from + 3 : move.from - 4 }; // king takes rook internally
    }
    if (piece?.role === 'pawn' && !move.promotion && (move.to >> 3 === 7 || move.to >> 3 === 0)) {
      throw new ProtocolError('illegal_move', `illegal move '${uci}': a promotion needs the piece (e.g. ${uci}q)`);
    }
  } else if (typeof san === 'string' && san) {
    move = parseSan(pos, san.replace(/^0-0-0/, 'O-O-O').replace(/^0-0/, 'O-O'));
    if (!move) throw new ProtocolError('illegal_move', `illegal move '${san}' in this position`);
  } else throw new ProtocolError('bad_request', 'a move needs uci or san');
  if (!pos.isLegal(move)) throw new ProtocolError('illegal_move', `illegal move '${uci ?? san}' in this position`);
  return move;
}

function parseTc(tc) {
  if (tc === '-' || tc === undefined) return { kind: 'unlimited', ms: 0, inc: 0, cls: 'unlimited', text: '-' };
  let m = /^(\d+)d(?:\/(\d+)d)?$/.exec(tc);
  if (m) return { kind: 'days', ms: +m[1] * 86400_000, inc: 0, perMove: +m[1] * 86400_000, cls: 'correspondence', text: tc };
  let ms; let inc = 0;
  m = /^(\d+(?:\.\d+)?)(?:\+(\d+)([db])?)?$/.exec(tc);
  if (m) { ms = parseFloat(m[1]) * 60000; inc = m[2] ? +m[2] * 1000 : 0; } else {
    m = /^(?:(\d+)\/)?(\d+)(?:\+(\d+)([db])?)?(?::.*)?$/.exec(tc);
    if (!m) throw new ProtocolError('bad_request', `not a time control: '${tc}'`);
    ms = +m[2] * 1000; inc = m[3] ? +m[3] * 1000 : 0;
  }
  if (ms <= 0 && inc <= 0) throw new ProtocolError('bad_request', `not a time control: '${tc}'`);
  const total = ms / 1000 + 60 * inc / 1000;
  const cls = total < 180 ? 'bullet' : total < 900 ? 'blitz' : total < 3600 ? 'rapid' : 'standard';
  return { kind: 'clock', ms, inc, cls, text: tc };
}

// ---- games -----------------------------------------------------------------

export function createMockServer({ distDir = path.join(HERE, '..', 'dist'), robotDelayMs = 150 } = {}) {
  const games = new Map();
  const seats = new Map(); // token -> { game, color: 'white'|'black'|'both' }

  function newGame(req) {
    if (!req || req.v !== 1) throw new ProtocolError('bad_request', 'expected {"v":1,…}');
    const opponent = req.opponent;
    if (!['robot', 'hotseat', 'invite'].includes(opponent)) throw new ProtocolError('bad_request', 'opponent must be robot, hotseat or invite');
    const tc = parseTc(req.time_control ?? '-');
    const variant = req.variant === 'chess960' ? 'chess960' : 'standard';
    let initialFen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    let n960 = null;
    if (variant === 'chess960') {
      n960 = Number.isInteger(req.chess960) ? req.chess960 : Math.floor(Math.random() * 960);
      if (n960 < 0 || n960 > 959) throw new ProtocolError('bad_request', 'chess960 must be 0-959');
      initialFen = chess960Fen(n960);
    }
    if (req.fen) initialFen = req.fen;
    const setup = parseFen(initialFen);
    if (setup.isErr) throw new ProtocolError('bad_request', `bad FEN: ${setup.error.message}`);
    const start = Chess.fromSetup(setup.value);
    if (start.isErr) throw new ProtocolError('bad_request', `bad position: ${start.error.message}`);
    let color = req.color === 'white' || req.color === 'black' ? req.color : Math.random() < 0.5 ? 'white' : 'black';
    const g = {
      id: gameId(), variant, chess960: n960, initialFen, moves: [], san: [], reps: [],
      status: 'ongoing', winner: null, end: '', drawOffer: null, takebackRequest: null,
      opponent, casual: req.casual !== false, tc, created: Date.now(), updated: Date.now(),
      clock: { white_ms: tc.ms, black_ms: tc.ms, running: null, since: 0 },
      players: {}, tokens: {}, clients: new Set(), rematch: { offered_by: null, game: null, seats: null },
      robot: null, request: req,
    };
    g.pos = start.value;
    g.reps.push(repKey(g.pos));
    const human = { kind: 'human', name: req.name || undefined };
    if (opponent === 'robot') {
      const elo = Number.isInteger(req.elo) ? Math.max(800, Math.min(2850, req.elo)) : LEVEL_ELO[(req.level ?? 3) - 1] ?? 1200;
      const level = Number.isInteger(req.elo) ? LEVEL_ELO.findIndex((e) => e >= elo) + 1 || 10 : req.level ?? 3;
      g.robot = opposite(color);
      g.players[color] = human;
      g.players[g.robot] = { kind: 'robot', name: 'Outpost', level, elo };
      const t = token(); g.tokens[color] = t; seats.set(t, { game: g.id, color });
    } else if (opponent === 'hotseat') {
      color = 'both';
      g.players.white = { kind: 'human', name: req.name || undefined };
      g.players.black = { kind: 'human' };
      const t = token(); g.tokens.white = t; g.tokens.black = t; seats.set(t, { game: g.id, color: 'both' });
    } else {
      g.players[color] = human;
      g.players[opposite(color)] = { kind: 'human' };
      for (const c of ['white', 'black']) { const t = token(); g.tokens[c] = t; seats.set(t, { game: g.id, color: c }); }
    }
    // Start from a PGN: play its main line.
    if (req.pgn) {
      const parsed = parsePgn(req.pgn)[0];
      if (!parsed) throw new ProtocolError('bad_request', 'no game in the PGN');
      const fenTag = parsed.headers.get('FEN');
      if (fenTag) {
        const s2 = parseFen(fenTag); if (s2.isErr) throw new ProtocolError('bad_request', 'bad FEN tag in the PGN');
        g.initialFen = fenTag; g.pos = Chess.fromSetup(s2.value).unwrap(); g.reps = [repKey(g.pos)];
      }
      for (const node of parsed.moves.mainline()) {
        const mv = parseSan(g.pos, node.san);
        if (!mv) throw new ProtocolError('bad_request', `illegal move '${node.san}' in the PGN`);
        record(g, mv);
      }
    }
    games.set(g.id, g);
    g.you = color;
    checkEnd(g);
    scheduleRobot(g);
    return { v: 1, game: g.id, seats: { white: g.tokens.white, black: g.tokens.black }, you: color };
  }

  function record(g, move) {
    const chess960 = g.variant === 'chess960';
    g.moves.push(moveUci(g.pos, move, chess960));
    g.san.push(makeSan(g.pos, move));
    g.pos.play(move);
    g.reps.push(repKey(g.pos));
    g.updated = Date.now();
  }

  function timeLeft(g, c) {
    const ms = g.clock[`${c}_ms`];
    return g.clock.running === c ? ms - (Date.now() - g.clock.since) : ms;
  }

  function repetitions(g) {
    const k = g.reps[g.reps.length - 1];
    return g.reps.filter((x) => x === k).length;
  }

  function claimable(g) {
    const out = [];
    if (g.status !== 'ongoing') return out;
    if (repetitions(g) >= 3) out.push('threefold-repetition');
    if (g.pos.halfmoves >= 100) out.push('fifty-moves');
    return out;
  }

  function finish(g, status, winner) {
    g.status = status; g.winner = winner ?? null;
    g.end = STATUS_END[status](winner ? cap(winner) : '', winner ? cap(opposite(winner)) : '');
    if (g.clock.running) { g.clock[`${g.clock.running}_ms`] = timeLeft(g, g.clock.running); g.clock.running = null; }
    g.drawOffer = null; g.takebackRequest = null; g.updated = Date.now();
  }

  function checkEnd(g) {
    if (g.status !== 'ongoing') return;
    const pos = g.pos;
    if (pos.isCheckmate()) finish(g, 'checkmate', opposite(pos.turn));
    else if (pos.isStalemate()) finish(g, 'stalemate');
    else if (pos.isInsufficientMaterial()) finish(g, 'dead-position');
    else if (repetitions(g) >= 5) finish(g, 'fivefold-repetition');
    else if (pos.halfmoves >= 150) finish(g, 'seventy-five-moves');
    else if (g.casual && repetitions(g) >= 3) finish(g, 'threefold-repetition');
    else if (g.casual && pos.halfmoves >= 100) finish(g, 'fifty-moves');
  }

  function pressClock(g, mover) {
    if (g.tc.kind === 'unlimited') return;
    const now = Date.now();
    if (g.clock.running === mover) {
      g.clock[`${mover}_ms`] -= now - g.clock.since;
      g.clock[`${mover}_ms`] += g.tc.kind === 'days' ? 0 : g.tc.inc;
      if (g.tc.kind === 'days') g.clock[`${mover}_ms`] = g.tc.perMove;
    }
    g.clock.running = opposite(mover);
    g.clock.since = now;
  }

  function playMove(g, move) {
    const mover = g.pos.turn;
    if (g.clock.running === mover && timeLeft(g, mover) <= 0) { flag(g, mover); return; }
    record(g, move);
    if (g.drawOffer && g.drawOffer !== mover) g.drawOffer = null; // answered by moving
    g.takebackRequest = null;
    pressClock(g, mover);
    checkEnd(g);
  }

  function flag(g, c) {
    const other = opposite(c);
    if (g.pos.board.pieces(other, 'king') && g.pos.hasInsufficientMaterial(other)) finish(g, 'timeout-draw');
    else finish(g, 'timeout', other);
  }

  function rebuild(g, plies) {
    const moves = g.moves.slice(0, plies);
    g.pos = Chess.fromSetup(parseFen(g.initialFen).unwrap()).unwrap();
    g.moves = []; g.san = []; g.reps = [repKey(g.pos)];
    for (const u of moves) record(g, parseClientMove(g.pos, { uci: u }, g.variant === 'chess960'));
  }

  function scheduleRobot(g) {
    if (!g.robot || g.status !== 'ongoing' || g.pos.turn !== g.robot) return;
    setTimeout(() => {
      if (g.status !== 'ongoing' || g.pos.turn !== g.robot) return;
      const legal = [];
      for (const [from, tos] of g.pos.allDests()) {
        for (const to of tos) {
          const p = g.pos.board.get(from);
          const promo = p.role === 'pawn' && (to >> 3 === 7 || to >> 3 === 0);
          legal.push(promo ? { from, to, promotion: 'queen' } : { from, to });
        }
      }
      // A little better than random so that games end sooner: take mates and captures.
      const mate = legal.find((m) => { const p = g.pos.clone(); p.play(m); return p.isCheckmate(); });
      const caps = legal.filter((m) => g.pos.board.get(m.to) && g.pos.board.get(m.to).color !== g.robot);
      const pool = mate ? [mate] : caps.length && Math.random() < 0.7 ? caps : legal;
      playMove(g, pool[Math.floor(Math.random() * pool.length)]);
      broadcast(g);
    }, robotDelayMs);
  }

  function stateFor(g, seat) {
    const s = g.status === 'ongoing' && (seat === 'both' || seat === g.pos.turn);
    const check = g.pos.isCheck() ? makeSquare(g.pos.board.kingOf(g.pos.turn)) : null;
    const r = g.rematch;
    return {
      id: g.id, variant: g.variant, chess960: g.chess960 ?? undefined, initial_fen: g.initialFen, fen: makeFen(g.pos.toSetup()),
      turn: g.pos.turn, ply: g.moves.length, moves: g.moves, san: g.san, last_move: g.moves[g.moves.length - 1] ?? null,
      check, legal: s ? legalMap(g.pos, g.variant === 'chess960') : undefined,
      status: g.status, result: g.status === 'ongoing' || g.status === 'aborted' ? '*' : !g.winner ? '1/2-1/2' : g.winner === 'white' ? '1-0' : '0-1',
      winner: g.winner, end: g.end, claimable: claimable(g), draw_offer: g.drawOffer, takeback_request: g.takebackRequest,
      can_abort: g.status === 'ongoing' && g.moves.length < 2,
      clock: g.tc.kind === 'unlimited' ? { white_ms: 0, black_ms: 0, running: null, server_time: Date.now(), time_control: '-', class: 'unlimited' } : {
        white_ms: Math.max(0, Math.round(timeLeft(g, 'white'))), black_ms: Math.max(0, Math.round(timeLeft(g, 'black'))),
        running: g.status === 'ongoing' ? g.clock.running : null, server_time: Date.now(), time_control: g.tc.text, class: g.tc.cls,
      },
      players: g.players, you: seat,
      rematch: { offered_by: r.offered_by, game: r.game, seat: r.seats && seat !== 'spectator' ? r.seats[seat] ?? null : null },
    };
  }

  function broadcast(g) {
    for (const c of g.clients) send(c.ws, { t: 'state', game: stateFor(g, c.seat) });
    scheduleRobot(g);
  }

  function send(ws, msg) { if (ws.readyState === 1) ws.send(JSON.stringify({ v: 1, ...msg })); }

  function actor(g, seat, kind) {
    if (seat === 'spectator') throw new ProtocolError('not_your_seat', 'spectators cannot act in a game');
    if (seat !== 'both') return seat;
    if (kind === 'answer-draw') return g.drawOffer ? opposite(g.drawOffer) : g.pos.turn;
    if (kind === 'answer-takeback') return g.takebackRequest ? opposite(g.takebackRequest) : g.pos.turn;
    return g.pos.turn;
  }

  function handle(g, seat, m) {
    if (m.t === 'ping') return { t: 'pong', server_time: Date.now() };
    const ongoing = () => { if (g.status !== 'ongoing') throw new ProtocolError('game_over', `the game is over: ${g.end}`); };
    switch (m.t) {
      case 'move': {
        ongoing();
        const me = actor(g, seat, 'move');
        if (g.pos.turn !== me) throw new ProtocolError('not_your_turn', 'it is not your turn');
        if (Number.isInteger(m.ply) && m.ply !== g.moves.length) throw new ProtocolError('not_allowed', 'stale move: the position has changed');
        playMove(g, parseClientMove(g.pos, m, g.variant === 'chess960'));
        break;
      }
      case 'resign': ongoing(); finish(g, 'resignation', opposite(actor(g, seat, 'resign'))); break;
      case 'abort':
        ongoing(); actor(g, seat, 'abort');
        if (g.moves.length >= 2) throw new ProtocolError('not_allowed', 'a game can be aborted only before both players have moved');
        finish(g, 'aborted'); break;
      case 'draw': {
        ongoing();
        const me = actor(g, seat, m.action === 'offer' ? 'offer' : 'answer-draw');
        if (m.action === 'offer') {
          if (g.drawOffer === me) throw new ProtocolError('not_allowed', 'your draw offer is already standing');
          if (g.drawOffer === opposite(me)) { finish(g, 'agreement'); break; }
          g.drawOffer = me;
          if (g.robot) { g.drawOffer = null; broadcast(g); throw new ProtocolError('not_allowed', 'the robot declines the draw'); }
        } else if (m.action === 'accept') {
          if (g.drawOffer !== opposite(me)) throw new ProtocolError('not_allowed', 'there is no draw offer to accept');
          finish(g, 'agreement');
        } else if (m.action === 'decline') {
          if (g.drawOffer !== opposite(me)) throw new ProtocolError('not_allowed', 'there is no draw offer to decline');
          g.drawOffer = null;
        } else throw new ProtocolError('bad_request', 'draw action must be offer, accept or decline');
        break;
      }
      case 'claim': {
        ongoing();
        const me = actor(g, seat, 'claim');
        if (g.pos.turn !== me) throw new ProtocolError('not_your_turn', 'only the player to move can claim');
        if (m.uci || m.san) playMove(g, parseClientMove(g.pos, m, g.variant === 'chess960'));
        if (g.status !== 'ongoing') break;
        const reps = repetitions(g);
        if (m.claim === 'threefold-repetition' && reps >= 3) finish(g, 'threefold-repetition');
        else if (m.claim === 'fifty-moves' && g.pos.halfmoves >= 100) finish(g, 'fifty-moves');
        else { broadcast(g); throw new ProtocolError('not_allowed', m.claim === 'fifty-moves' ? 'incorrect claim: not 50 moves' : `incorrect claim: the position has appeared ${reps} times, not three`); }
        break;
      }
      case 'takeback': {
        ongoing();
        const me = actor(g, seat, m.action === 'request' ? 'request' : 'answer-takeback');
        const undo = (by) => {
          // Take back to the position before `by`'s last move.
          const n = g.pos.turn === by ? 2 : 1;
          if (g.moves.length < n) throw new ProtocolError('not_allowed', 'nothing to take back');
          const running = g.clock.running;
          rebuild(g, g.moves.length - n);
          if (running) { g.clock[`${running}_ms`] = timeLeft(g, running); g.clock.running = g.moves.length ? g.pos.turn : null; g.clock.since = Date.now(); }
          g.takebackRequest = null;
        };
        if (m.action === 'request') {
          if (g.robot && g.casual) undo(me);
          else if (g.robot) throw new ProtocolError('not_allowed', 'takebacks against the robot only in casual games');
          else if (seat === 'both') undo(opposite(g.pos.turn));
          else g.takebackRequest = me;
        } else if (m.action === 'accept') {
          if (g.takebackRequest !== opposite(me)) throw new ProtocolError('not_allowed', 'there is no takeback request');
          undo(g.takebackRequest);
        } else if (m.action === 'decline') {
          g.takebackRequest = null;
        } else throw new ProtocolError('bad_request', 'takeback action must be request, accept or decline');
        break;
      }
      case 'give_time': {
        ongoing();
        const me = actor(g, seat, 'give');
        if (g.tc.kind === 'unlimited') throw new ProtocolError('not_allowed', 'no clock in this game');
        const secs = Math.max(1, Math.min(600, Number(m.seconds) || 15));
        const other = opposite(me);
        g.clock[`${other}_ms`] += secs * 1000;
        break;
      }
      case 'rematch': {
        if (g.status === 'ongoing') throw new ProtocolError('not_allowed', 'the game is still going on');
        if (seat === 'spectator') throw new ProtocolError('not_your_seat', 'spectators cannot act in a game');
        if (g.rematch.game) break;
        const me = seat === 'both' ? 'white' : seat;
        const accept = () => {
          const req = { ...g.request, pgn: undefined };
          if (g.opponent === 'invite' || g.opponent === 'robot') {
            const humanColor = g.opponent === 'robot' ? opposite(g.robot) : 'white';
            req.color = opposite(humanColor);
          }
          const r = newGame(req);
          const ng = games.get(r.game);
          if (g.opponent === 'invite') {
            // Each player keeps playing under a new seat of the other colour.
            g.rematch.seats = { white: ng.tokens.black, black: ng.tokens.white };
          } else if (g.opponent === 'robot') {
            const human = opposite(g.robot);
            g.rematch.seats = { [human]: ng.tokens[opposite(human)] };
          } else g.rematch.seats = { both: ng.tokens.white };
          g.rematch.game = ng.id;
        };
        if (m.action === 'offer') {
          if (g.opponent !== 'invite' || g.rematch.offered_by === opposite(me)) accept();
          else g.rematch.offered_by = me;
        } else if (m.action === 'accept') {
          if (g.rematch.offered_by !== opposite(me)) throw new ProtocolError('not_allowed', 'there is no rematch offer');
          accept();
        } else throw new ProtocolError('bad_request', 'rematch action must be offer or accept');
        break;
      }
      default: throw new ProtocolError('bad_request', `unknown message type '${m.t}'`);
    }
    broadcast(g);
    return null;
  }

  function pgn(g) {
    const date = new Date(g.created);
    const name = (c) => (g.players[c]?.kind === 'robot' ? `Outpost level ${g.players[c].level}` : g.players[c]?.name ?? '?');
    const result = stateFor(g, 'spectator').result;
    const tags = [['Event', 'Outpost game'], ['Site', 'Outpost'], ['Date', date.toISOString().slice(0, 10).replace(/-/g, '.')],
      ['Round', '-'], ['White', name('white')], ['Black', name('black')], ['Result', result]];
    if (g.variant === 'chess960') tags.push(['Variant', 'Chess960']);
    if (g.initialFen !== 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1') tags.push(['SetUp', '1'], ['FEN', g.initialFen]);
    tags.push(['TimeControl', g.tc.text]);
    if (g.status !== 'ongoing') tags.push(['Termination', g.end]);
    const [, side, , , , num] = g.initialFen.split(' ');
    let n = parseInt(num ?? '1', 10); let white = side !== 'b';
    const parts = [];
    g.san.forEach((s, i) => {
      if (white) parts.push(`${n}.`); else if (i === 0) parts.push(`${n}...`);
      parts.push(s);
      if (!white) n++;
      white = !white;
    });
    parts.push(result);
    return `${tags.map(([k, v]) => `[${k} "${String(v).replace(/"/g, "'")}"]`).join('\n')}\n\n${parts.join(' ')}\n`;
  }

  function summary(g, you) {
    const name = (c) => (g.players[c]?.kind === 'robot' ? `Robot ${g.players[c].level}` : g.players[c]?.name ?? cap(c));
    return { id: g.id, white: name('white'), black: name('black'), status: g.status, result: stateFor(g, 'spectator').result,
      moves: Math.ceil(g.moves.length / 2), updated: g.updated, you };
  }

  // ---- HTTP ------------------------------------------------------------------

  const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml',
    '.ogg': 'audio/ogg', '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.png': 'image/png', '.json': 'application/json', '.ico': 'image/x-icon' };

  function readBody(req) {
    return new Promise((resolve, reject) => {
      let size = 0; const chunks = [];
      req.on('data', (c) => { size += c.length; if (size > 65536) { reject(new ProtocolError('bad_request', 'body too large', 413)); req.destroy(); } else chunks.push(c); });
      req.on('end', () => {
        try { resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null')); } catch { reject(new ProtocolError('bad_request', 'malformed JSON')); }
      });
    });
  }

  const json = (res, status, body) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };

  async function api(req, res, url) {
    const p = url.pathname;
    if (req.method === 'GET' && p === '/api/v1/levels') {
      return json(res, 200, { v: 1, levels: LEVEL_ELO.map((elo, i) => ({ level: i + 1, elo, label: LEVEL_LABEL[i], measured: false })) });
    }
    if (req.method === 'POST' && p === '/api/v1/games') return json(res, 200, newGame(await readBody(req)));
    if (req.method === 'POST' && p === '/api/v1/games/lookup') {
      const body = await readBody(req);
      if (!Array.isArray(body?.tokens)) throw new ProtocolError('bad_request', 'tokens must be a list');
      const out = [];
      for (const t of body.tokens) {
        const s = seats.get(t); const g = s && games.get(s.game);
        if (g && !out.some((x) => x.id === g.id)) out.push(summary(g, s.color));
      }
      out.sort((a, b) => b.updated - a.updated);
      return json(res, 200, { v: 1, games: out });
    }
    let m = /^\/api\/v1\/games\/([A-Za-z0-9_-]+)(\/pgn)?$/.exec(p);
    if (req.method === 'GET' && m) {
      const g = games.get(m[1]);
      if (!g) throw new ProtocolError('not_found', `no game '${m[1]}'`, 404);
      if (m[2]) {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': `attachment; filename="outpost-${g.id}.pgn"` });
        return res.end(pgn(g));
      }
      return json(res, 200, { v: 1, t: 'state', game: stateFor(g, 'spectator') });
    }
    throw new ProtocolError('not_found', `no such endpoint: ${req.method} ${p}`, 404);
  }

  function serveStatic(req, res, url) {
    let rel = decodeURIComponent(url.pathname);
    if (rel === '/' || rel === '') rel = '/index.html';
    const file = path.join(distDir, path.normalize(rel).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(distDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404, { 'content-type': 'text/plain' }); return res.end('not found');
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    try {
      if (url.pathname.startsWith('/api/')) await api(req, res, url);
      else serveStatic(req, res, url);
    } catch (e) {
      const err = e instanceof ProtocolError ? e : new ProtocolError('internal', String(e?.message ?? e), 500);
      if (!res.headersSent) json(res, err.status, { v: 1, t: 'error', code: err.code, message: err.message });
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname !== '/api/v1/ws') { socket.destroy(); return; }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const g = games.get(url.searchParams.get('game') ?? '');
      if (!g) { send(ws, { t: 'error', code: 'not_found', message: 'no such game' }); ws.close(); return; }
      const tok = url.searchParams.get('seat');
      let seat = 'spectator';
      if (tok) {
        const s = seats.get(tok);
        if (!s || s.game !== g.id) { send(ws, { t: 'error', code: 'not_your_seat', message: 'this seat link does not belong to this game' }); }
        else seat = s.color;
      }
      const client = { ws, seat };
      g.clients.add(client);
      send(ws, { t: 'state', game: stateFor(g, seat) });
      ws.on('message', (data) => {
        if (data.length > 4096) return send(ws, { t: 'error', code: 'bad_request', message: 'message too large' });
        let m;
        try { m = JSON.parse(String(data)); } catch { return send(ws, { t: 'error', code: 'bad_request', message: 'malformed JSON' }); }
        try {
          const reply = handle(g, seat, m);
          if (reply) send(ws, reply);
        } catch (e) {
          const err = e instanceof ProtocolError ? e : new ProtocolError('internal', String(e?.message ?? e));
          send(ws, { t: 'error', code: err.code, message: err.message });
        }
      });
      ws.on('close', () => g.clients.delete(client));
    });
  });

  // Flag fall, decided here (C5), checked a few times a second.
  const flagTimer = setInterval(() => {
    for (const g of games.values()) {
      const r = g.clock.running;
      if (g.status === 'ongoing' && r && g.tc.kind !== 'unlimited' && timeLeft(g, r) <= 0) { flag(g, r); broadcast(g); }
    }
  }, 100);

  return {
    server, games,
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve) => server.listen(port, host, () => resolve(`http://${host}:${server.address().port}`)));
    },
    // Test hook: drop every WebSocket (the clients must reconnect by themselves).
    dropConnections() { for (const g of games.values()) for (const c of g.clients) c.ws.terminate(); },
    close() {
      clearInterval(flagTimer);
      for (const c of wss.clients) c.terminate();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  const mock = createMockServer();
  mock.listen(port).then((url) => console.log(`mock outpost server on ${url}`));
}
