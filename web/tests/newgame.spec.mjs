// What a new user met setting up and playing a game (issue 11, "also noticed"):
// the More options fold, the home board's preview of a pasted FEN or a Chess960 start
// (P13, R16), time controls written "10+0" (C4), the claim-with-move selector
// explained (P9, R9/R10), no "+15 s" in correspondence (C3), the same-device board
// turning and the players' names where such a game is set up (P2, P21).
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, startGame } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const openMore = async (page) => {
  if (!(await page.locator('details.more').evaluate((d) => d.open))) await page.click('details.more summary');
};
const pieces = (page) => page.locator('.home-screen cg-board piece').evaluateAll((els) => els.map((e) => e.className).sort());
// The piece drawn on a square (after the board's move animation has settled).
const pieceOn = async (page, file, rank) => (await page.waitForTimeout(400), page).locator('.home-screen cg-board piece').evaluateAll((els, [f, r]) => {
  const board = document.querySelector('.home-screen cg-board').getBoundingClientRect();
  const s = board.width / 8;
  const hit = els.find((e) => {
    const b = e.getBoundingClientRect();
    return Math.floor((b.x + b.width / 2 - board.x) / s) === f && Math.floor((b.y + b.height / 2 - board.y) / s) === 7 - r;
  });
  return hit ? hit.className : '';
}, [file, rank]);

test('More options stays open while its choices change', async () => {
  const page = await newPage(browser, server.url + '/');
  await openMore(page);
  await page.click('[data-field=casual]');
  assert.equal(await page.locator('details.more').evaluate((d) => d.open), true, 'open after ticking Casual');
  await page.click('[data-field=variant] [data-value=standard]');
  assert.equal(await page.locator('details.more').evaluate((d) => d.open), true, 'open after choosing a variant');
});

test('P13/R16: the home board previews a pasted FEN, a PGN, and the chosen Chess960 position', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.waitForSelector('.home-screen cg-board piece');
  await openMore(page);
  await page.fill('[data-field=start]', 'k7/4P3/8/8/8/8/8/K7 w - - 0 1');
  await page.locator('[data-field=start]').dispatchEvent('change');
  await page.waitForFunction(() => document.querySelectorAll('.home-screen cg-board piece').length === 3);
  assert.deepEqual(await pieces(page), ['black king', 'white king', 'white pawn']);
  await shot(page, 'home-preview-fen');
  await page.fill('[data-field=start]', '1. e4 e5 2. Nf3');
  await page.locator('[data-field=start]').dispatchEvent('change');
  await page.waitForFunction(() => document.querySelectorAll('.home-screen cg-board piece').length === 32);
  assert.match(await pieceOn(page, 5, 2), /white knight/); // f3
  await page.fill('[data-field=start]', '');
  await page.locator('[data-field=start]').dispatchEvent('change');
  await page.click('[data-field=variant] [data-value=chess960]');
  await page.fill('[data-field=chess960]', '0'); // BBQNNRKR
  await page.locator('[data-field=chess960]').dispatchEvent('change');
  assert.match(await pieceOn(page, 0, 0), /white bishop/);
  assert.match(await pieceOn(page, 6, 0), /white king/);
  assert.match(await pieceOn(page, 2, 7), /black queen/);
  await shot(page, 'home-preview-960');
  await page.fill('[data-field=chess960]', '518');
  await page.locator('[data-field=chess960]').dispatchEvent('change');
  assert.match(await pieceOn(page, 4, 0), /white king/);
  assert.match(await pieceOn(page, 3, 0), /white queen/);
});

test('C4: a time control reads "10+0" in the game, not "10"', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat', tc: '10+0' });
  assert.match(await page.locator('.status .meta').textContent(), /\b10\+0\b/);
});

test('P9: the claim-with-move choice is folded and explained', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  const fold = page.locator('details.claim-move');
  assert.equal(await fold.count(), 1);
  assert.equal(await page.locator('[data-action=claim-with-move]').isVisible(), false, 'folded');
  await fold.locator('summary').click();
  assert.match(await fold.locator('.hint').textContent(), /claim/i);
  assert.ok(await page.locator('[data-action=claim-with-move]').isVisible());
  await shot(page, 'claim-with-move');
  await move(page, 'e2', 'e4'); await waitPly(page, 1);
  assert.ok(await page.locator('[data-action=claim-with-move]').isVisible(), 'still open after a move');
});

test('C3: no "+15 s" in a correspondence game; offered in a blitz game', async () => {
  for (const [tc, shown] of [['1d', 0], ['5+0', 1]]) {
    const page = await newPage(browser, server.url + '/');
    await startGame(page, { opponent: 'invite', color: 'white', tc });
    assert.equal(await page.locator('[data-action=give-time]').count(), shown, tc);
    await page.close();
  }
});

test('P2: same device: the board turns to the side to move, chosen where the game is set up', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('[data-field=opponent] [data-value=hotseat]');
  await page.check('[data-field=autoFlip]');
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  assert.equal(await page.locator('.cg-wrap.orientation-white').count(), 1);
  await move(page, 'e2', 'e4'); await waitPly(page, 1);
  await page.waitForSelector('.cg-wrap.orientation-black');
});

test('P21: same device: both players can be named', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('[data-field=opponent] [data-value=hotseat]');
  await page.fill('[data-field=same-device] [data-field=name]', 'Anna');
  await page.locator('[data-field=same-device] [data-field=name]').dispatchEvent('change');
  await page.fill('[data-field=opponentName]', 'Boris');
  await page.locator('[data-field=opponentName]').dispatchEvent('change');
  await shot(page, 'home-same-device');
  const sent = [];
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/v1/games')) sent.push(JSON.parse(r.postData())); });
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  assert.equal(sent[0].name, 'Anna');
  assert.equal(sent[0].opponent_name, 'Boris');
  assert.match(await page.locator('.player-bar.bottom .player-name').textContent(), /Anna/);
  // The server names Black from opponent_name (tests/unit/server_hub_test.cpp checks the PGN).
  assert.match(await page.locator('.player-bar.top .player-name').textContent(), /Boris/);
});
