// P2 hotseat: two people at one screen play the fool's mate by clicking squares;
// the end is explained in words (P6); the move list, review keys (P8) and PGN (P11).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, launch, newPage, shot, move, waitPly, startGame, gameState } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('hotseat fool\'s mate by clicking', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat', tc: '5+3' });
  assert.equal((await gameState(page)).you, 'both');
  const sounds = new Set();
  page.on('request', (r) => { const m = /\/sounds\/(\w+)\.ogg/.exec(r.url()); if (m) sounds.add(m[1]); });
  const moves = [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']];
  for (let i = 0; i < moves.length; i++) {
    await move(page, ...moves[i]);
    await waitPly(page, i + 1);
  }
  await page.waitForSelector('.game-screen[data-status=checkmate]');
  for (const name of ['move', 'check', 'end']) assert.ok(sounds.has(name), `sound ${name} played`);
  assert.match(await page.locator('.end-text').textContent(), /Black wins by checkmate/);
  assert.deepEqual(await page.locator('.moves .mv:not(.empty)').allTextContents(), ['f3', 'e5', 'g4', 'Qh4#']);
  assert.equal(await page.locator('cg-board square.check').count(), 1);
  assert.ok(await page.locator('[data-action=rematch]').isVisible());
  assert.ok(await page.locator('[data-action=new-game]').isVisible());
  await shot(page, 'hotseat-checkmate');
  await assertAccessible(page, 'a finished game');

  // Review with the keys: Home shows the start, ← steps back, End returns.
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('Home');
  assert.equal(await page.locator('cg-board piece').count(), 32);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('.mv.active').textContent(), 'f3');
  await page.keyboard.press('End');
  assert.equal(await page.locator('.mv.active').textContent(), 'Qh4#');
  await page.locator('.mv[data-ply="2"]').click();
  assert.equal(await page.locator('.mv.active').textContent(), 'e5');
  await shot(page, 'hotseat-review');

  // PGN download.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action=pgn]')]);
  const text = fs.readFileSync(await download.path(), 'utf8');
  // Comments ([%clk], the end in words) and the "2..." after them are not moves.
  const movetext = text.replace(/\{[^}]*\}/g, ' ').replace(/\d+\.\.\./g, ' ').replace(/\s+/g, ' ');
  assert.match(movetext, /1\. f3 e5 2\. g4 Qh4# 0-1/);
  assert.match(text, /\[Result "0-1"\]/);

  // Replay from My games: the finished game, reviewed from its start.
  await page.goto(server.url + '/#/games');
  await page.waitForSelector('.game-row');
  await assertAccessible(page, 'My games');
  await page.locator('.game-row .small-btn', { hasText: 'Replay' }).first().click();
  await page.waitForSelector('.game-screen[data-status=checkmate]');
  await page.locator('.mv[data-ply="2"]').click();
  await assertAccessible(page, 'a replayed game');
});

test('promotion chooser from a FEN start (P13)', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat', tc: '-', start: 'k7/4P3/8/8/8/8/8/K7 w - - 0 1' });
  await move(page, 'e7', 'e8');
  await page.waitForSelector('.promotion .promo-piece');
  assert.equal(await page.locator('.promotion .promo-piece').count(), 4);
  await shot(page, 'promotion-chooser');
  await assertAccessible(page, 'the promotion chooser');
  await page.click('.promotion [data-piece=n]');
  await waitPly(page, 1);
  assert.equal(await page.locator('.mv[data-ply="1"]').textContent(), 'e8=N');
});
