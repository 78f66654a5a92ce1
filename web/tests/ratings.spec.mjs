// P23: two accounts in two browsers meet in the lobby with a rated seek; one resigns;
// both see the rating change at the end, the PGN carries it, and the profile shows the
// new rating (provisional, "?") and the rating-history chart (uPlot).
// P21: the invitee of a link names their seat; the name is remembered in the browser
// and the opponent sees it.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, startGame, pairRatedInLobby } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PASSWORD = 'a password long enough';
const suffix = Date.now().toString(36).slice(-6);

// The game's full state as a spectator gets it (the page's dataset has only a summary).
async function apiState(page) {
  const id = /#\/game\/([\w-]+)/.exec(page.url())[1];
  return (await (await fetch(`${server.url}/api/v1/games/${id}`)).json()).game;
}

async function signUp(page, name) {
  const r = await page.request.post(`${server.url}/api/v1/account/signup`, { data: { v: 1, name, password: PASSWORD } });
  assert.equal(r.status(), 201, await r.text());
}

test('P23: a rated lobby game moves both ratings; the game, the PGN and the profile show it', async () => {
  const alice = await newPage(browser, server.url + '/');
  const bob = await newPage(browser, server.url + '/');
  const A = `alice${suffix}`, B = `bob${suffix}`;
  await signUp(alice, A);
  await signUp(bob, B);
  await pairRatedInLobby(alice, bob, server.url);
  const start = await apiState(alice);
  assert.equal(start.rated, true);
  assert.equal(start.players.white.account, A);
  assert.equal(start.players.black.account, B);

  await move(alice, 'e2', 'e4');
  await waitPly(bob, 1);
  await move(bob, 'e7', 'e5');
  await waitPly(alice, 2);
  // Issue 25: a game is rated once both sides made two moves.
  await move(alice, 'g1', 'f3');
  await waitPly(bob, 3);
  await move(bob, 'b8', 'c6');
  await waitPly(alice, 4);
  // Black resigns.
  await bob.click('[data-action=resign]');
  const confirm = bob.locator('[data-action=resign-confirm]');
  if (await confirm.count()) await confirm.click();
  for (const p of [alice, bob]) await p.waitForSelector('.game-screen:not([data-status=ongoing]) .rating-diff');
  const end = await apiState(alice);
  const wd = end.players.white.rating_diff, bd = end.players.black.rating_diff;
  assert.ok(wd > 0 && bd < 0, `diffs ${wd} ${bd}`);
  assert.equal(end.players.white.rating, 1500);
  // Both screens show "1500? +N" for White and "1500? −N" for Black.
  for (const p of [alice, bob]) {
    const diffs = await p.locator('.rating-diff').allTextContents();
    assert.deepEqual(diffs.sort(), [`+${wd}`, `\u2212${-bd}`].sort());
    assert.match(await p.locator('.player-name .rating').first().textContent(), /1500\?/);
  }
  await shot(alice, 'rated-game-end');
  await assertAccessible(bob, 'the end of a rated game');

  const pgn = await (await fetch(`${server.url}/api/v1/games/${/#\/game\/([\w-]+)/.exec(alice.url())[1]}/pgn`)).text();
  assert.match(pgn, /\[WhiteElo "1500"\]/);
  assert.match(pgn, /\[BlackElo "1500"\]/);
  assert.match(pgn, new RegExp(`\\[WhiteRatingDiff "\\+${wd}"\\]`));
  assert.match(pgn, new RegExp(`\\[BlackRatingDiff "${bd}"\\]`));

  // The route and the profile: the new rating (provisional), one game, the chart.
  const r = await (await fetch(`${server.url}/api/v1/players/${A}/ratings`)).json();
  assert.equal(r.ratings.blitz.games, 1);
  assert.equal(r.ratings.blitz.rating, 1500 + wd);
  assert.equal(r.ratings.blitz.provisional, true);
  assert.equal(r.history.length, 1);
  assert.equal(r.history[0].diff, wd);
  await alice.goto(`${server.url}/#/player/${A}`);
  const row = alice.locator('.profile-ratings tr[data-class=blitz]');
  await row.waitFor();
  assert.match(await row.textContent(), new RegExp(`${1500 + wd}\\?`));
  await alice.waitForSelector('.rating-chart[data-drawn=true] canvas');
  await shot(alice, 'profile-ratings');
  await assertAccessible(alice, 'a profile with ratings');
});

test('P21: the invitee names their seat; the name is remembered and the opponent sees it', async () => {
  const anna = await newPage(browser, server.url + '/');
  await startGame(anna, { opponent: 'invite', color: 'white', tc: '3+2' });
  const invite = await anna.locator('[data-link=invite]').inputValue();
  const boris = await newPage(browser, invite);
  await boris.waitForSelector('.game-screen[data-you=black]');
  await boris.waitForSelector('form[data-form=player-name]:not([hidden])');
  await boris.fill('[data-field=player-name]', '  Boris the Bold ');
  await boris.click('form[data-form=player-name] button[type=submit]');
  await anna.waitForFunction(() => document.querySelector('.player-bar.top .player-name')?.textContent.includes('Boris the Bold'));
  // A bad name is refused with words.
  await boris.evaluate(() => { const i = document.querySelector('[data-field=player-name]'); i.removeAttribute('maxlength'); });
  await boris.fill('[data-field=player-name]', 'x'.repeat(41));
  await boris.click('form[data-form=player-name] button[type=submit]');
  await boris.waitForFunction(() => /1 to 40 characters/.test(document.body.textContent));
  assert.equal((await apiState(anna)).players.black.name, 'Boris the Bold');
  // Remembered: the next invite link this browser opens plays under that name at once.
  await anna.goto(server.url + '/');
  await startGame(anna, { opponent: 'invite', color: 'white', tc: '3+2' });
  const second = await anna.locator('[data-link=invite]').inputValue();
  await boris.goto(second);
  await boris.waitForSelector('.game-screen[data-you=black]');
  await anna.waitForFunction(() => document.querySelector('.player-bar.top .player-name')?.textContent.includes('Boris the Bold'));
  assert.equal(await boris.locator('[data-field=player-name]').inputValue(), 'Boris the Bold');
});
