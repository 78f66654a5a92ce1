// P16 (FIDE Laws, appendix for visually impaired players): the board played by
// keyboard alone. Arrow keys move a focus square that is announced, Enter picks a
// piece and then its square, Escape puts it back, castling and promotion are
// reachable, and Tab leaves the board.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, startGame, clickSquare, gameState } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// chessground hides squares it no longer needs rather than removing them.
const said = (page) => page.locator('#announcer').textContent();
async function keys(page, ...list) {
  for (const k of list) {
    const [key, n] = k.split('*');
    for (let i = 0; i < Number(n ?? 1); i++) await page.keyboard.press(key);
  }
}
// Tab from the header's last control reaches the board (it is in the page's tab order).
async function focusBoard(page) {
  await page.locator('[data-action=settings]').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('board')), true);
}

test('P16: a game opening by keyboard alone, with every square announced', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  await focusBoard(page);
  assert.equal(await said(page), 'e1, white king');
  await keys(page, 'ArrowUp');
  assert.equal(await said(page), 'e2, white pawn');
  await keys(page, 'Enter');
  assert.match(await said(page), /^e2, white pawn picked up; it can go to e3, e4$/);
  await keys(page, 'ArrowUp*2');
  assert.equal(await said(page), 'e4, empty');
  await shot(page, 'keyboard-board-focus');
  await keys(page, 'Enter');
  await waitPly(page, 1);
  // Black: the knight from g8 to f6.
  await keys(page, 'ArrowUp*4', 'ArrowRight*2');
  assert.equal(await said(page), 'g8, black knight');
  await keys(page, 'Enter', 'ArrowDown*2', 'ArrowLeft', 'Enter');
  await waitPly(page, 2);
  // Escape puts a picked piece back; a square it cannot reach is said so.
  await keys(page, 'ArrowDown*7', 'ArrowLeft*5');
  assert.equal(await said(page), 'a1, white rook');
  await keys(page, 'Enter');
  assert.match(await said(page), /no move/);
  await keys(page, 'ArrowRight*6', 'Enter');
  assert.match(await said(page), /^g1, white knight picked up/);
  await keys(page, 'Escape');
  assert.equal(await said(page), 'Put back');
  await page.waitForFunction(() => [...document.querySelectorAll('cg-board square.selected')].filter((q) => q.style.display !== 'none').length === 0, null, { timeout: 2000 });
  await keys(page, 'Enter', 'ArrowUp*3', 'Enter');
  assert.match(await said(page), /cannot go to g4/);
  await page.waitForFunction(() => [...document.querySelectorAll('cg-board square.selected')].filter((q) => q.style.display !== 'none').length === 1, null, { timeout: 2000 }); // the knight stays in hand
  await keys(page, 'ArrowDown', 'ArrowLeft', 'Enter'); // f3
  await waitPly(page, 3);
  assert.deepEqual(await page.locator('.moves .mv').allTextContents(), ['e4', 'Nf6', 'Nf3']);
  // Focus is not held: Tab goes on to the next control.
  await keys(page, 'Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('board')), false);
});

test('P16/R4/R3: castling and promotion by keyboard', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat', tc: '-', start: 'r3k2r/6P1/8/8/8/8/8/R3K2R w KQkq - 0 1' });
  await focusBoard(page);
  await keys(page, 'Enter', 'ArrowRight*2', 'Enter'); // Ke1 to g1: O-O
  await waitPly(page, 1);
  await keys(page, 'ArrowUp*7', 'ArrowLeft*2', 'Enter', 'ArrowLeft*2', 'Enter'); // Ke8 to c8: O-O-O
  await waitPly(page, 2);
  await keys(page, 'ArrowDown', 'ArrowRight*4', 'Enter', 'ArrowRight', 'ArrowUp', 'Enter'); // g7 takes h8, promotes
  await page.waitForSelector('.promotion .promo-piece');
  await keys(page, 'n');
  await waitPly(page, 3);
  assert.deepEqual(await page.locator('.moves .mv').allTextContents(), ['O-O', 'O-O-O', 'gxh8=N']);
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('board')), true, 'focus back on the board');
});

test('P8: a board clicked with the mouse keeps the arrow keys for reviewing the moves', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  await move(page, 'e2', 'e4'); await waitPly(page, 1);
  await move(page, 'e7', 'e5'); await waitPly(page, 2);
  await page.locator('.game-screen .board').focus(); // as if the click had focused it
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator('.mv.active').textContent(), 'e4');
  assert.equal(await page.locator('.kb-focus').count(), 0);
});

// R15, FIDE Article 4.3: a training game set up with touch-move (off by default,
// under More options). A piece with a legal move, once picked up by click or by key,
// must be moved: another piece, putting it back, Escape or a typed move of another
// piece are refused with the reason said; released on a legal square it is played.
test('R15: touch-move training, by mouse and by keyboard', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('details.more summary');
  assert.equal(await page.isChecked('[data-field=touchMove]'), false, 'off by default');
  await page.check('[data-field=touchMove]');
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  assert.match(await page.locator('.status .meta').textContent(), /Touch-move/);
  const selected = () => page.locator('cg-board square.selected').evaluateAll((els) => els.filter((q) => q.style.display !== 'none').length);
  // A piece without a legal move (the rook) is not "touched": the knight may still be chosen.
  await clickSquare(page, 'a1');
  await clickSquare(page, 'g1');
  assert.equal(await page.locator('.touch-note').getAttribute('data-touch'), 'g1');
  // Another piece: refused, the knight stays in hand.
  await clickSquare(page, 'e2');
  assert.equal(await said(page), 'Touch-move: White knight g1 must be moved');
  assert.equal(await page.locator('.touch-note').getAttribute('data-touch'), 'g1');
  // Put back by clicking it again: refused.
  await clickSquare(page, 'g1');
  await page.waitForTimeout(50);
  assert.equal(await selected(), 1);
  // A typed move of another piece: refused.
  await page.fill('.move-input', 'e4');
  await page.press('.move-input', 'Enter');
  await page.waitForTimeout(300);
  assert.equal((await gameState(page)).ply, '0');
  // The pawn cannot be dragged either.
  await move(page, 'e2', 'e4');
  await page.waitForTimeout(300);
  assert.equal((await gameState(page)).ply, '0');
  // Released on a legal square: played.
  await move(page, 'g1', 'f3');
  await waitPly(page, 1);
  assert.equal(await page.locator('.touch-note').count(), 0);
  // Black by keyboard: the pawn on e7 picked up; Escape and another piece are refused.
  await focusBoard(page);
  await keys(page, 'ArrowUp*6');
  assert.equal(await said(page), 'e7, black pawn');
  await keys(page, 'Enter', 'Escape');
  assert.equal(await said(page), 'Touch-move: Black pawn e7 must be moved');
  await keys(page, 'ArrowUp', 'ArrowRight', 'Enter'); // the bishop on f8
  assert.equal(await said(page), 'Touch-move: Black pawn e7 must be moved');
  await keys(page, 'ArrowLeft', 'ArrowDown*3', 'Enter'); // e5
  await waitPly(page, 2);
  assert.deepEqual(await page.locator('.moves .mv').allTextContents(), ['Nf3', 'e5']);
  // Without the option (the next game, set up plainly) a picked piece may be put back.
  await page.goto(server.url + '/');
  if (!(await page.locator('details.more').evaluate((d) => d.open))) await page.click('details.more summary');
  await page.uncheck('[data-field=touchMove]');
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  await clickSquare(page, 'g1');
  await clickSquare(page, 'e2'); // another piece taken instead
  await clickSquare(page, 'e4');
  await waitPly(page, 1);
  assert.deepEqual(await page.locator('.moves .mv').allTextContents(), ['e4']);
});
