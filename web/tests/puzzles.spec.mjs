// Issue 29 item 3: the puzzle page. Solved by mouse, by keyboard (the keyboard board)
// and by a typed move (the screen-reader way); a hint shows the piece, then the square;
// a wrong move shows the solution; a signed-in player's rating changes and the profile
// lists the attempt; a phone in Finnish, by touch; axe on each page. The server is our
// own, started with a starter set of three puzzles written here.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { spawnServer, launch, newPage, shot, tmpDir, startGame, move, waitPly } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const CSV = [
  'PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags',
  // Black's c7-c6, then a back-rank mate by either rook.
  'mate1,6k1/2p2ppp/8/8/8/8/5PPP/RR4K1 b - - 0 1,c7c6 a1a8,1500,80,90,10,mateIn1 backRankMate endgame,/#/game/g1?ply=9,',
  // Black's c5-c4, then Rb7, Kg8, Ra8#.
  'mate2,7k/8/8/2p5/8/8/8/RR4K1 b - - 0 1,c5c4 b1b7 h8g8 a1a8,1600,80,90,10,mateIn2 endgame,/#/game/g2?ply=30,',
  // White's a2-a3, then Black mates with the queen on the back rank.
  'mate3,1q4k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1,a2a3 b8b1,1400,80,90,10,mateIn1 backRankMate,/#/game/g3?ply=11,',
].join('\n') + '\n';

let server; let browser;
before(async () => {
  const bin = process.env.OUTPOST_BIN;
  if (!bin) throw new Error('set OUTPOST_BIN to the outpost binary (this test starts its own server with puzzles)');
  if (!fs.existsSync(path.join(WEB, 'dist', 'index.html')))
    execFileSync(process.execPath, [path.join(WEB, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: WEB, stdio: 'inherit' });
  const dir = tmpDir();
  fs.writeFileSync(path.join(dir, 'puzzles.csv'), CSV);
  server = await spawnServer(bin, ['--no-client-limits', '--robot-instant', '--password-cost', 'cheapest', '--db', path.join(dir, 'test.db'),
    '--web', path.join(WEB, 'dist'), '--starter-puzzles', path.join(dir, 'puzzles.csv')], dir);
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

const status = (page) => page.locator('[data-puzzle=status]').textContent();
const said = (page) => page.locator('#announcer').textContent();
async function waitStatus(page, re) {
  await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-puzzle=status]')?.textContent ?? ''), re.source, { timeout: 10000 });
}
async function square(page, sq) {
  await page.locator('.puzzle-page cg-board').scrollIntoViewIfNeeded();
  const box = await page.locator('.puzzle-page cg-board').boundingBox();
  const black = await page.locator('.puzzle-page .cg-wrap.orientation-black').count() > 0;
  const file = sq.charCodeAt(0) - 97; const rank = Number(sq[1]) - 1;
  const col = black ? 7 - file : file; const row = black ? rank : 7 - rank;
  return { x: box.x + (col + 0.5) * box.width / 8, y: box.y + (row + 0.5) * box.width / 8 };
}
async function click(page, sq, touch = false) {
  const { x, y } = await square(page, sq);
  if (touch) await page.touchscreen.tap(x, y); else await page.mouse.click(x, y);
  await page.waitForTimeout(60);
}
async function signUp(page, name) {
  const r = await page.evaluate(async (n) => (await fetch('/api/v1/account/signup', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: 1, name: n, password: 'a long enough password' }),
  })).status, name);
  assert.equal(r, 201);
}

test('Issue 29: a guest solves a two-move puzzle by mouse, the reply answered, not rated', async () => {
  const page = await newPage(browser, server.url + '/#/puzzles/mate2');
  await waitStatus(page, /White to move/);
  assert.match(await page.locator('[data-puzzle=rating]').textContent(), /guest/);
  assert.match(await page.locator('[data-puzzle=info]').textContent(), /Mate in 2/);
  await click(page, 'b1'); await click(page, 'b7');
  await waitStatus(page, /Best move/);
  await page.waitForFunction(() => document.querySelector('.puzzle-page')?.dataset.phase === 'solving');
  await click(page, 'a1'); await click(page, 'a8');
  await waitStatus(page, /Solved/);
  assert.match(await page.locator('[data-puzzle=solution]').textContent(), /Rb7 Kg8 Ra8#/);
  await shot(page, 'puzzle-solved');
  await assertAccessible(page, 'the puzzle page, solved');
  // Next puzzle: another one, and its address.
  await page.locator('[data-action=next]').click();
  await page.waitForFunction(() => !location.hash.endsWith('/mate2') && document.querySelector('.puzzle-page')?.dataset.phase === 'solving');
});

test('Issue 29: hints give the piece, then the square; a wrong move shows the solution', async () => {
  const page = await newPage(browser, server.url + '/#/puzzles/mate2');
  await waitStatus(page, /White to move/);
  await page.locator('[data-action=hint]').click();
  await waitStatus(page, /the piece on b1/);
  await page.locator('[data-action=hint]').click();
  await waitStatus(page, /from b1 to b7/);
  await click(page, 'a1'); await click(page, 'a7');
  await waitStatus(page, /not the move/);
  assert.match(await page.locator('[data-puzzle=solution]').textContent(), /Rb7 Kg8 Ra8#/);
  // The solution is played out on the board: the rook arrives on a8.
  await page.waitForFunction(() => [...document.querySelectorAll('.puzzle-page cg-board piece.white.rook')]
    .some((p) => p.cgKey === 'a8'), null, { timeout: 5000 });
  assert.equal(await page.locator('.puzzle-page').getAttribute('data-phase'), 'failed');
});

test('Issue 29: a signed-in player solves by keyboard; the rating changes and the profile lists it', async () => {
  const page = await newPage(browser, server.url + '/');
  await signUp(page, 'solver');
  await page.goto(server.url + '/#/puzzles/mate1');
  await page.reload();
  await waitStatus(page, /White to move/);
  assert.match(await page.locator('[data-puzzle=rating]').textContent(), /first puzzle/);
  // Tab from the header's last control reaches the board; e1 first, then a1, up to a8.
  await page.locator('[data-action=settings]').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('board')), true);
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  assert.equal(await said(page), 'a1, white rook');
  await page.keyboard.press('Enter');
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await waitStatus(page, /Solved/);
  // Glicko-2 (docs/protocol.md, Puzzles): 1500 / 500 beating a 1500 / 80 puzzle gains 237.
  assert.match(await page.locator('[data-puzzle=rating]').textContent(), /1,?737\? \(\+237\)/);
  await page.goto(server.url + '/#/player/solver');
  await page.waitForSelector('[data-puzzle=history] li[data-solved=true]');
  assert.match(await page.locator('[data-puzzle=history]').textContent(), /mate1/);
  await assertAccessible(page, 'the profile with the puzzle history');
});

test('Issue 29: on a phone, in Finnish, by touch and by a typed move, with axe', async () => {
  const page = await newPage(browser, server.url + '/?lang=fi#/puzzles/mate3',
    { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await waitStatus(page, /Musta siirtää/);
  assert.equal(await page.locator('.puzzle-page .cg-wrap.orientation-black').count(), 1);
  await assertAccessible(page, 'the puzzle page on a phone, in Finnish');
  await click(page, 'b8', true); await click(page, 'b1', true);
  await waitStatus(page, /Ratkaistu/);
  await shot(page, 'puzzle-phone-fi');
  // The move box: a move typed in Finnish letters (D: daami) solves it too.
  await page.goto(server.url + '/?lang=fi#/puzzles/mate3');
  await page.reload();
  await waitStatus(page, /Musta siirtää/);
  await page.locator('[data-action=move-input]').fill('Db1');
  await page.keyboard.press('Enter');
  await waitStatus(page, /Ratkaistu/);
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390, 'no sideways scrolling');
});

test('Issue 29 item 4: learn from your mistakes in one\'s own analysed game', async () => {
  const page = await newPage(browser, server.url + '/');
  await signUp(page, 'learner');
  await page.reload();
  // White could take the queen (Qxd5); 1. Kf2?? leaves it, and the queen on d1 hangs.
  await startGame(page, { opponent: 'robot', color: 'white', tc: '-', level: 1, start: '4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1' });
  await move(page, 'e1', 'f2');
  await waitPly(page, 2, 20000);
  await page.click('[data-action=resign]');
  await page.locator('[data-action=resign-confirm]').click();
  await page.click('[data-action=analyse]');
  await page.waitForSelector('.analysis[data-phase=done]', { timeout: 60000 });
  await page.locator('[data-action=learn]').click();
  await page.waitForFunction(() => /Kf2/.test(document.querySelector('[data-learn=status]')?.textContent ?? ''));
  assert.match(await page.locator('[data-learn=status]').textContent(), /1 of 1: you played Kf2, a blunder/);
  await assertAccessible(page, 'learn from your mistakes');
  // Qxd5 is the better move: the engine agrees and shows its line.
  const box = await page.locator('.learn-page cg-board').boundingBox();
  const at = (sq) => ({ x: box.x + (sq.charCodeAt(0) - 97 + 0.5) * box.width / 8, y: box.y + (8 - Number(sq[1]) + 0.5) * box.width / 8 });
  for (const sq of ['d1', 'd5']) { const p = at(sq); await page.mouse.click(p.x, p.y); await page.waitForTimeout(60); }
  await page.waitForFunction(() => /good/.test(document.querySelector('[data-learn=status]')?.textContent ?? ''), null, { timeout: 20000 });
  assert.match(await page.locator('[data-learn=line]').textContent(), /The engine's line: Qxd5/);
  await shot(page, 'learn-mistakes');
});
