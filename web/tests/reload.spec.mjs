// P12: a reload mid-game continues with the seat from the URL, and a dropped
// WebSocket reconnects by itself; "my games" (P11) lists the game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, startGame } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('reload mid-game and reconnect', async () => {
  const page = await newPage(browser, server.url + '/');
  // Every game socket goes through the test, which can cut it as a network would.
  const sockets = [];
  await page.routeWebSocket(/\/api\/v1\/ws/, (ws) => {
    ws.connectToServer();
    sockets.push(ws);
  });
  await startGame(page, { opponent: 'hotseat', tc: '10+5' });
  await move(page, 'e2', 'e4'); await waitPly(page, 1);
  await move(page, 'c7', 'c5'); await waitPly(page, 2);
  const url = page.url();
  assert.match(url, /#\/game\/[\w-]+\?seat=/);
  await page.reload();
  await waitPly(page, 2);
  assert.deepEqual(await page.locator('.moves .mv').allTextContents(), ['e4', 'c5']);
  await move(page, 'g1', 'f3'); await waitPly(page, 3);

  // The connection drops: the page says so, reconnects by itself and play goes on.
  const opened = sockets.length;
  for (const ws of sockets) await ws.close({ code: 1006 }).catch(() => {});
  await page.waitForSelector('.conn:not([hidden])', { timeout: 3000 }).catch(() => {});
  await page.waitForSelector('.conn[hidden]', { state: 'attached', timeout: 10000 });
  assert.ok(sockets.length > opened, 'a new connection was opened');
  await move(page, 'd7', 'd6'); await waitPly(page, 4);

  // My games lists it, with a link back and a PGN download.
  await page.goto(server.url + '/#/games');
  await page.waitForSelector('.game-row');
  assert.ok(await page.locator('.game-row').count() >= 1);
  await shot(page, 'my-games');
  await page.click('.game-row .game-link');
  await page.waitForSelector('.game-screen[data-status=ongoing]');
  assert.ok(Number(await page.locator('.game-screen').getAttribute('data-ply')) >= 3);
});
