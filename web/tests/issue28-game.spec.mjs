// Issue 28, the game screen: a simple delay shown as the server counts it (item 4);
// only actions that can succeed (item 5: no Takeback before one's own move, no Analyse
// without a move, the invitation gone once the opponent came, the sealer not told to
// wait for the opponent); the server's reason for a forfeit (item 6); full moves in
// My games (item 8); no analysis fetched before anyone asked (item 12).
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, startGame, move, waitPly } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function create(page, body) {
  const r = await page.request.post(server.url + '/api/v1/games', { data: { v: 1, variant: 'standard', casual: true, ...body } });
  assert.equal(r.ok(), true, await r.text());
  return r.json();
}
const typeMove = async (page, san, ply) => {
  await page.fill('.move-input', san);
  await page.press('.move-input', 'Enter');
  await waitPly(page, ply);
};

test('item 4: in 3+5d the running clock waits out the delay, and the delay counts down', async () => {
  const page = await newPage(browser, server.url + '/');
  const g = await create(page, { opponent: 'hotseat', color: 'white', time_control: '3+5d' });
  await page.goto(`${server.url}/#/game/${g.game}?seat=${encodeURIComponent(g.seats.white)}`);
  await page.waitForSelector('.game-screen[data-status=ongoing]');
  await typeMove(page, 'e4', 1);
  await typeMove(page, 'e5', 2);
  await typeMove(page, 'Nf3', 3);
  const black = page.locator('.clock[data-color=black]');
  await page.waitForSelector('.clock[data-color=black].running');
  await page.waitForTimeout(3000);
  assert.equal((await black.textContent()).trim(), '3:00', 'no main time used inside the delay');
  const delay = Number(await black.getAttribute('data-delay'));
  assert.ok(delay > 0.5 && delay < 2.6, `the delay's own countdown: ${delay}`);
  await page.waitForTimeout(3500);
  assert.equal(await black.getAttribute('data-delay'), null, 'the delay is over');
  assert.match((await black.textContent()).trim(), /^2:59$|^2:58$/, 'then the main time runs');
});

test('item 5: Black against the robot has no Takeback before a move of its own', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'robot', color: 'black', tc: '-' });
  await waitPly(page, 1);
  await page.waitForSelector('.game-screen[data-myturn=true]');
  assert.equal(await page.locator('[data-action=takeback]').count(), 0);
  await page.fill('.move-input', 'e6');
  await page.press('.move-input', 'Enter');
  await page.waitForSelector('[data-action=takeback]');
});

test('item 5: no Analyse for an aborted game without a move', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'robot', color: 'white', tc: '-' });
  await page.click('[data-action=abort]');
  await page.waitForSelector('.game-screen[data-status=aborted]');
  await page.waitForSelector('.end-box:not([hidden])');
  assert.equal(await page.locator('[data-action=analyse]').count(), 0);
  assert.equal(await page.locator('[data-action=rematch]').count(), 1);
});

test('item 5: the invitation goes once the opponent has come; a sealed move is not "waiting for the opponent"', async () => {
  const a = await newPage(browser, server.url + '/');
  await startGame(a, { opponent: 'invite', color: 'white', tc: '-' });
  const link = await a.locator('[data-link=invite]').inputValue();
  const b = await newPage(browser, link);
  await b.waitForSelector('.game-screen[data-status=ongoing]');
  await a.waitForSelector('[data-link=invite]', { state: 'detached' });
  assert.equal(await a.locator('[data-link=watch]').count(), 1, 'the watch link stays');
  await b.close(); await a.close();

  const w = await newPage(browser, server.url + '/');
  const g = await create(w, { opponent: 'invite', color: 'white', time_control: '30+0', adjournment: true });
  await w.goto(`${server.url}/#/game/${g.game}?seat=${encodeURIComponent(g.seats.white)}`);
  const bl = await newPage(browser, `${server.url}/#/game/${g.game}?seat=${encodeURIComponent(g.seats.black)}`);
  await w.waitForSelector('.game-screen[data-myturn=true]');
  await typeMove(w, 'e4', 1);
  await bl.waitForSelector('.game-screen[data-myturn=true]');
  await typeMove(bl, 'e5', 2);
  await w.waitForSelector('.seal-input');
  await w.fill('.seal-input', 'Nf3');
  await w.click('[data-action=seal]');
  await w.waitForSelector('[data-adjourned=true]');
  const status = await w.locator('.status-text').textContent();
  assert.doesNotMatch(status, /Waiting for the opponent/);
  assert.match(status, /Adjourned/);
  await w.close(); await bl.close();
});

test('item 6: a forfeit after the first moves says the player left the game (the server\'s reason)', async () => {
  const page = await newPage(browser, server.url + '/');
  // The claim comes after 5 minutes away: what the server sends then (docs/protocol.md,
  // "Abandoned games") is put in place of the next move's message; the rest is the real server's.
  let forfeit = false;
  await page.routeWebSocket(/\/api\/v1\/ws\?/, (ws) => {
    const srv = ws.connectToServer();
    srv.onMessage((m) => {
      const msg = JSON.parse(String(m));
      if (forfeit && (msg.t === 'state' || msg.t === 'move')) Object.assign(msg.game, { status: 'forfeit', result: '1-0', winner: 'white', end: 'White wins: Black left the game', can_abort: false });
      ws.send(JSON.stringify(msg));
    });
  });
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  await typeMove(page, 'e4', 1);
  await typeMove(page, 'e5', 2);
  forfeit = true;
  await typeMove(page, 'Nf3', 3);
  await page.waitForSelector('.game-screen[data-status=forfeit]');
  const text = await page.locator('.end-text').textContent();
  assert.match(text, /Black left the game/);
  assert.doesNotMatch(text, /first move/);
});

test('items 8 and 12: My games counts fool\'s mate as 2 moves; no analysis is fetched unasked', async () => {
  const page = await newPage(browser, server.url + '/');
  const bad = [];
  page.on('response', (r) => { if (r.status() >= 400) bad.push(`${r.status()} ${r.url()}`); });
  page.on('console', (m) => { if (m.type() === 'error') bad.push(m.text()); });
  await startGame(page, { opponent: 'hotseat', tc: '-' });
  await move(page, 'f2', 'f3'); await waitPly(page, 1);
  await move(page, 'e7', 'e5'); await waitPly(page, 2);
  await move(page, 'g2', 'g4'); await waitPly(page, 3);
  await move(page, 'd8', 'h4'); await waitPly(page, 4);
  await page.waitForSelector('.game-screen[data-status=checkmate]');
  await page.waitForTimeout(800);
  assert.deepEqual(bad, [], 'no error in the console, no 4xx');
  await page.goto(server.url + '/#/games');
  const meta = await page.locator('.game-row .game-meta').first().textContent();
  assert.match(meta, /\b2 moves\b/, meta);
});

test('item 5: no second draw offer the server would refuse (one in 20 plies)', async () => {
  const w = await newPage(browser, server.url + '/');
  const g = await create(w, { opponent: 'invite', color: 'white', time_control: '-' });
  await w.goto(`${server.url}/#/game/${g.game}?seat=${encodeURIComponent(g.seats.white)}`);
  const b = await newPage(browser, `${server.url}/#/game/${g.game}?seat=${encodeURIComponent(g.seats.black)}`);
  await w.waitForSelector('[data-action=draw-offer]');
  await w.click('[data-action=draw-offer]');
  await b.waitForSelector('[data-action=draw-decline]');
  await b.click('[data-action=draw-decline]');
  await b.waitForSelector('[data-action=draw-offer]');
  await w.waitForFunction(() => !document.querySelector('.pending'));
  assert.equal(await w.locator('[data-action=draw-offer]').count(), 0, 'White offered a moment ago');
  await w.close(); await b.close();
});
