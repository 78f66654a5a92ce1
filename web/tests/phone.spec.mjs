// P7: a phone (390x844, touch): the board fills the width; moves by tapping.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, startGame } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('phone viewport with touch', async () => {
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
  const page = await newPage(browser, server.url + '/', phone);
  await page.waitForSelector('.home-screen cg-board piece');
  const box = await page.locator('cg-board').boundingBox();
  assert.ok(box.width >= 380, `board ${box.width}px wide`);
  assert.ok(await page.locator('[data-action=play]').isVisible());
  await shot(page, 'phone-home');
  await startGame(page, { opponent: 'hotseat', tc: '3+2' });
  await move(page, 'e2', 'e4', { touch: true }); await waitPly(page, 1);
  await move(page, 'e7', 'e5', { touch: true }); await waitPly(page, 2);
  await move(page, 'g1', 'f3', { touch: true }); await waitPly(page, 3);
  const noScroll = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  assert.ok(noScroll, 'no sideways scrolling');
  await shot(page, 'phone-game');
});
