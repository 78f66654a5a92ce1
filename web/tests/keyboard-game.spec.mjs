// Issue 11's check: a whole game from the home page to the PGN download by keyboard
// alone (P14, P16, FIDE Laws appendix for visually impaired players), with every
// announcement read back from the aria-live region. Tab and Enter set the game up
// (screen-reader mode, same device, no clock, Play); White moves on the keyboard
// board (arrows, Enter), Black types in the move box (reached with the m key); the
// one-key readings of the screen-reader mode are asked on the way; Tab and Enter
// download the PGN at the end.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, launch, newPage, shot, waitPly } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// Tab (or Shift+Tab) until the focused element matches `selector`.
async function tabTo(page, selector, { back = false, limit = 80 } = {}) {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((sel) => !!document.activeElement?.matches(sel), selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab did not reach ${selector}`);
}

// Everything the aria-live announcer says, in order (the region is made on first use).
async function listen(page) {
  await page.evaluate(() => {
    window.__said = [];
    // Each announcement replaces the region's text node (so the same words twice are said twice).
    new MutationObserver((records) => {
      const el = document.getElementById('announcer');
      if (el && records.some((r) => r.target === el || r.target.parentNode === el)) window.__said.push(el.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
const heard = (page) => page.evaluate(() => window.__said.splice(0));

test('issue 11: a whole game from the home page to the PGN download by keyboard alone, announcements read back', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.waitForSelector('[data-action=play]');
  await tabTo(page, '[data-action=screen-reader]');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('[data-action=screen-reader]').getAttribute('aria-pressed'), 'true');
  await tabTo(page, '[data-field=opponent] [data-value=hotseat]');
  await page.keyboard.press('Enter');
  await tabTo(page, '[data-field=tc] [data-value="-"]');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('[data-field=tc] [data-value="-"]').getAttribute('aria-pressed'), 'true');
  await tabTo(page, '[data-action=play]', { back: true });
  await page.keyboard.press('Enter');
  await page.waitForSelector('.game-screen[data-status=ongoing]');
  await listen(page);

  // The keyboard board: the focus square is known from what it says.
  let at = null;
  const walk = async (to) => {
    const df = to.charCodeAt(0) - at.charCodeAt(0); const dr = Number(to[1]) - Number(at[1]);
    for (let i = 0; i < Math.abs(df); i++) await page.keyboard.press(df > 0 ? 'ArrowRight' : 'ArrowLeft');
    for (let i = 0; i < Math.abs(dr); i++) await page.keyboard.press(dr > 0 ? 'ArrowUp' : 'ArrowDown');
    at = to;
  };
  const boardMove = async (from, to, ply) => {
    await tabTo(page, '.game-screen .board', { back: true });
    if (at === null) { assert.deepEqual(await heard(page), ['e1, white king']); at = 'e1'; }
    await walk(from);
    await page.keyboard.press('Enter');
    await walk(to);
    await page.keyboard.press('Enter');
    await waitPly(page, ply);
  };
  const typed = async (san, ply) => {
    await page.keyboard.press('m');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('move-input')), true);
    await page.keyboard.type(san);
    await page.keyboard.press('Enter');
    await waitPly(page, ply);
  };
  // Only what a move said (the last announcement of each step).
  const said = async () => (await heard(page)).at(-1);

  await boardMove('e2', 'e4', 1);
  assert.equal(await said(), 'White pawn e2 to e4');
  await typed('e5', 2);
  assert.equal(await said(), 'Black pawn e7 to e5');
  await boardMove('f1', 'c4', 3);
  assert.equal(await said(), 'White bishop f1 to c4');
  await typed('Nc6', 4);
  assert.equal(await said(), 'Black knight b8 to c6');
  await boardMove('d1', 'h5', 5);
  assert.equal(await said(), 'White queen d1 to h5');
  // The screen-reader readings, one key each (from the board, which passes them on).
  await page.keyboard.press('l');
  assert.equal(await said(), 'White queen d1 to h5');
  await page.keyboard.press('p');
  assert.match(await said(), /^White: king e1, queen h5, rook a1, rook h1, bishop c1, bishop c4, knight b1, knight g1, pawn /);
  await typed('Nf6', 6);
  assert.equal(await said(), 'Black knight g8 to f6');
  await boardMove('h5', 'f7', 7);
  await page.waitForSelector('.game-screen[data-status=checkmate]');
  assert.equal(await said(), 'White queen h5 takes f7, checkmate. White wins by checkmate');
  await page.keyboard.press('s');
  assert.equal(await said(), '1. White pawn e2 to e4; Black pawn e7 to e5; 2. White bishop f1 to c4; Black knight b8 to c6; '
    + '3. White queen d1 to h5; Black knight g8 to f6; 4. White queen h5 takes f7, checkmate');
  await shot(page, 'keyboard-game-end');

  // The PGN, by Tab and Enter.
  await tabTo(page, '.end-box [data-action=pgn]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  const pgn = fs.readFileSync(await download.path(), 'utf8');
  const movetext = pgn.replace(/\{[^}]*\}/g, ' ').replace(/\d+\.\.\./g, ' ').replace(/\s+/g, ' ');
  assert.match(movetext, /1\. e4 e5 2\. Bc4 Nc6 3\. Qh5 Nf6 4\. Qxf7# 1-0/);
  assert.match(pgn, /\[Result "1-0"\]/);
});
