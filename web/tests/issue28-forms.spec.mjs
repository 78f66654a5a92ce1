// Issue 28, items 2 and 7: the new-game panel keeps what is typed and where the focus
// is (no redraw replaces the field being left, the next click or Tab lands), and input
// errors say what is wrong: an Elo out of range, the server's precise message for a
// bad FEN, an illegal typed move left in the move box with the reason.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, startGame, waitPly } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const names = (page) => page.locator('.player-bar .player-name').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
const toastText = async (page) => (await page.waitForSelector('#toast.show')).textContent();

test('same device: a click from White\'s name to Black\'s lands, and both names are kept', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('[data-field=opponent] [data-value=hotseat]');
  await page.click('[data-field=name]');
  await page.keyboard.type('Wanda');
  await page.click('[data-field=opponentName]');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-field')), 'opponentName', 'the focus is in Black\'s name');
  await page.keyboard.type('Bert');
  await page.click('[data-action=play]');
  await page.waitForSelector('.game-screen[data-status]');
  const n = await names(page);
  assert.ok(n.some((x) => /White: Wanda/.test(x)), n.join(' | '));
  assert.ok(n.some((x) => /Black: Bert/.test(x)), n.join(' | '));
});

test('same device: Tab from White\'s name goes to Black\'s; an empty Black name is not White\'s', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('[data-field=opponent] [data-value=hotseat]');
  await page.click('[data-field=name]');
  await page.keyboard.type('Wanda');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-field')), 'opponentName');
  await page.click('[data-action=play]');
  await page.waitForSelector('.game-screen[data-status]');
  const n = await names(page);
  assert.ok(n.some((x) => /White: Wanda/.test(x)), n.join(' | '));
  assert.ok(!n.some((x) => /Black: Wanda/.test(x)), n.join(' | '));
});

test('a custom Elo typed, then a click on 5+3: 5+3 is chosen and the Elo kept', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('[data-field=opponent] [data-value=robot]');
  await page.click('input.elo-input');
  await page.keyboard.type('1600');
  await page.click('[data-field=tc] [data-value="5+3"]');
  assert.equal(await page.getAttribute('[data-field=tc] [data-value="5+3"]', 'aria-pressed'), 'true');
  assert.equal(await page.getAttribute('[data-field=tc] [data-value="10+0"]', 'aria-pressed'), 'false');
  assert.equal(await page.inputValue('input.elo-input'), '1600');
  assert.equal(await page.locator('[data-field=level] [aria-pressed=true]').count(), 0, 'no level pressed beside a custom Elo');
});

test('item 7: an Elo out of range is refused with the range, not played at a level', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('[data-field=opponent] [data-value=robot]');
  await page.click('input.elo-input');
  await page.keyboard.type('3000');
  await page.click('[data-action=play]');
  assert.match(await toastText(page), /400.*2850|2850/);
  assert.equal(await page.locator('.home-screen').count(), 1, 'no game started');
  assert.equal(await page.getAttribute('input.elo-input', 'aria-invalid'), 'true');
});

test('item 7: a bad FEN shows the server\'s own message', async () => {
  const page = await newPage(browser, server.url + '/');
  await page.click('[data-field=opponent] [data-value=hotseat]');
  await page.click('details.more summary');
  await page.fill('[data-field=start]', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1');
  await page.click('[data-action=play]');
  const text = await toastText(page);
  assert.doesNotMatch(text, /did not understand/);
  assert.match(text, /fen|FEN|side|colour|color/i, text);
});

test('item 7: an illegal typed move stays in the move box, and the reason is said', async () => {
  const page = await newPage(browser, server.url + '/');
  await startGame(page, { opponent: 'hotseat' });
  await page.fill('.move-input', 'e5');
  await page.press('.move-input', 'Enter');
  const text = await toastText(page);
  assert.match(text, /not legal|illegal/i, text);
  assert.equal(await page.inputValue('.move-input'), 'e5');
  await page.fill('.move-input', 'e4');
  await page.press('.move-input', 'Enter');
  await waitPly(page, 1);
  await page.waitForFunction(() => document.querySelector('.move-input').value === '');
});

test('the same defect elsewhere: a simul\'s join name outlives an update of the simul', async () => {
  const host = await newPage(browser, server.url + '/');
  const name = `Host${Date.now() % 100000}`;
  const signup = await host.request.post(`${server.url}/api/v1/account/signup`, { data: { v: 1, name, password: 'simul-password-1' } });
  assert.equal(signup.status(), 201, await signup.text());
  const made = await host.request.post(`${server.url}/api/v1/simuls`, { data: { v: 1, name: 'Forms', color: 'white', time_control: '5+3', max_boards: 4 } });
  assert.equal(made.status(), 201, await made.text());
  const id = (await made.json()).simul.id;
  const page = await newPage(browser, `${server.url}/#/simul/${id}`);
  await page.waitForSelector('[data-field=simul-player-name]');
  await page.click('[data-field=simul-player-name]');
  await page.keyboard.type('Half');
  const joined = await fetch(`${server.url}/api/v1/simuls/${id}/join`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: 1, name: 'Walk-in' }) });
  assert.equal(joined.status, 201, await joined.text());
  await page.waitForSelector('tr[data-player]');
  await page.keyboard.type('way');
  assert.equal(await page.inputValue('[data-field=simul-player-name]'), 'Halfway');
  await page.context().close(); await host.context().close();
});

test('the same defect elsewhere: a move being sealed outlives a state (the opponent\'s draw offer)', async () => {
  const w = await newPage(browser, server.url + '/');
  const r = await w.request.post(server.url + '/api/v1/games', { data: { v: 1, opponent: 'invite', color: 'white', time_control: '30+0', variant: 'standard', casual: true, adjournment: true } });
  const g = await r.json();
  await w.goto(`${server.url}/#/game/${g.game}?seat=${encodeURIComponent(g.seats.white)}`);
  const b = await newPage(browser, `${server.url}/#/game/${g.game}?seat=${encodeURIComponent(g.seats.black)}`);
  await w.waitForSelector('.game-screen[data-myturn=true]');
  await w.fill('.move-input', 'e4'); await w.press('.move-input', 'Enter');
  await b.waitForSelector('.game-screen[data-myturn=true]');
  await b.fill('.move-input', 'e5'); await b.press('.move-input', 'Enter');
  await w.waitForSelector('.seal-input');
  await w.click('.seal-input');
  await w.keyboard.type('Nf');
  await b.click('[data-action=draw-offer]');
  await w.waitForSelector('[data-action=draw-decline]');
  await w.keyboard.type('3');
  assert.equal(await w.inputValue('.seal-input'), 'Nf3');
  await w.context().close(); await b.context().close();
});
