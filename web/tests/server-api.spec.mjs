// Tests of the real `outpost serve` process (not the mock): kill -9 in mid-game loses
// nothing acknowledged (SPEC D3), forged seats and malformed messages get JSON errors
// while the server keeps going (D4, docs/protocol.md). They need the binary:
// OUTPOST_BIN=/path/to/outpost; without it they are skipped.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeUci } from 'chessops/util';

const BIN = process.env.OUTPOST_BIN;
const skip = BIN ? false : 'set OUTPOST_BIN to the outpost binary to test the real server';

function startServer(db) {
  return new Promise((resolve, reject) => {
    const proc = spawn(BIN, ['serve', '--port', '0', '--db', db, '--web', '/nonexistent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error('server did not start: ' + out)), 15000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[^:]+:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, url: `http://127.0.0.1:${m[1]}`, ws: `ws://127.0.0.1:${m[1]}` });
      }
    });
    proc.stderr.on('data', (d) => { out += d; });
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

function kill9(server) {
  return new Promise((resolve) => {
    server.proc.removeAllListeners('exit');
    server.proc.on('exit', () => resolve());
    server.proc.kill('SIGKILL');
  });
}

async function api(url, method, body) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' }, // the server takes JSON only
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, json, text };
}

// A WebSocket client that keeps every message and lets a test wait for one. A `move`
// message is applied to the last state, as the UI does, and the result kept as a
// `state` message too.
function connect(wsUrl, game, seat) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsUrl}/api/v1/ws?game=${game}${seat ? `&seat=${seat}` : ''}`);
    const client = { ws, messages: [], waiters: [] };
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString());
      const keep = (m) => {
        client.messages.push(m);
        client.waiters = client.waiters.filter((w) => !w(m));
      };
      keep(msg);
      if (msg.t === 'state') client.state = msg.game;
      if (msg.t === 'move') {
        const prev = client.state;
        assert.ok(prev && msg.game.ply === prev.ply + 1, 'a move message follows the state it changes');
        const { uci, san, ...changed } = msg.game;
        client.state = { ...prev, ...changed, moves: [...prev.moves, uci], san: [...prev.san, san] };
        keep({ t: 'state', game: client.state });
      }
    });
    ws.on('open', () => resolve(client));
    ws.on('error', reject);
  });
}

function waitFor(client, pred, ms = 5000) {
  const found = client.messages.find(pred);
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out waiting for a message')), ms);
    client.waiters.push((msg) => {
      if (!pred(msg)) return false;
      clearTimeout(timer);
      resolve(msg);
      return true;
    });
  });
}

function randomMove(fen, rng) {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  const moves = [];
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      const piece = pos.board.get(from);
      const promo = piece.role === 'pawn' && (to >> 3 === 7 || to >> 3 === 0);
      moves.push(makeUci(promo ? { from, to, promotion: 'queen' } : { from, to }));
    }
  }
  return moves[Math.floor(rng() * moves.length)];
}

function lcg(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

test('D3: kill -9 in mid-game loses nothing acknowledged; clocks stay consistent', { skip, timeout: 120000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-d3-'));
  const db = path.join(dir, 'games.db');
  let server = await startServer(db);
  const created = await api(`${server.url}/api/v1/games`, 'POST', { v: 1, opponent: 'invite', color: 'white', time_control: '5+3', casual: false });
  assert.equal(created.status, 201, created.text);
  const { game, seats } = created.json;
  const rng = lcg(12345);
  const acknowledged = [];
  for (let round = 0; round < 4; round++) {
    const players = [await connect(server.ws, game, seats.white), await connect(server.ws, game, seats.black)];
    let state = (await waitFor(players[0], (m) => m.t === 'state')).game;
    assert.deepEqual(state.moves, acknowledged, 'every acknowledged move survived the restart');
    if (state.clock.running) assert.equal(state.clock.running, state.turn);
    assert.ok(state.clock.white_ms <= 5 * 60000 + 3000 * 40 && state.clock.black_ms >= 0);
    const movesThisRound = 6 + Math.floor(rng() * 6);
    for (let i = 0; i < movesThisRound && state.status === 'ongoing'; i++) {
      const me = players[state.turn === 'white' ? 0 : 1];
      const uci = randomMove(state.fen, rng);
      const ply = state.ply;
      me.ws.send(JSON.stringify({ v: 1, t: 'move', uci, ply }));
      state = (await waitFor(me, (m) => m.t === 'state' && m.game.ply === ply + 1)).game;
      acknowledged.push(state.moves.at(-1));  // as the server writes it (castling e1g1, not e1h1)
    }
    // One more move in flight when the server dies: it may or may not be kept.
    const inFlight = state.status === 'ongoing' ? randomMove(state.fen, rng) : null;
    if (inFlight) players[state.turn === 'white' ? 0 : 1].ws.send(JSON.stringify({ v: 1, t: 'move', uci: inFlight, ply: state.ply }));
    await kill9(server);
    for (const p of players) p.ws.terminate();
    server = await startServer(db);
    const after = (await api(`${server.url}/api/v1/games/${game}`, 'GET')).json.game;
    assert.deepEqual(after.moves.slice(0, acknowledged.length), acknowledged);
    if (after.moves.length > acknowledged.length) {
      assert.equal(after.moves.length, acknowledged.length + 1);
      assert.equal(after.moves.at(-1).slice(0, 2), inFlight.slice(0, 2));
      acknowledged.push(after.moves.at(-1));
    }
    if (after.status !== 'ongoing') break;
  }
  await kill9(server);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('D4: forged seats, spectators and malformed messages get JSON errors; the server goes on', { skip, timeout: 60000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-d4-'));
  const server = await startServer(path.join(dir, 'games.db'));
  const { game, seats } = (await api(`${server.url}/api/v1/games`, 'POST', { opponent: 'invite', color: 'white' })).json;

  const forged = await connect(server.ws, game, 'AAAAAAAAAAAAAAAAAAAAAA');
  const err = await waitFor(forged, (m) => m.t === 'error');
  assert.equal(err.code, 'not_your_seat');

  const spectator = await connect(server.ws, game, null);
  await waitFor(spectator, (m) => m.t === 'state' && m.game.you === 'spectator');
  spectator.ws.send(JSON.stringify({ v: 1, t: 'move', uci: 'e2e4' }));
  assert.equal((await waitFor(spectator, (m) => m.t === 'error')).code, 'not_your_seat');

  const white = await connect(server.ws, game, seats.white);
  await waitFor(white, (m) => m.t === 'state');
  const bad = ['garbage', '{"t":', '[]', '{"t":"move","uci":"e2e9"}', '{"t":"move","uci":"e7e5"}', '{"t":"draw"}',
    '{"t":"give_time","seconds":-5}', JSON.stringify({ t: 'move', uci: 'x'.repeat(3000) })];
  for (const b of bad) {
    const before = white.messages.length;
    white.ws.send(b);
    const reply = await waitFor(white, (m) => m.t === 'error' && white.messages.indexOf(m) >= before);
    assert.ok(reply.code && reply.message, b);
  }
  // Too large: the connection is closed with an error, the server stays up.
  white.ws.send('x'.repeat(10000));
  const white2 = await connect(server.ws, game, seats.white);
  white2.ws.send(JSON.stringify({ v: 1, t: 'move', uci: 'e2e4' }));
  const moved = await waitFor(white2, (m) => m.t === 'state' && m.game.ply === 1);
  assert.deepEqual(moved.game.moves, ['e2e4']);

  for (const [method, p, body, status] of [['POST', '/api/v1/games', 'nope', 400], ['GET', '/api/v1/games/zzz', undefined, 404],
    ['POST', '/api/v1/games', 'x'.repeat(70000), 413], ['GET', '/api/v1/nothing', undefined, 404]]) {
    const r = await api(`${server.url}${p}`, method, body);
    assert.equal(r.status, status, `${method} ${p}`);
    assert.equal(r.json?.t, 'error', r.text);
  }
  assert.equal((await api(`${server.url}/api/v1/levels`, 'GET')).status, 200);
  await kill9(server);
  fs.rmSync(dir, { recursive: true, force: true });
});
