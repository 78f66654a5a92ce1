// P12: an invite game between two browsers, with a spectator following live;
// draw offer and acceptance (P9), rematch with colours swapped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, startGame, gameState } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('invite a friend by link; a spectator watches', async () => {
  const anna = await newPage(browser, server.url + '/');
  await startGame(anna, { opponent: 'invite', color: 'white', tc: '3+2' });
  const invite = await anna.locator('[data-link=invite]').inputValue();
  const watch = await anna.locator('[data-link=watch]').inputValue();
  assert.match(invite, /#\/game\/[\w-]+\?seat=/);
  assert.doesNotMatch(watch, /seat=/);
  await shot(anna, 'invite-creator');

  const boris = await newPage(browser, invite);
  await boris.waitForSelector('.game-screen[data-you=black]');
  const carl = await newPage(browser, watch);
  await carl.waitForSelector('.game-screen[data-you=spectator]');
  assert.equal(await boris.locator('.cg-wrap.orientation-black').count(), 1);

  await move(anna, 'e2', 'e4');
  await waitPly(boris, 1); await waitPly(carl, 1);
  await move(boris, 'e7', 'e5');
  await waitPly(anna, 2); await waitPly(carl, 2);
  await move(anna, 'g1', 'f3');
  await waitPly(carl, 3);
  assert.deepEqual(await carl.locator('.moves .mv').allTextContents(), ['e4', 'e5', 'Nf3']);
  // The spectator cannot move and has no actions.
  assert.equal(await carl.locator('[data-action=resign]').count(), 0);
  assert.equal(await carl.locator('.move-input:visible').count(), 0);
  // Clocks run for both.
  assert.equal(await anna.locator('.clock.running').count(), 1);
  await shot(boris, 'invite-opponent');
  await shot(carl, 'invite-spectator');
  await assertAccessible(carl, 'a spectator\'s view');

  // Draw: Boris offers, Anna sees it and accepts.
  await boris.click('[data-action=draw-offer]');
  await anna.waitForSelector('[data-action=draw-accept]');
  await shot(anna, 'invite-draw-offer');
  await assertAccessible(anna, 'a draw offer to answer');
  await anna.click('[data-action=draw-accept]');
  for (const p of [anna, boris, carl]) await p.waitForSelector('.game-screen[data-status=agreement]');
  assert.match(await carl.locator('.end-text').textContent(), /Draw by agreement/);

  // Rematch: Anna offers, Boris accepts; both move on with colours swapped.
  await anna.click('[data-action=rematch]');
  await boris.waitForSelector('[data-action=rematch-accept]');
  await boris.click('[data-action=rematch-accept]');
  await anna.waitForSelector('.game-screen[data-you=black][data-ply="0"]');
  await boris.waitForSelector('.game-screen[data-you=white][data-ply="0"]');
  assert.notEqual((await gameState(anna)).you, (await gameState(boris)).you);
});
