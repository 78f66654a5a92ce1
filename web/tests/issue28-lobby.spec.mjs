// Issue 28, item 9: the lobby shows the colour the one who accepts a seek gets, time
// controls as players write them ("10+0"), days in the UI language, styled fields.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, move, waitPly, shot } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('item 9: a White 10+0 seek reads "10+0" and "Black" for the accepter, who plays Black', async () => {
  const seeker = await newPage(browser, server.url + '/#/lobby');
  const taker = await newPage(browser, server.url + '/#/lobby');
  await seeker.waitForSelector('form.seek-form');
  await seeker.selectOption('[data-field=seek-tc]', '10+0');
  await seeker.selectOption('[data-field=seek-color]', 'white');
  await seeker.click('[data-action=create-seek]');
  const row = taker.locator('[data-seek]').filter({ has: taker.locator('[data-action=accept-seek]') }).first();
  await row.waitFor();
  const cells = await row.locator('td').allTextContents();
  assert.ok(cells.includes('10+0'), cells.join(' | '));
  assert.ok(cells.includes('Black'), cells.join(' | '));
  assert.ok(!cells.includes('White'), cells.join(' | '));
  // The seeker's own row says the seeker's colour.
  await seeker.waitForSelector('[data-seek] [data-action=cancel-seek]');
  assert.ok((await seeker.locator('[data-seek] td').allTextContents()).includes('White'));
  // The fields are drawn, not bare widgets.
  const radius = await taker.locator('[data-field=seek-tc]').evaluate((e) => getComputedStyle(e).borderTopLeftRadius);
  assert.notEqual(radius, '0px');
  await row.locator('[data-action=accept-seek]').click();
  await taker.waitForSelector('.game-screen[data-you]');
  assert.equal(await taker.locator('.game-screen').getAttribute('data-you'), 'black');
  await seeker.close(); await taker.close();
});

test('item 9: "1 day" and "3 days" in the language of the UI', async () => {
  const page = await newPage(browser, server.url + '/?lang=fi#/lobby');
  await page.waitForSelector('form.seek-form');
  const options = await page.locator('[data-field=seek-tc] option').allTextContents();
  assert.ok(options.includes('1 päivä') && options.includes('3 päivää'), options.join(' | '));
  assert.ok(!options.some((o) => /day/.test(o)), options.join(' | '));
});

test('item 2\'s defect in the lobby: an update of the lobby keeps the focus where it was', async () => {
  const page = await newPage(browser, server.url + '/#/lobby');
  await page.waitForSelector('[data-quick="5+3"]');
  await page.focus('[data-quick="5+3"]');
  const other = await newPage(browser, server.url + '/#/lobby');
  await other.waitForSelector('form.seek-form');
  await other.selectOption('[data-field=seek-tc]', '15+10');
  await other.click('[data-action=create-seek]');
  await page.waitForSelector('[data-seek]');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-quick')), '5+3');
  await page.close(); await other.close();
});

test('item 9: counts at the quick-pairing buttons, live mini boards to click, a claimed seat\'s name', async () => {
  const watcher = await newPage(browser, server.url + '/#/lobby');
  const anna = await newPage(browser, server.url + '/#/lobby');
  const boris = await newPage(browser, server.url + '/#/lobby');
  const count = (page, tc, what) => page.locator(`[data-quick="${tc}"]`).getAttribute(`data-${what}`).then(Number);
  await watcher.waitForSelector('[data-quick="30+0"][data-waiting]');
  const playingBefore = await count(watcher, '30+0', 'playing');
  await anna.waitForSelector('[data-quick="30+0"]');
  await anna.click('[data-quick="30+0"]');
  await watcher.waitForFunction(() => Number(document.querySelector('[data-quick="30+0"]')?.getAttribute('data-waiting')) >= 1);
  assert.match(await watcher.locator('[data-quick="30+0"]').textContent(), /waiting/);
  await boris.click('[data-quick="30+0"]');
  await anna.waitForSelector('.game-screen[data-you]');
  await boris.waitForSelector('.game-screen[data-you]');
  const [white, black] = (await anna.locator('.game-screen').getAttribute('data-you')) === 'white' ? [anna, boris] : [boris, anna];
  await move(white, 'e2', 'e4');
  await waitPly(black, 1);
  const id = /#\/game\/([\w-]+)/.exec(white.url())[1];
  const card = watcher.locator(`[data-watch="${id}"]`);
  await card.waitFor();
  assert.equal(await card.locator('piece').count(), 32, 'a mini board with the position');
  assert.ok(await count(watcher, '30+0', 'playing') >= playingBefore + 1);
  await move(black, 'e7', 'e5');
  await watcher.waitForFunction((g) => /\/4p3\/4P3\//.test(document.querySelector(`[data-watch="${g}"]`)?.dataset.fen ?? ''), id);
  await shot(watcher, 'lobby-mini-boards');
  await assertAccessible(watcher, 'the lobby with counts and mini boards');

  // White signs up and keeps the game: the lobby names the seat's account.
  const name = `claim${Date.now().toString(36).slice(-6)}`;
  const seat = new URL(white.url().replace('#/', '')).searchParams.get('seat');
  const signup = await white.request.post(`${server.url}/api/v1/account/signup`, { data: { v: 1, name, password: 'a password long enough' } });
  assert.equal(signup.status(), 201, await signup.text());
  const claim = await white.request.post(`${server.url}/api/v1/games/${id}/claim`, { data: { seat } });
  assert.equal(claim.status(), 200, await claim.text());
  await watcher.waitForFunction(([g, n]) => document.querySelector(`[data-watch="${g}"] .live-white`)?.textContent === n, [id, name]);

  // A click on the board opens the game to watch.
  await card.click();
  await watcher.waitForSelector('.game-screen[data-you=spectator]');
  for (const p of [watcher, anna, boris]) await p.close();
});
