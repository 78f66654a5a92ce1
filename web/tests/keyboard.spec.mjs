// P14: moves typed as SAN or coordinates; P16: moves announced in words.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, waitPly, startGame } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';
import { importTs } from './ts-import.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const fi = (await importTs(path.join(WEB, 'src', 'i18n', 'fi.ts'))).default;

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('keyboard move entry and announcements', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  const typed = ['e4', 'e7e5', 'Nf3', 'b8c6', 'Bc4', 'Nf6', '0-0'];
  for (let i = 0; i < typed.length; i++) {
    await page.fill('.move-input', typed[i]);
    await page.press('.move-input', 'Enter');
    await waitPly(page, i + 1);
  }
  assert.deepEqual(await page.locator('.moves .mv').allTextContents(), ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Nf6', 'O-O']);
  assert.equal(await page.locator('#announcer').textContent(), 'White castles kingside');
  await page.fill('.move-input', 'Nxe4');
  await page.press('.move-input', 'Enter');
  await waitPly(page, 8);
  assert.equal(await page.locator('#announcer').textContent(), 'Black knight f6 takes e4');
  // Commands: a square's piece.
  await page.fill('.move-input', '/e4');
  await page.press('.move-input', 'Enter');
  assert.equal(await page.locator('#announcer').textContent(), 'e4: Black knight');
  // FIDE phonetic announcements (setting).
  await page.click('[data-action=settings]');
  await page.check('[data-setting=phonetic]');
  await page.click('[data-action=close-settings]');
  await page.fill('.move-input', 'Re1');
  await page.press('.move-input', 'Enter');
  await waitPly(page, 9);
  assert.equal(await page.locator('#announcer').textContent(), 'Turm Felix eins – Eva eins');
  await shot(page, 'keyboard-entry');
});

// Screen-reader mode (P16, after lichess's NVUI): switched on from the home page; on
// the game screen one key each gives the position by rank, by file and by piece, the
// clocks, the last move and the move list; the mating move and the end are announced
// in words. The same in Finnish, in Finnish words.
test('P16: screen-reader mode from the home page, one key per reading, mate and the end announced', async () => {
  const page = await newPage(browser, server.url + '/');
  const toggle = page.locator('[data-action=screen-reader]');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  await startGame(page, { opponent: 'hotseat', tc: '5+0', start: '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1' });
  await page.waitForSelector('.nvui:not([hidden])');
  await assertAccessible(page, 'a game in screen-reader mode');
  const said = () => page.locator('#announcer').textContent();
  const key = async (k) => { await page.keyboard.press(k); return said(); };
  assert.equal(await key('r'), 'Rank 8: g8 black king. Rank 7: f7 black pawn, g7 black pawn, h7 black pawn. Rank 6: empty. '
    + 'Rank 5: empty. Rank 4: empty. Rank 3: empty. Rank 2: f2 white pawn, g2 white pawn, h2 white pawn. Rank 1: a1 white rook, g1 white king');
  assert.match(await key('v'), /^File a: a1 white rook\. File b: empty\. .* File g: g1 white king, g2 white pawn, g7 black pawn, g8 black king\. File h: h2 white pawn, h7 black pawn$/);
  assert.equal(await key('p'), 'White: king g1, rook a1, pawn f2, pawn g2, pawn h2. Black: king g8, pawn f7, pawn g7, pawn h7');
  assert.match(await key('c'), /^White: [45] minutes \d+ seconds?, Black: 5 minutes 0 seconds$/);
  assert.equal(await key('l'), 'No moves yet');
  assert.equal(await page.locator('.nvui-output').innerText(), 'No moves yet', 'the answer stays written in the panel');
  // The buttons do what the keys do.
  await page.click('[data-nvui=pieces]');
  assert.match(await said(), /^White: king g1/);
  await page.fill('.move-input', 'Ra8');
  await page.press('.move-input', 'Enter');
  await page.waitForSelector('.game-screen[data-status=checkmate]');
  assert.equal(await said(), 'White rook a1 to a8, checkmate. White wins by checkmate');
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  assert.equal(await key('s'), '1. White rook a1 to a8, checkmate');
  // Off again in Settings: the keys are the page's own again (no announcement).
  await page.click('[data-action=settings]');
  assert.equal(await page.isChecked('[data-setting=screenReader]'), true);
  await page.uncheck('[data-setting=screenReader]');
  await page.click('[data-action=close-settings]');
  assert.equal(await page.locator('.nvui').isHidden(), true);

  // Finnish: the same readings in Finnish words.
  const fiPage = await newPage(browser, server.url + '/?lang=fi');
  await fiPage.click('[data-action=screen-reader]');
  await startGame(fiPage, { opponent: 'hotseat', tc: '-', start: '6k1/8/8/8/8/8/8/R5K1 w - - 0 1' });
  await fiPage.keyboard.press('v');
  const text = await fiPage.locator('#announcer').textContent();
  assert.ok(text.startsWith(`${fi.sayFile.replace('{file}', 'a').replace('{pieces}', `a1 ${fi.white.toLowerCase()} ${fi.piece_rook}`)}.`), text);
  await fiPage.keyboard.press('c');
  assert.equal(await fiPage.locator('#announcer').textContent(), fi.unlimited);
  assert.equal(await fiPage.locator('[data-nvui=ranks]').textContent(), `R ${fi.srCmdRanks}`);
  await fiPage.context().close();
  await page.context().close();
});
