// C3 correspondence and R18/P19 adjournment in the browser: a game with days per move
// (the clock in days and hours, "your turn" games first in My games), and a move sealed,
// kept from the page, and played at the agreed resumption time.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function choose(page, { opponent, color, days }) {
  await page.click(`[data-field=opponent] [data-value=${opponent}]`);
  if (color) await page.click(`[data-field=color] [data-value="${color}"]`);
  await page.selectOption('[data-field=days]', String(days));
}

test('C3: a correspondence game with days per move, its clock in days and hours, your turn first in My games', async () => {
  const page = await newPage(browser, server.url + '/');
  await choose(page, { opponent: 'invite', color: 'white', days: 5 });
  assert.equal(await page.locator('[data-field=tc] .tc-class').getAttribute('data-class'), 'correspondence');
  await page.click('[data-action=play]');
  await page.waitForSelector('.game-screen[data-status=ongoing]');
  const first = page.url();
  const clocks = await page.locator('.player-bar .clock').allTextContents();
  assert.ok(clocks.some((c) => /^5 d 00 h$/.test(c.trim())), `a clock of 5 days: ${clocks}`);
  assert.match(await page.locator('.status .meta').textContent(), /5d/);
  const state = await page.evaluate(async (id) => (await (await fetch(`/api/v1/games/${id}`)).json()).game,
    first.match(/#\/game\/([A-Za-z0-9]+)/)[1]);
  assert.equal(state.clock.time_control, '5d');
  assert.equal(state.clock.running, 'white');
  await shot(page, 'corr-clock');
  await assertAccessible(page, 'a correspondence game');

  // A second game, where the opponent moves first: made later, listed after the first.
  await page.goto(server.url + '/');
  await choose(page, { opponent: 'invite', color: 'black', days: 2 });
  await page.click('[data-action=play]');
  await page.waitForSelector('.game-screen[data-status=ongoing]');
  await page.goto(server.url + '/#/games');
  await page.waitForSelector('.game-row');
  const rows = await page.locator('.game-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-your-turn')));
  assert.deepEqual(rows.slice(0, 2), ['true', 'false']);
  assert.match(await page.locator('.game-row').first().textContent(), /Your turn/);
  await shot(page, 'corr-my-games');
});

test('R18/P19: a move sealed at one screen is kept from the page and played at the agreed time', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('[data-field=opponent] [data-value=hotseat]');
  await page.click('[data-field=tc] [data-value="10+5"]');
  if (!(await page.locator('details.more').evaluate((d) => d.open))) await page.click('details.more summary');
  await page.check('[data-field=adjournment]');
  await page.click('[data-action=play]');
  await page.waitForSelector('.game-screen[data-status=ongoing]');
  const id = page.url().match(/#\/game\/([A-Za-z0-9]+)/)[1];
  await move(page, 'e2', 'e4'); await waitPly(page, 1);
  await move(page, 'e7', 'e5'); await waitPly(page, 2);
  await page.fill('[data-field=sealed-move]', 'Nf3');
  await page.click('[data-action=seal]');
  await page.waitForSelector('.adjournment[data-adjourned=true]');
  assert.match(await page.locator('.adjournment').textContent(), /White sealed a move/);
  assert.match(await page.locator('.adjournment').textContent(), /No resumption time agreed yet/);
  const sealed = await page.evaluate(async (g) => (await (await fetch(`/api/v1/games/${g}`)).text()), id);
  assert.ok(!sealed.includes('Nf3') && !sealed.includes('g1f3'), 'the sealed move is not in the game state');
  assert.equal(await page.locator('.game-screen').getAttribute('data-myturn'), 'false');
  await shot(page, 'adjourned');
  await assertAccessible(page, 'an adjourned game');

  // At one screen a proposed time is the agreed time; a few seconds ahead.
  const at = new Date(Date.now() + 4000);
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60000).toISOString().slice(0, 19);
  await page.fill('[data-field=resume-at]', local);
  await page.click('[data-action=resume-propose]');
  await page.waitForSelector('.resume-at[data-resume$="Z"]');
  await waitPly(page, 3, 20000);
  assert.deepEqual(await page.locator('.moves .mv:not(.empty)').allTextContents(), ['e4', 'e5', 'Nf3']);
  assert.match(await page.locator('.adjournment').textContent(), /Nf3/);
  const pgn = await page.evaluate(async (g) => (await (await fetch(`/api/v1/games/${g}/pgn`)).text()), id);
  assert.match(pgn, /\[SealedMove "Nf3"\]/);
});
