// Plays one game against a running `outpost serve` over HTTP and WebSocket, as a
// browser would: creates a game at one screen, plays fool's mate move by move on the
// game's WebSocket, and checks the end from the game's HTTP state. For checks that
// stand outside the browser tests (tests/package/check.sh: the installed package).
//   node web/scripts/play-game.mjs http://127.0.0.1:PORT
// SPDX-License-Identifier: GPL-3.0-or-later
import WebSocket from 'ws';

const base = process.argv[2];
if (!base) throw new Error('usage: play-game.mjs http://HOST:PORT');

const created = await fetch(`${base}/api/v1/games`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ v: 1, opponent: 'hotseat', time_control: '5+3' }),
});
if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
const game = await created.json();
const seat = game.seats.white ?? game.seats.black;

const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/v1/ws?game=${game.game}&seat=${seat}`);
const messages = [];
let wake = () => {};
ws.on('message', (data) => {
  messages.push(JSON.parse(data.toString()));
  wake();
});
const next = (t) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${t} message in 10 s`)), 10_000);
    const look = () => {
      const i = messages.findIndex((m) => m.t === t || m.t === 'error');
      if (i < 0) return;
      const [m] = messages.splice(i, 1);
      clearTimeout(timer);
      if (m.t === 'error') reject(new Error(`server: ${JSON.stringify(m)}`));
      else resolve(m);
    };
    wake = look;
    look();
  });
await new Promise((resolve, reject) => {
  ws.once('open', resolve);
  ws.once('error', reject);
});
await next('state');
for (const uci of ['f2f3', 'e7e5', 'g2g4', 'd8h4']) {
  ws.send(JSON.stringify({ v: 1, t: 'move', uci }));
  await next('move');
}
ws.close();

const state = await (await fetch(`${base}/api/v1/games/${game.game}`)).json();
if (state.game.result !== '0-1') throw new Error(`expected 0-1 by checkmate, got ${JSON.stringify(state.game)}`);
console.log(`play-game: game ${game.game} played to checkmate over HTTP and WebSocket (0-1)`);
