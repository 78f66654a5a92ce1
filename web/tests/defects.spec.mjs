// Defects a newcomer met in the browser (issue 9), each reproduced against the real
// server: "My games" said "undefined moves"; in a same-device game an Accept button
// appeared for one's own draw offer; a king dropped on its own rook sent e1h1.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, startGame, recordSent } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('P11: My games shows the number of moves, never "undefined"', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  await move(page, 'e2', 'e4'); await waitPly(page, 1);
  await move(page, 'e7', 'e5'); await waitPly(page, 2);
  await page.goto(server.url + '/#/games');
  await page.waitForSelector('.game-row .game-meta');
  const meta = await page.locator('.game-row .game-meta').first().textContent();
  assert.doesNotMatch(meta, /undefined|NaN/);
  assert.match(meta, /\b1 move\b/); // issue 28: e4 e5 is one move (two plies)
  await shot(page, 'my-games-count');
});

test('P9/R8: same device: no Accept for one\'s own draw offer; the other side can accept', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  await move(page, 'e2', 'e4'); await waitPly(page, 1);
  await page.click('[data-action=draw-offer]'); // Black, to move, offers
  await page.waitForSelector('.pending');
  assert.equal(await page.locator('[data-action=draw-accept]').count(), 0, 'no Accept for Black\'s own offer');
  assert.equal(await page.locator('[data-action=draw-offer]').count(), 0);
  await shot(page, 'hotseat-own-offer');
  await move(page, 'e7', 'e5'); await waitPly(page, 2);
  const st = await (await fetch(`${server.url}/api/v1/games/${page.url().match(/game\/([\w-]+)/)[1]}`)).json();
  if (st.game.draw_offer === 'black') {
    // The offer stands (R8) and it is White's to answer.
    await page.click('[data-action=draw-accept]');
    await page.waitForSelector('.game-screen[data-status=agreement]');
  } else {
    assert.equal(await page.locator('[data-action=draw-accept]').count(), 0);
  }
});

test('R4/N2: the king dropped on its own rook castles as e1g1 (standard)', async () => {
  const page = await newPage(browser, server.url + '/');
  const sent = recordSent(page);
  await startGame(page, { opponent: 'hotseat', tc: '-', start: 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1' });
  await move(page, 'e1', 'h1'); await waitPly(page, 1);
  await move(page, 'e8', 'a8'); await waitPly(page, 2);
  const moves = sent.filter((m) => m.t === 'move').map((m) => m.uci);
  assert.deepEqual(moves, ['e1g1', 'e8c8']);
  assert.deepEqual(await page.locator('.moves .mv').allTextContents(), ['O-O', 'O-O-O']);
  // Where the king and rook stand now: g1/f1 and c8/d8.
  const pieces = await page.evaluate(() => [...document.querySelectorAll('cg-board piece')].map((p) => p.className).join(' '));
  assert.ok(pieces.includes('king'));
  await shot(page, 'castle-by-rook');
});

test('R16/N2: Chess960 castling by dropping the king on its rook sends king-takes-rook', async () => {
  const page = await newPage(browser, server.url + '/');
  const sent = recordSent(page);
  // King f1, rook h1: O-O puts the king on g1 and the rook on f1.
  await startGame(page, { opponent: 'hotseat', tc: '-', variant: 'chess960', start: 'rk6/pppppppp/8/8/8/8/PPPPPPPP/5K1R w H - 0 1' });
  await move(page, 'f1', 'h1'); await waitPly(page, 1);
  assert.deepEqual(sent.filter((m) => m.t === 'move').map((m) => m.uci), ['f1h1']);
  assert.deepEqual(await page.locator('.moves .mv').allTextContents(), ['O-O']);
});
