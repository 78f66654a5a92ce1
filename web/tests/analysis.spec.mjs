// Issue 10 (SPEC E4): the analysis of a finished game in the browser, against a real
// server and its engine: Analyse at the end of the game, progress, then the graph, the
// blunder marked in the move list, the per-side summary, the best move on the board,
// and clicking a move or the graph goes there; My games offers Analyse too, and the
// second time the stored analysis comes back at once.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, startGame, pieceSquares } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('E4: Analyse after the fool\'s mate marks 2. g4 as a blunder, with graph, summary and arrow', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  const moves = [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']];
  for (let i = 0; i < moves.length; i++) {
    await move(page, ...moves[i]);
    await waitPly(page, i + 1);
  }
  await page.waitForSelector('.game-screen[data-status=checkmate]');
  const gameId = /#\/game\/(\w+)/.exec(page.url())[1];

  await page.click('[data-action=analyse]');
  // Progress first (or already done on a fast machine), then the result.
  await page.waitForSelector('.analysis[data-phase]');
  await page.waitForSelector('.analysis[data-phase=done]', { timeout: 60000 });
  assert.equal(await page.locator('[data-action=analyse]').count(), 0, 'the button goes once the analysis is there');

  // The graph is uPlot's canvas, with an accessible name.
  assert.equal(await page.locator('.eval-graph canvas').count(), 1);
  assert.ok((await page.locator('.eval-graph').getAttribute('aria-label')).length > 10);

  // 2. g4 is the blunder: coloured, with its glyph, and in words for screen readers.
  const g4 = page.locator('.mv[data-ply="3"]');
  assert.equal(await g4.getAttribute('data-mark'), 'blunder');
  assert.match(await g4.getAttribute('class'), /mark-blunder/);
  assert.equal(await g4.textContent(), 'g4??');
  assert.match(await g4.getAttribute('aria-label'), /Blunder/);
  assert.equal(await page.locator('.mv[data-mark=blunder]').count(), 1, 'only g4 is a blunder');
  assert.equal(await page.locator('.mv[data-ply="2"][data-mark], .mv[data-ply="4"][data-mark]').count(), 0, 'Black played well');

  // The summary counts per side.
  const count = (side, k) => page.locator(`.analysis-summary tr[data-count=${k}] td[data-side=${side}]`).textContent();
  assert.equal(await count('white', 'blunder'), '1');
  assert.equal(await count('black', 'blunder'), '0');
  assert.equal(await count('black', 'mistake'), '0');
  assert.match(await count('white', 'accuracy'), /%$/);
  await shot(page, 'analysis-done');
  await assertAccessible(page, 'the analysis view');

  // Clicking a move goes to that position, and the engine's best move there is an arrow.
  await page.locator('.mv[data-ply="1"]').click();
  assert.equal(await page.locator('.mv.active').getAttribute('data-ply'), '1');
  await page.waitForTimeout(400); // the pieces' animation
  let white = await pieceSquares(page, 'white');
  assert.ok(white.includes('f3') && white.includes('g2') && !white.includes('g4'), `position after 1. f3: ${white}`);
  await page.waitForSelector('.cg-shapes line, .cg-shapes path', { state: 'attached' });
  await page.locator('.mv[data-ply="3"]').click();
  assert.match(await page.locator('.analysis-comment').textContent(), /Blunder/);
  await page.waitForTimeout(400);
  white = await pieceSquares(page, 'white');
  assert.ok(white.includes('g4'), `position after 2. g4: ${white}`);

  // Clicking the graph: its middle is the middle of the game (ply 2 of 4).
  const box = await page.locator('.eval-graph .u-over').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  assert.equal(await page.locator('.mv.active').getAttribute('data-ply'), '2');
  // The left end: the start position.
  await page.mouse.click(box.x + 2, box.y + box.height / 2);
  assert.equal(await page.locator('cg-board piece').count(), 32);

  // My games offers Analyse for the finished game; the stored analysis comes at once.
  await page.goto(server.url + '/#/games');
  const link = page.locator(`li[data-game="${gameId}"] [data-action=analyse]`);
  await link.waitFor();
  await link.click();
  await page.waitForSelector('.analysis[data-phase=done]', { timeout: 5000 });
  assert.equal(await page.locator('.mv[data-mark=blunder]').count(), 1);

  // The keyboard reaches the analysis: the move buttons are buttons, the summary a table.
  assert.equal(await page.locator('.analysis-summary caption').count(), 1);
  await page.close();
});
