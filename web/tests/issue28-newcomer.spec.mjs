// Issue 28, what was left: the creator of an invitation is told in words that it
// waits for the friend, beside the link and a cancel button (item 1); a rated game
// ended by checkmate shows the rating change without a reload (item 6); after a
// reload during a simple delay the clock shows the delay the server counts, not the
// whole delay again; the moves of a PGN the game started from are nobody's (no
// Takeback before one's own move).
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, startGame, move, waitPly, pairRatedInLobby } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PASSWORD = 'a password long enough';
const suffix = Date.now().toString(36).slice(-6);

async function create(page, body) {
  const r = await page.request.post(server.url + '/api/v1/games', { data: { v: 1, variant: 'standard', casual: true, ...body } });
  assert.equal(r.ok(), true, await r.text());
  return r.json();
}

test('item 1: an invitation says it waits for the friend, beside the link and a cancel button', async () => {
  const anna = await newPage(browser, server.url + '/');
  await startGame(anna, { opponent: 'invite', color: 'white', tc: '5+3' });
  const waiting = anna.locator('[data-state=waiting-friend]');
  assert.match(await waiting.textContent(), /Waiting for your friend/);
  assert.equal(await anna.locator('.share [data-link=invite]').count(), 1);
  assert.equal(await anna.locator('.share [data-action=cancel-invite]').count(), 1);
  // The friend comes: the words and the cancel button go.
  const boris = await newPage(browser, await anna.locator('[data-link=invite]').inputValue());
  await boris.waitForSelector('.game-screen[data-you=black]');
  await anna.waitForSelector('[data-state=waiting-friend]', { state: 'detached' });
  assert.equal(await anna.locator('[data-action=cancel-invite]').count(), 0);
  assert.equal(await boris.locator('[data-state=waiting-friend]').count(), 0);

  // Another invitation, called off by its cancel button; and the words in Finnish.
  const carl = await newPage(browser, server.url + '/');
  await startGame(carl, { opponent: 'invite', color: 'black', tc: '5+3' });
  await carl.waitForSelector('[data-state=waiting-friend]');
  await carl.click('[data-action=cancel-invite]');
  await carl.waitForSelector('.game-screen[data-status=aborted]');
  const fi = await newPage(browser, server.url + '/?lang=fi');
  await startGame(fi, { opponent: 'invite', color: 'white', tc: '5+3' });
  assert.match(await fi.locator('[data-state=waiting-friend]').textContent(), /ystäväsi/);
});

test('item 6: a rated game ended by checkmate shows the rating change without a reload', async () => {
  const alice = await newPage(browser, server.url + '/');
  const bob = await newPage(browser, server.url + '/');
  const A = `mate${suffix}a`, B = `mate${suffix}b`;
  for (const [p, name] of [[alice, A], [bob, B]]) {
    const r = await p.request.post(`${server.url}/api/v1/account/signup`, { data: { v: 1, name, password: PASSWORD } });
    assert.equal(r.status(), 201, await r.text());
  }
  await pairRatedInLobby(alice, bob, server.url);
  // Fool's mate: Black mates.
  await move(alice, 'f2', 'f3'); await waitPly(bob, 1);
  await move(bob, 'e7', 'e5'); await waitPly(alice, 2);
  await move(alice, 'g2', 'g4'); await waitPly(bob, 3);
  await move(bob, 'd8', 'h4');
  for (const p of [alice, bob]) {
    await p.waitForSelector('.game-screen[data-status=checkmate]');
    await p.waitForSelector('.rating-diff', { timeout: 5000 });
    const diffs = await p.locator('.rating-diff').allTextContents();
    assert.equal(diffs.length, 2, `both changes shown: ${diffs}`);
    assert.ok(diffs.some((d) => d.startsWith('+')) && diffs.some((d) => d.startsWith('\u2212')), `${diffs}`);
  }
});

test('a reload during a simple delay shows what is left of it, as the server counts it', async () => {
  const page = await newPage(browser, server.url + '/');
  const g = await create(page, { opponent: 'hotseat', color: 'white', time_control: '3+5d' });
  await page.goto(`${server.url}/#/game/${g.game}?seat=${encodeURIComponent(g.seats.white)}`);
  await page.waitForSelector('.game-screen[data-status=ongoing]');
  for (const [san, ply] of [['e4', 1], ['e5', 2], ['Nf3', 3]]) {
    await page.fill('.move-input', san);
    await page.press('.move-input', 'Enter');
    await waitPly(page, ply);
  }
  await page.waitForSelector('.clock[data-color=black].running');
  await page.waitForTimeout(3000);
  await page.reload();
  await page.waitForSelector('.clock[data-color=black].running');
  const delay = Number(await page.locator('.clock[data-color=black]').getAttribute('data-delay'));
  assert.ok(delay > 0 && delay < 2.3, `the delay left after 3 s of 5 s and a reload: ${delay}`);
  assert.equal((await page.locator('.clock[data-color=black]').textContent()).trim(), '3:00');
});

test('the moves of a PGN the game started from are nobody\'s: no Takeback before one\'s own move', async () => {
  const page = await newPage(browser, server.url + '/');
  const g = await create(page, { opponent: 'robot', color: 'white', level: 1, time_control: '-', pgn: '1. e4 e5 2. Nf3 Nc6' });
  await page.goto(`${server.url}/#/game/${g.game}?seat=${encodeURIComponent(g.seats.white)}`);
  await page.waitForSelector('.game-screen[data-myturn=true]');
  assert.equal(await page.locator('[data-action=takeback]').count(), 0);
  await page.fill('.move-input', 'Bc4');
  await page.press('.move-input', 'Enter');
  await page.waitForSelector('[data-action=takeback]');
});
