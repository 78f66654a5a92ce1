// P18: a simultaneous exhibition in the browser: a signed-in host creates a 10+5 simul
// with 5 s of extra time per player, two
// anonymous players join in their own browsers, the host starts it; the host's page
// shows both boards, plays on one, jumps to the next where it is the host's move
// (the N key), plays there; the players play in the normal game view (with a link back
// to the simul), resign, and the results table gives the host +2 −0 =0.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// A square of the host's large board (white at the bottom).
async function bigSquare(page, sq) {
  const box = await page.locator('.simul-big cg-board').boundingBox();
  const file = sq.charCodeAt(0) - 97; const rank = parseInt(sq[1], 10) - 1;
  const s = box.width / 8;
  return { x: box.x + (file + 0.5) * s, y: box.y + (7 - rank + 0.5) * s };
}
async function hostMove(page, from, to) {
  for (const sq of [from, to]) {
    const { x, y } = await bigSquare(page, sq);
    await page.mouse.click(x, y);
    await page.waitForTimeout(40);
  }
}

test('P18: a host plays two boards of a simul, jumps to the next board, and the results are summed up', async () => {
  const host = await newPage(browser, server.url + '/#/simuls');
  const name = `Host${Date.now() % 100000}`;
  const signup = await host.request.post(`${server.url}/api/v1/account/signup`,
    { data: { name, password: 'simul-password-1' }, headers: { 'content-type': 'application/json' } });
  assert.equal(signup.status(), 201, await signup.text());
  await host.reload();
  await host.waitForSelector('[data-action=create-simul]');
  await host.fill('[data-field=simul-name]', 'Browser simul');
  await host.selectOption('[data-field=simul-tc]', '10+5');
  await host.fill('[data-field=simul-extra]', '5');
  await host.fill('[data-field=simul-boards]', '2');
  await host.click('[data-action=create-simul]');
  await host.waitForURL(/#\/simul\/\w+/);
  const id = /#\/simul\/(\w+)/.exec(host.url())[1];
  await host.waitForSelector('[data-action=start-simul]');

  const players = [];
  for (const who of ['Ann', 'Ben']) {
    const p = await newPage(browser, `${server.url}/#/simul/${id}`);
    await p.waitForSelector('[data-action=join-simul]');
    await p.fill('[data-field=simul-player-name]', who);
    await p.click('[data-action=join-simul]');
    await p.waitForSelector('[data-action=withdraw]');
    players.push(p);
  }
  await host.waitForFunction(() => document.querySelectorAll('[data-player]').length === 2);
  await assertAccessible(host, 'a simul before its start');
  // The list shows it.
  const list = await (await fetch(`${server.url}/api/v1/simuls`)).json();
  assert.equal(list.simuls.find((s) => s.id === id)?.players, 2);

  await host.click('[data-action=start-simul]');
  // Each player is taken to its game; the host sees both boards.
  for (const p of players) await p.waitForSelector('.game-screen[data-you=black]');
  await host.waitForFunction(() => document.querySelectorAll('.simul-cell').length === 2);
  const simul = (await (await fetch(`${server.url}/api/v1/simuls/${id}`)).json()).simul;
  const [g1, g2] = simul.boards.map((b) => b.game);
  await host.waitForSelector(`.simul-big[data-game="${g1}"]`);
  await host.waitForFunction(() => document.querySelectorAll('.simul-cell.my-turn').length === 2);
  await shot(host, 'simul-host');
  // 10+5 on every board; the host has 5 s per player (2) more: 10:10 against 10:00.
  assert.match(await host.locator('[data-clock=host]').textContent(), /10:10/);
  assert.match(await host.locator('[data-clock=player]').textContent(), /10:00/);

  // Board 1: 1.e4; then N jumps to board 2, the next where it is the host's move.
  await hostMove(host, 'e2', 'e4');
  await waitPly(players[0], 1);
  await host.waitForFunction(() => document.querySelectorAll('.simul-cell.my-turn').length === 1);
  await host.keyboard.press('n');
  await host.waitForSelector(`.simul-big[data-game="${g2}"]`);
  await hostMove(host, 'd2', 'd4');
  await waitPly(players[1], 1);
  // Ann answers: board 1 is the host's again, and the button finds it.
  await move(players[0], 'e7', 'e5');
  await host.waitForSelector(`.simul-cell.my-turn[data-game="${g1}"]`);
  await host.click('[data-action=next-board]');
  await host.waitForSelector(`.simul-big[data-game="${g1}"]`);
  await hostMove(host, 'g1', 'f3');
  await waitPly(players[0], 3);
  await move(players[1], 'd7', 'd5');  // both have moved: a game to resign, not to abort
  await host.waitForSelector(`.simul-cell.my-turn[data-game="${g2}"]`);
  // Clicking a small board selects it for play, as on lichess: the host plays 2.c4 there.
  await host.click(`.simul-cell[data-game="${g2}"]`);
  await host.waitForSelector(`.simul-big[data-game="${g2}"]`);
  await hostMove(host, 'c2', 'c4');
  await waitPly(players[1], 3);

  // The players' game view links back to the simul; both resign.
  for (const p of players) {
    await p.waitForSelector('[data-action=back-to-simul]');
    await p.click('[data-action=resign]');
    await p.click('[data-action=resign-confirm]');
    await p.waitForSelector('.game-screen:not([data-status="ongoing"])');
  }
  await host.waitForSelector('[data-simul-status=finished]');
  await host.waitForSelector('.simul-summary[data-summary="+2 -0 =0"]');
  assert.equal(await host.locator('.simul-table [data-board]').count(), 2);
  await shot(host, 'simul-results');
  await assertAccessible(host, 'the host\'s boards and the results');
  await players[1].click('[data-action=back-to-simul]');
  await players[1].waitForSelector('.simul-summary[data-summary="+2 -0 =0"]');
});

test('P18: the list of simuls is live: a new simul and its entries show without a reload', async () => {
  const viewer = await newPage(browser, server.url + '/#/simuls');
  await viewer.waitForSelector('.simul-list :is(table, p.empty)');
  const host = await newPage(browser, server.url + '/');
  const name = `Live${Date.now() % 100000}`;
  const signup = await host.request.post(`${server.url}/api/v1/account/signup`,
    { data: { name, password: 'simul-password-1' }, headers: { 'content-type': 'application/json' } });
  assert.equal(signup.status(), 201, await signup.text());
  const made = await host.request.post(`${server.url}/api/v1/simuls`,
    { data: { name: 'Live list', color: 'white', time_control: '5+3', max_boards: 4 }, headers: { 'content-type': 'application/json' } });
  assert.equal(made.status(), 201, await made.text());
  const id = (await made.json()).simul.id;
  const row = `tr[data-simul="${id}"]`;
  await viewer.waitForSelector(row, { timeout: 10000 });
  assert.equal((await viewer.locator(`${row} td`).nth(3).textContent()).trim(), '0/4');
  const joined = await fetch(`${server.url}/api/v1/simuls/${id}/join`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Walk-in' }) });
  assert.equal(joined.status, 201, await joined.text());
  await viewer.waitForFunction((sel) => document.querySelector(sel)?.children[3]?.textContent?.trim() === '1/4', `${row}`, { timeout: 10000 });
  await viewer.context().close();
  await host.context().close();
});
