// Issue 28, item 9: the lobby shows the colour the one who accepts a seek gets, time
// controls as players write them ("10+0"), days in the UI language, styled fields.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage } from './helpers.mjs';

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
