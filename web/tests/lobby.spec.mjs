// P22: two players find each other in the lobby by a quick-pairing button and play;
// the one who stays sees the other's presence turn "gone" when the other closes the
// page; the lobby lists the game for others to watch.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, gameState } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('quick pairing in the lobby, a game, and presence when one leaves', async () => {
  const anna = await newPage(browser, server.url + '/#/lobby');
  const boris = await newPage(browser, server.url + '/#/lobby');
  const carl = await newPage(browser, server.url + '/#/lobby');
  await anna.fill('[data-field=lobby-name]', 'Anna');
  await boris.fill('[data-field=lobby-name]', 'Boris');
  await anna.waitForSelector('[data-quick="3+2"]');
  await anna.click('[data-quick="3+2"]');
  await anna.waitForSelector('[data-quick="3+2"][aria-pressed=true]');
  await shot(anna, 'lobby-waiting');
  await assertAccessible(anna, 'the lobby, waiting for quick pairing');
  // Carl sees Anna's wait in the list of seeks.
  await carl.waitForSelector('.seek-table [data-seek]');
  await boris.click('[data-quick="3+2"]');
  await anna.waitForSelector('.game-screen');
  await boris.waitForSelector('.game-screen');
  await anna.waitForSelector('.game-screen[data-you]');
  await boris.waitForSelector('.game-screen[data-you]');
  const id = /#\/game\/([\w-]+)\?seat=/.exec(anna.url())?.[1];
  assert.ok(id, anna.url());
  assert.equal(/#\/game\/([\w-]+)\?seat=/.exec(boris.url())?.[1], id);
  const a = await gameState(anna), b = await gameState(boris);
  assert.deepEqual([a.you, b.you].sort(), ['black', 'white']);
  const state = (await (await fetch(`${server.url}/api/v1/games/${id}`)).json()).game;
  assert.equal(state.clock.time_control, '3+2');
  assert.deepEqual([state.players.white.name, state.players.black.name].sort(), ['Anna', 'Boris']);
  const [white, black] = a.you === 'white' ? [anna, boris] : [boris, anna];
  // Both online.
  await white.waitForSelector('.player-bar.top .presence[data-presence=online]');
  await move(white, 'e2', 'e4');
  await waitPly(black, 1);
  await move(black, 'e7', 'e5');
  await waitPly(white, 2);
  // The game is listed in the lobby; Carl opens it to watch.
  await carl.waitForSelector(`[data-watch="${id}"]`);
  await carl.click(`[data-watch="${id}"]`);
  await carl.waitForSelector('.game-screen[data-you=spectator]');
  await move(white, 'g1', 'f3');
  await waitPly(black, 3);
  // Black (to move) closes the page: White sees "gone", and the countdown to a claim.
  await black.context().close();
  await white.waitForSelector('.player-bar.top .presence[data-presence=gone]');
  await carl.waitForSelector('.presence[data-presence=gone]');
  assert.match(await white.locator('.player-bar.top .presence').textContent(), /Gone for/);
  await white.waitForSelector('[data-claim-note]');
  assert.match(await white.locator('[data-claim-note]').textContent(), /claim the game in/);
  assert.equal(await white.locator('[data-action=claim-abandonment-win]').count(), 0); // not yet (5 minutes)
  await shot(white, 'presence-gone');
  await assertAccessible(white, 'an opponent gone');
});
