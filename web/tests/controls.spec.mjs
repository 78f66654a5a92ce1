// P4 sound (remembered), P5 full screen and zen, P7 flip, settings and P17 languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, startGame } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('sound, flip, zen, full screen', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'robot', color: 'white', tc: '5+0' });
  await assertAccessible(page, 'a game against the robot');
  const sound = page.locator('[data-tool=sound]');
  assert.equal(await sound.getAttribute('aria-pressed'), 'true');
  await sound.click();
  assert.equal(await sound.getAttribute('aria-pressed'), 'false');
  await page.reload();
  await page.waitForSelector('.game-screen[data-status]');
  assert.equal(await page.locator('[data-tool=sound]').getAttribute('aria-pressed'), 'false', 'remembered');
  await page.locator('[data-tool=sound]').click();

  assert.equal(await page.locator('.cg-wrap.orientation-white').count(), 1);
  await page.click('[data-tool=flip]');
  assert.equal(await page.locator('.cg-wrap.orientation-black').count(), 1);
  await page.click('[data-tool=flip]');

  await page.click('[data-tool=zen]');
  assert.ok(await page.evaluate(() => document.body.classList.contains('zen')));
  assert.equal(await page.locator('.side').isVisible(), false);
  assert.ok(await page.locator('.clock').first().isVisible());
  await shot(page, 'zen');
  await page.click('.zen-exit');
  assert.equal(await page.locator('.side').isVisible(), true);

  await page.click('[data-tool=fullscreen]');
  await page.waitForFunction(() => !!document.fullscreenElement, null, { timeout: 3000 });
  await page.click('[data-tool=fullscreen]');
  await page.waitForFunction(() => !document.fullscreenElement, null, { timeout: 3000 });
});

test('settings and languages', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('[data-action=settings]');
  await page.waitForSelector('dialog.settings[open]');
  await shot(page, 'settings');
  await page.check('[data-setting=premoveQueue]');
  await page.selectOption('[data-setting=lang]', 'fi');
  // The page re-renders once the language's fonts are in (src/fonts.ts): waited for, as
  // below (without the wait the old page's 'Play' was read once in a CI run).
  await page.waitForFunction(() => document.documentElement.lang === 'fi');
  await page.waitForFunction(() => document.querySelector('[data-action=play]')?.textContent === 'Pelaa');
  assert.equal(await page.locator('[data-action=play]').textContent(), 'Pelaa');
  await shot(page, 'home-fi');
  for (const [lang, play] of [['ja', '対局する'], ['zh', '开始对局'], ['th', 'เล่น'], ['mr', 'खेळा']]) {
    await page.click('[data-action=settings]');
    await page.selectOption('[data-setting=lang]', lang);
    // The page re-renders once the language's fonts are in (src/fonts.ts).
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    await page.waitForFunction((t) => document.querySelector('[data-action=play]')?.textContent === t, play);
    assert.equal(await page.locator('[data-action=play]').textContent(), play);
  }
  await shot(page, 'home-mr');
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('outpost.settings')));
  assert.equal(stored.premoveQueue, true);
  assert.equal(stored.lang, 'mr');
});

// P15 blindfold (the pieces hidden, the moves still announced) and P16's high-contrast
// board: both settings, both remembered after a reload.
test('P15, P16: blindfold and high-contrast board, remembered', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('[data-action=settings]');
  await page.check('[data-setting=blindfold]');
  await page.check('[data-setting=highContrast]');
  await page.click('[data-action=close-settings]');
  assert.ok(await page.evaluate(() => document.body.classList.contains('high-contrast')));
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  await page.waitForSelector('.game-screen cg-board piece', { state: 'attached' });
  const visiblePieces = () => page.locator('.game-screen cg-board piece').evaluateAll((els) =>
    els.filter((e) => getComputedStyle(e).visibility !== 'hidden').length);
  assert.equal(await visiblePieces(), 0, 'blindfold: no piece drawn');
  await page.fill('.move-input', 'Nf3');
  await page.press('.move-input', 'Enter');
  await page.waitForSelector('.game-screen[data-ply="1"]');
  assert.equal(await page.locator('#announcer').textContent(), 'White knight g1 to f3');
  assert.equal(await page.locator('.moves .mv').first().textContent(), 'Nf3');
  const squares = () => page.locator('.game-screen cg-board').evaluate((b) => getComputedStyle(b).backgroundImage);
  assert.match(await squares(), /conic-gradient/, 'high-contrast squares');
  await assertAccessible(page, 'a game with blindfold and high contrast');
  await shot(page, 'blindfold-high-contrast');
  await page.reload();
  await page.waitForSelector('.game-screen[data-ply="1"] cg-board piece', { state: 'attached' });
  assert.equal(await visiblePieces(), 0, 'blindfold remembered');
  assert.match(await squares(), /conic-gradient/, 'high contrast remembered');
  await page.click('[data-action=settings]');
  await page.uncheck('[data-setting=blindfold]');
  await page.uncheck('[data-setting=highContrast]');
  await page.click('[data-action=close-settings]');
  assert.equal(await visiblePieces(), 32);
  assert.doesNotMatch(await squares(), /conic-gradient/);
});
