// Issue 29 item 3: the puzzle page. Solved by mouse, by keyboard (the keyboard board)
// and by a typed move (the screen-reader way); a hint shows the piece, then the square;
// a wrong move shows the solution; a signed-in player's rating changes and the profile
// lists the attempt; a phone in Finnish, by touch; an underpromotion by mouse and by
// keys through the game screen's chooser; the screen-reader mode's keys, in English
// and Finnish; learn from your mistakes in the player's notation; axe on each page.
// The server is our own, started with a starter set of four puzzles written here.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { spawnServer, launch, newPage, shot, tmpDir, startGame, move, waitPly } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';
import { importTs } from './ts-import.mjs';
import { LANGS, leftInEnglish, texts } from './i18n-check.mjs';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const fi = (await importTs(path.join(WEB, 'src', 'i18n', 'fi.ts'))).default;
const fill = (text, params) => text.replace(/\{(\w+)\}/g, (_, k) => params[k]);
const CSV = [
  'PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags',
  // Black's c7-c6, then a back-rank mate by either rook.
  'mate1,6k1/2p2ppp/8/8/8/8/5PPP/RR4K1 b - - 0 1,c7c6 a1a8,1500,80,90,10,mateIn1 backRankMate endgame,/#/game/g1?ply=9,',
  // Black's c5-c4, then Rb7, Kg8, Ra8#.
  'mate2,7k/8/8/2p5/8/8/8/RR4K1 b - - 0 1,c5c4 b1b7 h8g8 a1a8,1600,80,90,10,mateIn2 endgame,/#/game/g2?ply=30,',
  // White's a2-a3, then Black mates with the queen on the back rank.
  'mate3,1q4k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1,a2a3 b8b1,1400,80,90,10,mateIn1 backRankMate,/#/game/g3?ply=11,',
  // Black's a7-a6, then f8=N# (a queen there mates nothing): an underpromotion.
  'promo1,6nb/p4Ppk/7p/8/8/8/8/2K5 b - - 0 1,a7a6 f7f8n,1700,80,90,10,mateIn1 promotion underPromotion,/#/game/g4?ply=41,',
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
  // The warning of the tooltip is also the button's description, for screen readers.
  const described = await page.locator('[data-action=hint]').evaluate(
    (b) => document.getElementById(b.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
  assert.match(described, /counts as a failed puzzle/);
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

  // In Finnish, with the screen-reader mode: the moves in Finnish letters (Qxd5 is Dxd5),
  // the keys say what is asked, the move before (none: Kf2 was the first) and the result.
  const learnUrl = page.url();
  await page.evaluate(() => localStorage.setItem('outpost.settings', JSON.stringify({ ...JSON.parse(localStorage.getItem('outpost.settings') ?? '{}'), screenReader: true })));
  await page.goto(learnUrl.replace('/#/', '/?lang=fi#/'));
  await page.waitForFunction(() => /Kf2/.test(document.querySelector('[data-learn=status]')?.textContent ?? ''));
  const intro = fill(fi.lmIntro, { n: 1, total: 1, move: 'Kf2', mark: fi.lmMark_blunder });
  assert.equal(await page.locator('[data-learn=status]').textContent(), intro);
  await page.waitForSelector('.learn-page .nvui:not([hidden])');
  await page.keyboard.press('l');
  assert.equal(await said(page), fi.noMoves);
  await page.keyboard.press('t');
  assert.equal(await said(page), intro);
  const fiBox = await page.locator('.learn-page cg-board').boundingBox();
  for (const sq of ['d1', 'd5']) {
    await page.mouse.click(fiBox.x + (sq.charCodeAt(0) - 97 + 0.5) * fiBox.width / 8, fiBox.y + (8 - Number(sq[1]) + 0.5) * fiBox.width / 8);
    await page.waitForTimeout(60);
  }
  await page.waitForFunction((want) => document.querySelector('[data-learn=status]')?.textContent === want,
    fill(fi.lmGood, { move: 'Dxd5' }), { timeout: 20000 });
  assert.match(await page.locator('[data-learn=line]').textContent(), new RegExp(`^${fill(fi.lmLine, { line: 'Dxd5' })}`));
  await page.keyboard.press('s');
  assert.match(await said(page), new RegExp(`^${fill(fi.lmGood, { move: 'Dxd5' })} ${fill(fi.lmLine, { line: 'Dxd5' })}`));
  await page.keyboard.press('n');
  assert.equal(await said(page), fi.lmLast);
  await assertAccessible(page, 'learn from your mistakes in Finnish, screen-reader mode');
  assert.deepEqual(leftInEnglish(await texts(page, 'body'), 'fi'), [], 'learn from your mistakes still in English');
  for (const lang of LANGS.filter((l) => l !== 'en' && l !== 'fi')) {
    await page.goto(learnUrl.replace('/#/', `/?lang=${lang}#/`));
    await page.waitForFunction(() => /Kf2/.test(document.querySelector('[data-learn=status]')?.textContent ?? ''));
    await page.waitForSelector('.learn-page .nvui:not([hidden])');
    assert.deepEqual(leftInEnglish(await texts(page, 'body'), lang), [], `learn from your mistakes still in English (${lang})`);
    await assertAccessible(page, `learn from your mistakes in ${lang}, screen-reader mode`);
  }
});

// Issue 29, what was left: a pawn to the last rank asks which piece, as on the game
// screen; Escape puts the pawn back; the knight solves the puzzle (f8=N#).
test('Issue 29: an underpromotion by mouse: the chooser asks, Escape cancels, the knight mates', async () => {
  const page = await newPage(browser, server.url + '/#/puzzles/promo1');
  await waitStatus(page, /White to move/);
  await click(page, 'f7'); await click(page, 'f8');
  await page.waitForSelector('.puzzle-page .promotion .promo-piece');
  await assertAccessible(page, 'the promotion chooser on the puzzle page');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.puzzle-page .promotion', { state: 'detached' });
  await page.waitForFunction(() => [...document.querySelectorAll('.puzzle-page cg-board piece.white.pawn')].some((p) => p.cgKey === 'f7'));
  assert.equal(await page.locator('.puzzle-page').getAttribute('data-phase'), 'solving');
  await click(page, 'f7'); await click(page, 'f8');
  await page.locator('.puzzle-page .promotion [data-piece=n]').click();
  await waitStatus(page, /Solved/);
  assert.match(await page.locator('[data-puzzle=solution]').textContent(), /f8=N#/);
  assert.equal(await page.locator('.puzzle-page cg-board piece.white.knight').count(), 1);
});

test('Issue 29: an underpromotion by keyboard: a typed f8 asks too; the keyboard board, then N in the chooser', async () => {
  const page = await newPage(browser, server.url + '/#/puzzles/promo1');
  await waitStatus(page, /White to move/);
  // A typed pawn move that names no piece asks which (Escape: nothing played).
  for (const typed of ['f8', 'f7f8']) {
    await page.locator('[data-action=move-input]').fill(typed);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.puzzle-page .promotion .promo-piece');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.puzzle-page .promotion', { state: 'detached' });
    assert.equal(await page.locator('.puzzle-page').getAttribute('data-phase'), 'solving');
  }
  await page.locator('[data-action=settings]').focus();
  await page.keyboard.press('Tab');
  // e1 first; f7 is one right and six up, f8 one more.
  await page.keyboard.press('ArrowRight');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowUp');
  assert.equal(await said(page), 'f7, white pawn');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.puzzle-page .promotion .promo-piece');
  await page.keyboard.press('n');
  await waitStatus(page, /Solved/);
  assert.match(await page.locator('[data-puzzle=solution]').textContent(), /f8=N#/);
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('board')), true, 'the focus back on the board');
});

// Everything the live region says, in order (as keyboard-game.spec.mjs listens).
async function listen(page) {
  await page.evaluate(() => {
    window.__said = [];
    new MutationObserver((records) => {
      const el = document.getElementById('announcer');
      if (el && records.some((r) => r.target === el || r.target.parentNode === el)) window.__said.push(el.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
const heard = (page) => page.evaluate(() => window.__said.splice(0));
async function screenReaderOn(page) {
  await page.locator('[data-action=screen-reader]').click();
  assert.equal(await page.locator('[data-action=screen-reader]').getAttribute('aria-pressed'), 'true');
}

// P16 on the puzzle page: with the screen-reader mode on, a two-move puzzle solved by
// keys alone, each reading one key, every announcement checked.
test('Issue 29: screen-reader mode: a puzzle solved by keys alone, what is asked, the last move, the hint, the result, the next', async () => {
  const page = await newPage(browser, server.url + '/');
  await screenReaderOn(page);
  await listen(page);
  await page.goto(server.url + '/#/puzzles/mate2');
  await waitStatus(page, /White to move/);
  await page.waitForSelector('.puzzle-page .nvui:not([hidden])');
  assert.deepEqual(await heard(page), ['Black pawn c5 to c4. White to move: find the best move.']);
  await assertAccessible(page, 'the puzzle page in screen-reader mode');
  const key = async (k) => { await page.keyboard.press(k); return said(page); };
  assert.equal(await key('t'), 'White to move: find the best move.');
  assert.equal(await key('l'), 'Black pawn c5 to c4');
  assert.equal(await key('p'), 'White: king g1, rook a1, rook b1. Black: king h8, pawn c4');
  assert.match(await key('r'), /^Rank 8: h8 black king\. Rank 7: empty\. .* Rank 1: a1 white rook, b1 white rook, g1 white king$/);
  assert.deepEqual(await page.locator('.puzzle-page .nvui-output p').allTextContents(), ['Rank 8: h8 black king.', 'Rank 7: empty.', 'Rank 6: empty.',
    'Rank 5: empty.', 'Rank 4: c4 black pawn.', 'Rank 3: empty.', 'Rank 2: empty.', 'Rank 1: a1 white rook, b1 white rook, g1 white king'],
  'the answer stays written in the panel, a line a rank');
  await page.keyboard.press('h');
  await waitStatus(page, /the piece on b1/);
  assert.equal(await said(page), 'Hint: move the piece on b1.');
  await heard(page);
  // The keyboard board: e1 first; b1, then b7.
  await page.locator('[data-action=settings]').focus();
  await page.keyboard.press('Tab');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__said.includes('Black king h8 to g8'), null, { timeout: 5000 });
  const solving = await heard(page);
  assert.deepEqual(solving.slice(-3), ['White rook b1 to b7', 'Best move! Keep going.', 'Black king h8 to g8']);
  // From the board, the keys are passed on: the opponent's last move is the reply now.
  assert.equal(await key('l'), 'Black king h8 to g8');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await waitStatus(page, /Solved/);
  assert.equal(await said(page), 'Solved!');
  assert.equal(await key('s'), 'Solved! You are solving as a guest: sign in to get a puzzle rating. Solution: Rb7 Kg8 Ra8#');
  await page.keyboard.press('n');
  await page.waitForFunction(() => !location.hash.endsWith('/mate2') && document.querySelector('.puzzle-page')?.dataset.phase === 'solving');
  assert.match(await said(page), /to move: find the best move\.$/);
});

test('Issue 29: screen-reader mode in Finnish: the readings in Finnish words, the solution in Finnish letters; a phone', async () => {
  const page = await newPage(browser, server.url + '/?lang=fi');
  await screenReaderOn(page);
  await page.goto(server.url + '/?lang=fi#/puzzles/mate3');
  const asked = fill(fi.pzYourTurn, { side: fi.black });
  await waitStatus(page, new RegExp(asked.replace('.', '\\.')));
  await page.waitForSelector('.puzzle-page .nvui:not([hidden])');
  assert.equal(await page.locator('.puzzle-page [data-nvui=task]').textContent(), `T ${fi.trCmdTask}`);
  const key = async (k) => { await page.keyboard.press(k); return said(page); };
  assert.equal(await key('t'), asked);
  assert.equal(await key('l'), fill(fi.sayMove, { side: fi.white, piece: fi.piece_pawn, from: 'a2', to: 'a3' }));
  await page.locator('[data-action=move-input]').fill('Db1');
  await page.keyboard.press('Enter');
  await waitStatus(page, new RegExp(fi.pzSolved));
  await page.evaluate(() => (document.activeElement instanceof HTMLElement) && document.activeElement.blur());
  assert.equal(await key('s'), `${fi.pzSolved} ${fi.pzGuest} ${fill(fi.pzSolution, { moves: 'Db1#' })}`);
  for (const width of [360, 390, 430]) {
    await page.setViewportSize({ width, height: 844 });
    await page.waitForTimeout(300); // chessground redraws the board for the new size
    const { sw, culprit } = await page.evaluate(() => {
      const over = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
      return { sw: document.documentElement.scrollWidth, culprit: over.join('; ') };
    });
    assert.ok(sw <= width, `no sideways scrolling at ${width} px: ${sw} (${culprit})`);
  }
  await assertAccessible(page, 'the puzzle page in Finnish, screen-reader mode, on a phone');
});

// Item 4: the puzzle page in every language, with the screen-reader panel open, after a
// hint and a wrong move: nothing left in English, axe finds nothing serious.
test('Issue 29: the puzzle page in all six languages: no English left, axe', async () => {
  for (const lang of LANGS) {
    const page = await newPage(browser, `${server.url}/?lang=${lang}`);
    await page.evaluate(() => localStorage.setItem('outpost.settings', JSON.stringify({ ...JSON.parse(localStorage.getItem('outpost.settings') ?? '{}'), screenReader: true })));
    await page.goto(`${server.url}/?lang=${lang}#/puzzles/mate2`);
    await page.reload(); // the settings are read when the page loads
    await page.waitForFunction(() => document.querySelector('.puzzle-page')?.dataset.phase === 'solving');
    await page.waitForSelector('.puzzle-page .nvui:not([hidden])');
    await page.waitForFunction(() => document.querySelectorAll('[data-puzzle=theme] option').length > 1);
    if (lang !== 'en') assert.deepEqual(leftInEnglish(await texts(page, 'body'), lang), [], `the puzzle page still in English (${lang})`);
    await assertAccessible(page, `the puzzle page in ${lang}`);
    await page.locator('[data-action=hint]').click();
    await page.waitForFunction(() => /b1/.test(document.querySelector('[data-puzzle=status]')?.textContent ?? ''));
    await click(page, 'a1'); await click(page, 'a7');
    await page.waitForFunction(() => document.querySelector('.puzzle-page')?.dataset.phase === 'failed');
    await page.locator('[data-nvui=result]').click();
    if (lang !== 'en') assert.deepEqual(leftInEnglish(await texts(page, 'body'), lang), [], `the failed puzzle still in English (${lang})`);
    await assertAccessible(page, `a failed puzzle in ${lang}`);
    await page.context().close();
  }
});

// The next puzzle asked for while the server still judges a move: its answer, about the
// puzzle left, changes nothing on the new one.
test('Issue 29: an answer about the puzzle left behind is dropped', async () => {
  const page = await newPage(browser, server.url + '/#/puzzles/mate2');
  await waitStatus(page, /White to move/);
  let release; const held = new Promise((r) => { release = r; });
  await page.route('**/api/v1/puzzles/mate2/attempt', async (route) => { await held; await route.continue(); });
  await click(page, 'b1'); await click(page, 'b7');
  await page.waitForFunction(() => document.querySelector('.puzzle-page')?.dataset.phase === 'waiting');
  await page.locator('[data-action=next]').click();
  await page.waitForFunction(() => !location.hash.endsWith('/mate2') && document.querySelector('.puzzle-page')?.dataset.phase === 'solving');
  const asked = await status(page);
  release();
  await page.waitForResponse('**/api/v1/puzzles/mate2/attempt');
  await page.waitForTimeout(800); // past the opponent's reply (450 ms) it would have played
  assert.equal(await status(page), asked);
  assert.equal(await page.locator('.puzzle-page').getAttribute('data-phase'), 'solving');
});
