// P21: accounts in the browser. An anonymous game kept after signing up; sign up,
// play, sign out, and sign in again in a second browser (context); the profile page
// with its filters; the forms and pages pass axe; the cookie is HttpOnly.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, waitMyTurn, startGame } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PASSWORD = 'a password long enough';
// A fresh name per run (a kept database, a re-run against the same server).
const NAME = `anna${Date.now().toString(36).slice(-8)}`;

async function fill(page, form, values) {
  for (const [k, v] of Object.entries(values)) await page.fill(`form[data-form=${form}] [name=${k}]`, v);
  await page.click(`form[data-form=${form}] button[type=submit]`);
}

const gameOf = (page) => /#\/game\/([\w-]+)/.exec(page.url())[1];
const stateOf = async (page, id) => (await (await page.request.get(`${server.url}/api/v1/games/${id}`)).json()).game;

test('P21: an anonymous game is kept after signing up; sign out; sign in in another browser', async () => {
  // Anonymous: one click away, under a name the player sets.
  const anna = await newPage(browser, server.url + '/');
  await anna.waitForSelector('[data-action=play]');
  if (!(await anna.locator('details.more').evaluate((d) => d.open))) await anna.click('details.more summary');
  await anna.fill('[data-field=name]', 'Guest Anna');
  await anna.locator('[data-field=name]').dispatchEvent('change');
  await startGame(anna, { opponent: 'robot', color: 'white', level: 1 });
  await move(anna, 'e2', 'e4');
  await waitPly(anna, 2);
  const game = gameOf(anna);
  assert.equal((await stateOf(anna, game)).players.white.account, null);
  assert.equal((await stateOf(anna, game)).players.white.name, 'Guest Anna');

  // Sign up: the game in progress becomes the account's.
  await anna.click('[data-nav=account]');
  await anna.waitForSelector('form[data-form=acctSignIn]');
  await assertAccessible(anna, 'the sign-in form');
  await anna.click('.account-switch a');
  await anna.waitForSelector('form[data-form=acctSignUp]');
  await shot(anna, 'account-signup');
  await assertAccessible(anna, 'the sign-up form');
  // A bad password is refused with words, not a crash.
  await fill(anna, 'acctSignUp', { name: NAME, password: 'short' });
  await anna.waitForFunction(() => document.querySelector('.form-status')?.textContent.length > 0);
  assert.match(await anna.locator('.form-status').textContent(), /8/);
  await fill(anna, 'acctSignUp', { name: NAME, password: PASSWORD });
  await anna.waitForSelector('[data-action=signout]');
  assert.match(await anna.locator('[data-nav=account]').textContent(), new RegExp(NAME));
  const white = (await stateOf(anna, game)).players.white;
  assert.equal(white.account, NAME);
  assert.equal(white.name, NAME);
  await shot(anna, 'account-menu');
  await assertAccessible(anna, 'the account menu');

  // The session cookie: HttpOnly (no script sees it), SameSite=Lax.
  const cookies = await anna.context().cookies();
  const session = cookies.find((c) => c.name === 'outpost_session');
  assert.ok(session, 'a session cookie');
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');
  assert.equal(await anna.evaluate(() => document.cookie.includes('outpost_session')), false);

  // Play on, signed in: a new game is the account's from the start.
  await anna.goto(server.url + '/#/');
  await anna.waitForSelector('[data-action=play]');
  assert.equal(await anna.locator('[data-field=name]').count(), 0, 'no name to set when signed in');
  await startGame(anna, { opponent: 'robot', color: 'white', level: 1 });
  await move(anna, 'd2', 'd4');
  await waitPly(anna, 2);
  const second = gameOf(anna);
  assert.equal((await stateOf(anna, second)).players.white.account, NAME);
  // The player bar links the account's profile; the robot's has no link.
  assert.equal(await anna.locator('.player-link').getAttribute('href'), `#/player/${NAME}`);
  await anna.click('[data-action=resign]');
  const confirm = anna.locator('[data-action=resign-confirm]');
  if (await confirm.count()) await confirm.click();
  await anna.waitForSelector('.game-screen:not([data-status=ongoing])');

  // Sign out.
  await anna.click('[data-nav=account]');
  await anna.click('[data-action=signout]');
  await anna.waitForSelector('form[data-form=acctSignIn]');
  assert.equal((await anna.request.get(`${server.url}/api/v1/account`).then((r) => r.json())).account, null);

  // Another browser: sign in; the profile lists both games, the filters work.
  const other = await newPage(browser, server.url + '/#/account/signin');
  await other.waitForSelector('form[data-form=acctSignIn]');
  await fill(other, 'acctSignIn', { name: NAME, password: 'not the password' });
  await other.waitForFunction(() => document.querySelector('.form-status')?.textContent.length > 0);
  await fill(other, 'acctSignIn', { name: NAME.toUpperCase(), password: PASSWORD });
  await other.waitForSelector('[data-action=signout]');
  await other.click('[data-action=profile]');
  await other.waitForSelector('.profile-page .game-list .game-row');
  assert.equal(await other.locator('.profile-page .game-row').count(), 2);
  // P23: no rated games yet (both were against the robot): said in words.
  await other.waitForSelector('.profile-ratings [data-ratings=none]');
  await other.selectOption('#profile-result', 'loss');
  await other.waitForFunction(() => document.querySelectorAll('.profile-page .game-row').length === 1);
  assert.equal(await other.locator('.profile-page .game-row').getAttribute('data-game'), second);
  await other.selectOption('#profile-result', 'win');
  await other.waitForSelector('.profile-page .game-list .empty');
  await other.selectOption('#profile-result', '');
  await other.selectOption('#profile-color', 'black');
  await other.waitForSelector('.profile-page .game-list .empty');
  assert.equal(await other.locator('.profile-results tr[data-class=unlimited] td').first().textContent(), '1');
  await shot(other, 'account-profile');
  await assertAccessible(other, 'the profile page');

  // Sign out everywhere from the second browser ends the first one's session too.
  await other.click('[data-nav=account]');
  await other.click('[data-action=signout-all]');
  await other.waitForSelector('form[data-form=acctSignIn]');
  assert.equal((await other.request.get(`${server.url}/api/v1/account`).then((r) => r.json())).account, null);
  await anna.context().close();
  await other.context().close();
});

test('P21: the account pages in the other languages', async () => {
  for (const lang of ['fi', 'th', 'mr', 'zh', 'ja']) {
    const page = await newPage(browser, `${server.url}/?lang=${lang}#/account/signup`);
    await page.waitForSelector('form[data-form=acctSignUp]');
    const text = await page.locator('main').innerText();
    for (const english of ['Create an account', 'Username', 'Password', 'optional', 'Play without an account'])
      assert.ok(!text.includes(english), `${lang}: "${english}" left in English`);
    await assertAccessible(page, `the sign-up form in ${lang}`);
    await page.context().close();
  }
});

test('P21: a game opened by a signed-in player through an invite link takes the seat', async () => {
  const anna = await newPage(browser, server.url + '/');
  await startGame(anna, { opponent: 'invite', color: 'white', tc: '5+3' });
  const invite = await anna.locator('[data-link=invite]').inputValue();
  const game = gameOf(anna);
  const boris = await newPage(browser, server.url + '/#/account/signup');
  const name = `boris${Date.now().toString(36).slice(-8)}`;
  await fill(boris, 'acctSignUp', { name, password: PASSWORD });
  await boris.waitForSelector('[data-action=signout]');
  await boris.goto(invite);
  await boris.waitForSelector('.game-screen[data-you=black]');
  await boris.waitForTimeout(300);
  assert.equal((await stateOf(boris, game)).players.black.account, name);
  await move(anna, 'e2', 'e4');
  await waitMyTurn(boris);
  await anna.context().close();
  await boris.context().close();
});
