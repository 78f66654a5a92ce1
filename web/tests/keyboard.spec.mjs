// P14: moves typed as SAN or coordinates; P16: moves announced in words.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, waitPly, startGame } from './helpers.mjs';

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
