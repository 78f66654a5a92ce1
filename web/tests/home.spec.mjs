// P1: the page shows a board at once and a Play button; the new-game panel shows
// the robot levels with their Elo and the C4 class of the time control.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('P1: board and Play at once', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.waitForSelector('.home-screen cg-board piece', { timeout: 5000 });
  assert.equal(await page.locator('cg-board piece').count(), 32);
  const play = page.locator('[data-action=play]');
  assert.ok(await play.isVisible());
  assert.match(await play.textContent(), /Play/);
  // Levels 1-10 with Elo from GET /api/v1/levels.
  await page.waitForSelector('[data-field=level] .elo');
  assert.equal(await page.locator('[data-field=level] button.level').count(), 10);
  // The C4 class beside the time control.
  await page.click('[data-field=tc] [data-value="3+2"]');
  assert.equal(await page.locator('.tc-class').textContent(), 'Blitz');
  await page.click('[data-field=tc] [data-value="15+10"]');
  assert.equal(await page.locator('.tc-class').textContent(), 'Rapid'); // 15 min + 60 x 10 s = 25 min
  await shot(page, 'home-desktop');
  await assertAccessible(page, 'the home page');
  await page.click('details.more summary');
  await assertAccessible(page, 'the home page, More options open');
});

test('custom time control shows its class', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('[data-field=tc] [data-value=custom]');
  await page.fill('[data-custom=minutes]', '2');
  await page.locator('[data-custom=minutes]').dispatchEvent('change');
  await page.fill('[data-custom=increment]', '0');
  await page.locator('[data-custom=increment]').dispatchEvent('change');
  assert.equal(await page.locator('.tc-class').textContent(), 'Bullet');
  await page.fill('[data-custom=periods]', '40/5400+30:1800+30');
  await page.locator('[data-custom=periods]').dispatchEvent('change');
  assert.equal(await page.locator('.tc-class').textContent(), 'Classical');
  await page.click('[data-field=tc] [data-value="10+0"]');
});

test('dark colour scheme', async () => {
  const page = await newPage(browser, server.url + '/', { colorScheme: 'dark' });
  await page.waitForSelector('.home-screen cg-board piece');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(22, 21, 18)');
  await shot(page, 'home-dark');
  await page.waitForSelector('[data-field=level] .elo');
  await assertAccessible(page, 'the home page, dark scheme');
});

test('P1: the custom Elo field takes its range from GET /api/v1/levels (elo_min/elo_max)', async () => {
  const levels = await (await fetch(server.url + '/api/v1/levels')).json();
  assert.equal(typeof levels.elo_min, 'number');
  const page = await newPage(browser, server.url + '/');
  await page.waitForSelector('[data-field=level] .elo');
  const input = page.locator('[data-field=level] .elo-input');
  assert.equal(await input.getAttribute('min'), String(levels.elo_min));
  assert.equal(await input.getAttribute('max'), String(levels.elo_max));
  const hint = (await input.getAttribute('title')).replace(/\D+/g, ' ').trim();
  assert.equal(hint, `${levels.elo_min} ${levels.elo_max}`, 'the hint names the same range');
});
