// P20 (issue 13): an organiser creates a Swiss event on its page, players join, the
// organiser starts round 1; everyone sees the pairing (C.04.3 round 1) with a link to
// their own game, the organiser types a result and the standings (C.07) follow it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PASSWORD = 'a long enough password';

// Signs a new account up from the page (its cookie stays in the page's context);
// waits out the sign-up limit per address when a server with limits answers 429.
async function signUp(page, name) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const status = await page.evaluate(async ([n, p]) => (await fetch('/api/v1/account/signup', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: 1, name: n, password: p }),
    })).status, [name, PASSWORD]);
    if (status === 201) return;
    assert.equal(status, 429, `sign-up of ${name}`);
    await page.waitForTimeout(5500);
  }
  throw new Error(`could not sign ${name} up`);
}

test('P20 C.04.3 C.07: create an event, join, start round 1, the pairing and the standings', async () => {
  const tag = Date.now().toString(36).slice(-6);
  const names = ['org', 'ann', 'bob', 'cid'].map((n) => `${n}${tag}`);
  const pages = [];
  for (const n of names) {
    const page = await newPage(browser, server.url + '/');
    await signUp(page, n);
    pages.push(page);
  }
  const [org, ...players] = pages;
  await org.goto(server.url + '/#/events');
  await org.reload();
  await org.waitForSelector('[data-action=create-event]');
  await assertAccessible(org, 'the events page with the create form');
  await org.fill('[data-field=event-name]', `Club Swiss ${tag}`);
  await org.fill('[data-field=event-rounds]', '3');
  await org.fill('[data-field=event-tc]', '5+3');
  await org.click('[data-action=create-event]');
  await org.waitForSelector('.event-page h1');
  const id = /#\/event\/(\d+)/.exec(org.url())?.[1];
  assert.ok(id, org.url());
  assert.equal(await org.locator('.event-page h1').textContent(), `Club Swiss ${tag}`);
  // The organiser plays too; three more join from the page.
  await org.click('[data-action=join]');
  await org.waitForSelector('[data-action=withdraw]');
  for (const p of players) {
    await p.goto(`${server.url}/#/event/${id}`);
    await p.reload();
    await p.waitForSelector('[data-action=join]');
    await p.click('[data-action=join]');
    await p.waitForSelector('[data-action=withdraw]');
  }
  // Only the organiser has the button to start a round.
  assert.equal(await players[0].locator('[data-action=start-round]').count(), 0);
  await org.reload();
  await org.waitForSelector('.event-player-list li >> nth=3');
  await org.click('[data-action=start-round]');
  await org.waitForSelector('.event-round[data-round="1"] tr[data-board="2"]');
  await shot(org, 'event-round1');
  await assertAccessible(org, 'an event with its first round');
  // Round 1 (C.04.3): four players by entry, 1 v 3 and 4 v 2 or 3 v 1 and 2 v 4.
  const event = await (await fetch(`${server.url}/api/v1/events/${id}`)).json();
  assert.equal(event.current_round, 1);
  const boards = event.pairings[0].boards;
  assert.equal(boards.length, 2);
  assert.deepEqual(boards.map((b) => [b.white.rank, b.black.rank].sort()), [[1, 3], [2, 4]]);
  assert.ok(boards.every((b) => typeof b.game === 'string'), 'an online event has a game per board');
  assert.ok(boards.every((b) => b.seat === undefined), 'nobody\'s seat goes to an anonymous reader');
  // Each player sees a link to play their own game; the others' games to watch.
  for (const p of players) {
    await p.waitForSelector('.event-round[data-round="1"]', { timeout: 10000 });
    assert.equal(await p.locator('.event-round [data-action=play]').count(), 1);
    assert.equal(await p.locator('.event-round [data-action=watch]').count(), 1);
  }
  const href = await players[0].locator('.event-round [data-action=play]').getAttribute('href');
  assert.match(href, /#\/game\/\w+\?seat=\w+/);
  // The organiser types a result on board 1; the standings show the point.
  await org.selectOption('[data-field=result-1-1]', '1-0');
  await org.waitForFunction(() => [...document.querySelectorAll('.event-standings tbody tr td:nth-child(3)')].some((td) => td.textContent === '1'));
  const after1 = await (await fetch(`${server.url}/api/v1/events/${id}/standings`)).json();
  assert.deepEqual(after1.tiebreaks, ['BH-C1', 'BH', 'SB']);
  assert.equal(after1.standings[0].points, 1);
  assert.equal(after1.standings[0].rank, boards[0].white.rank);
  // The TRF download carries the event (tag 012 with its name).
  const trf = await fetch(`${server.url}/api/v1/events/${id}/trf`);
  assert.match(trf.headers.get('content-disposition'), /attachment; filename="outpost-event-\d+\.trf"/);
  assert.match(await trf.text(), new RegExp(`012 Club Swiss ${tag}`));
  await org.emulateMedia({ media: 'print' });
  assert.equal(await org.locator('.topbar').isVisible(), false);
  assert.equal(await org.locator('[data-action=start-round]').isVisible(), false);
  await shot(org, 'event-print');
  for (const p of pages) await p.context().close();
});
