// Issue 28, items 6 and 10: a rated game says "Rated" and shows the ratings while it
// is played; a successful sign-in leaves the form (and an earlier error) behind; a
// wrong current password is called that; the rating chart of a single day is drawn
// on an axis of hours, not days.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, move, waitPly } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PASSWORD = 'a password long enough';
const suffix = Date.now().toString(36).slice(-6);

async function signUp(page, name) {
  const r = await page.request.post(`${server.url}/api/v1/account/signup`, { data: { v: 1, name, password: PASSWORD } });
  assert.equal(r.status(), 201, await r.text());
}

test('item 10: after a sign-in at #/account the form and its earlier error are gone', async () => {
  const other = await newPage(browser, server.url + '/');
  const name = `carol${suffix}`;
  await signUp(other, name);
  await other.close();
  const page = await newPage(browser, server.url + '/#/account');
  await page.waitForSelector('form[data-form=acctSignIn]');
  await page.fill('#acct-name', name);
  await page.fill('#acct-password', 'not the password');
  await page.click('form[data-form=acctSignIn] button[type=submit]');
  await page.waitForFunction(() => /Wrong username or password/.test(document.querySelector('.form-status')?.textContent ?? ''));
  await page.fill('#acct-password', PASSWORD);
  await page.click('form[data-form=acctSignIn] button[type=submit]');
  await page.waitForSelector('form[data-form=password]');
  assert.equal(await page.locator('form[data-form=acctSignIn]').count(), 0, 'the sign-in form is gone');
  assert.doesNotMatch(await page.locator('main').textContent(), /Wrong username or password/);

  // Change password with a wrong current password: said so.
  await page.fill('#acct-old', 'not the password');
  await page.fill('#acct-new', 'another long password');
  await page.click('form[data-form=password] button[type=submit]');
  await page.waitForFunction(() => (document.querySelector('form[data-form=password] .form-status')?.textContent ?? '') !== '');
  const said = await page.locator('form[data-form=password] .form-status').textContent();
  assert.match(said, /current password is wrong/i, said);
});

test('items 6 and 10: a rated game says Rated and shows both ratings; the profile chart spans hours', async () => {
  const alice = await newPage(browser, server.url + '/');
  const bob = await newPage(browser, server.url + '/');
  const A = `alix${suffix}`, B = `bobo${suffix}`;
  await signUp(alice, A);
  await signUp(bob, B);
  await alice.goto(server.url + '/#/lobby');
  await bob.goto(server.url + '/#/lobby');
  await alice.waitForSelector('form.seek-form');
  await alice.selectOption('[data-field=seek-tc]', '5+3');
  await alice.check('[data-field=seek-rated]');
  await alice.click('[data-action=create-seek]');
  await bob.waitForSelector('[data-seek] [data-action=accept-seek]');
  await bob.click('[data-seek] [data-action=accept-seek]');
  for (const p of [alice, bob]) {
    await p.waitForSelector('.game-screen[data-status=ongoing]');
    assert.match(await p.locator('.status .meta').textContent(), /Rated/);
    await p.waitForFunction(() => document.querySelectorAll('.player-name .rating').length === 2);
    const shown = await p.locator('.player-name .rating').allTextContents();
    assert.deepEqual(shown.map((x) => x.trim()), ['1500?', '1500?']);
  }
  const white = (await alice.locator('.game-screen').getAttribute('data-you')) === 'white' ? alice : bob;
  const black = white === alice ? bob : alice;
  await move(white, 'e2', 'e4'); await waitPly(black, 1);
  await move(black, 'e7', 'e5'); await waitPly(white, 2);
  // Issue 25: rated once both sides made two moves.
  await move(white, 'g1', 'f3'); await waitPly(black, 3);
  await move(black, 'b8', 'c6'); await waitPly(white, 4);
  await black.click('[data-action=resign]');
  const confirm = black.locator('[data-action=resign-confirm]');
  if (await confirm.count()) await confirm.click();
  await white.waitForSelector('.game-screen:not([data-status=ongoing]) .rating-diff');
  await white.goto(`${server.url}/#/player/${A}`);
  const chart = white.locator('[data-chart=ratings][data-drawn=true]');
  await chart.waitFor();
  const span = Number(await chart.getAttribute('data-span-seconds'));
  assert.ok(span > 0 && span <= 3 * 3600, `one game: an axis of hours (${span} s)`);
});
