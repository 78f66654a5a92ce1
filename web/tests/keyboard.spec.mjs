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
  await page.locator('[data-action=close-settings]').focus();
  await page.keyboard.press('p'); // the open dialog keeps the keys: no reading
  assert.equal(await said(), '1. White rook a1 to a8, checkmate');
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

// P16, FIDE Laws appendix for visually impaired players: announcements spoken through
// the Web Speech API in the UI language's voice; the FIDE phonetic words (Anna …
// Hector, Koenig … Bauer, eins … acht); no voice (or no API) speaks nothing, raises no
// error, and the Settings dialog says so. The browser's speech is replaced by a
// recorder here: the test reads what would be spoken and with which voice.
const fakeSpeech = (voices) => `(() => {
  const voices = ${JSON.stringify(voices)};
  window.__spoken = [];
  window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ''; this.voice = null; } };
  const api = { getVoices: () => voices, cancel() {}, speak: (u) => window.__spoken.push({ text: u.text, lang: u.lang, voice: u.voice && u.voice.name }) };
  Object.defineProperty(window, 'speechSynthesis', { value: api, configurable: true });
})();`;

async function speechPage(url, init) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, errors };
}

async function typeMoves(page, moves, from = 0) {
  for (let i = 0; i < moves.length; i++) {
    await page.fill('.move-input', moves[i]);
    await page.press('.move-input', 'Enter');
    await waitPly(page, from + i + 1);
  }
}

test('P16: moves spoken in the UI language\'s voice; FIDE phonetic words; no voice, no error', async () => {
  // Finnish with a Finnish and a German voice.
  const { page, errors } = await speechPage(server.url + '/?lang=fi', fakeSpeech([
    { name: 'Test de', lang: 'de-DE' }, { name: 'Test fi', lang: 'fi-FI' }]));
  await page.waitForSelector('[data-action=play]');
  await page.click('[data-action=settings]');
  await page.check('[data-setting=speak]');
  assert.equal(await page.locator('[data-hint=no-voice]').isHidden(), true, 'a Finnish voice is there');
  await page.click('[data-action=close-settings]');
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  await typeMoves(page, ['e4']);
  let spoken = await page.evaluate(() => window.__spoken);
  assert.deepEqual(spoken.at(-1), { text: await page.locator('#announcer').textContent(), lang: 'fi-FI', voice: 'Test fi' });
  assert.equal(spoken.at(-1).text, `${fi.white}: ${fi.piece_pawn} e2–e4`);
  await page.click('[data-action=settings]');
  await page.check('[data-setting=phonetic]');
  await page.click('[data-action=close-settings]');
  await typeMoves(page, ['e5', 'Nf3', 'd6', 'Bb5+'], 1);
  spoken = await page.evaluate(() => window.__spoken);
  assert.deepEqual(spoken.slice(-4).map((s) => s.text), ['Bauer Eva sieben – Eva fuenf', 'Springer Gustav eins – Felix drei',
    'Bauer David sieben – David sechs', 'Laeufer Felix eins – Bella fuenf Schach']);
  assert.equal(spoken.at(-1).voice, 'Test fi', 'the UI language\'s voice reads the phonetic words too');
  // The readings say squares the same way.
  await page.fill('.move-input', '/b5');
  await page.press('.move-input', 'Enter');
  assert.match(await page.locator('#announcer').textContent(), /^Bella fuenf: /);
  // And so does the keyboard board.
  await page.locator('[data-action=settings]').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.locator('#announcer').textContent(), `Eva eins, ${fi.white.toLowerCase()} ${fi.piece_king}`);
  assert.deepEqual(errors, []);
  await page.context().close();

  // Thai with only a German voice: plain words are not spoken (no Thai voice),
  // the phonetic (German) words are, by the German voice.
  const th = await speechPage(server.url + '/?lang=th', fakeSpeech([{ name: 'Test de', lang: 'de-DE' }]));
  await th.page.waitForSelector('[data-action=play]');
  await th.page.click('[data-action=settings]');
  await th.page.check('[data-setting=speak]');
  assert.equal(await th.page.locator('[data-hint=no-voice]').isVisible(), true, 'no Thai voice: said in Settings');
  await th.page.click('[data-action=close-settings]');
  await startGame(th.page, { opponent: 'hotseat', tc: '-' });
  await typeMoves(th.page, ['e4']);
  assert.deepEqual(await th.page.evaluate(() => window.__spoken), []);
  assert.notEqual(await th.page.locator('#announcer').textContent(), '');
  await th.page.click('[data-action=settings]');
  await th.page.check('[data-setting=phonetic]');
  assert.equal(await th.page.locator('[data-hint=no-voice]').isHidden(), true);
  await th.page.click('[data-action=close-settings]');
  await typeMoves(th.page, ['e5'], 1);
  assert.deepEqual(await th.page.evaluate(() => window.__spoken), [{ text: 'Bauer Eva sieben – Eva fuenf', lang: 'de-DE', voice: 'Test de' }]);
  assert.deepEqual(th.errors, []);
  await th.page.context().close();

  // No Web Speech API at all: speech on, moves still announced, no error.
  const none = await speechPage(server.url + '/', 'delete window.speechSynthesis; delete Window.prototype.speechSynthesis; delete window.SpeechSynthesisUtterance;');
  await none.page.waitForSelector('[data-action=play]');
  assert.equal(await none.page.evaluate(() => 'speechSynthesis' in window || 'SpeechSynthesisUtterance' in window), false);
  await none.page.click('[data-action=settings]');
  await none.page.check('[data-setting=speak]');
  assert.equal(await none.page.locator('[data-hint=no-voice]').isVisible(), true);
  await none.page.click('[data-action=close-settings]');
  await startGame(none.page, { opponent: 'hotseat', tc: '-' });
  await typeMoves(none.page, ['d4']);
  assert.equal(await none.page.locator('#announcer').textContent(), 'White pawn d2 to d4');
  assert.deepEqual(none.errors, []);
  await none.page.context().close();
});
