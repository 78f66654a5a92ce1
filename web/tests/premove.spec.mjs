// P7: a premove made while the opponent thinks is played when the turn comes;
// with the queue setting, several premoves are played one after another.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, startGame } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function pair(queue) {
  const anna = await newPage(browser, server.url + '/');
  if (queue) await anna.evaluate(() => localStorage.setItem('outpost.settings', JSON.stringify({ premoveQueue: true })));
  await anna.reload();
  await startGame(anna, { opponent: 'invite', color: 'white', tc: '5+0' });
  const boris = await newPage(browser, await anna.locator('[data-link=invite]').inputValue());
  await boris.waitForSelector('.game-screen[data-you=black]');
  return { anna, boris };
}

test('one premove', async () => {
  const { anna, boris } = await pair(false);
  await move(anna, 'e2', 'e4'); await waitPly(anna, 1);
  await move(anna, 'd2', 'd4'); // Black to move: this is a premove
  await anna.waitForFunction(() => document.querySelectorAll('cg-board square.current-premove').length === 2);
  await shot(anna, 'premove-set');
  await move(boris, 'e7', 'e5');
  await waitPly(boris, 3);
  assert.deepEqual(await anna.locator('.moves .mv').allTextContents(), ['e4', 'e5', 'd4']);
});

test('a premove queue', async () => {
  const { anna, boris } = await pair(true);
  await move(anna, 'e2', 'e4'); await waitPly(anna, 1);
  await move(anna, 'g1', 'f3');
  await move(anna, 'f1', 'c4');
  await anna.waitForFunction(() => document.querySelectorAll('cg-board square.current-premove').length === 4);
  await shot(anna, 'premove-queue');
  await move(boris, 'e7', 'e5'); await waitPly(boris, 3);
  await move(boris, 'b8', 'c6'); await waitPly(boris, 5);
  assert.deepEqual(await anna.locator('.moves .mv').allTextContents(), ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4']);
});
