// SPEC D9 (issue 27 item 7) and issue 25 item 5 in the browser: a player reports a game,
// an administrator walks the admin page by keyboard (finds the account, disables it:
// the player's open game page is told its session ended and becomes anonymous; enables
// it again; resolves the report; ends the game with an arbiter's decision, which the
// player's page shows), the audit log lists every action, axe finds nothing serious,
// a player is refused, and the page speaks the six languages. This file starts its own
// server (OUTPOST_BIN): the administrator's account is made with `outpost user add
// --admin` on the database before the server starts.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launch, newPage, shot, spawnServer, tmpDir } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

const PASSWORD = 'a password long enough';
let server; let browser;

async function startAdminServer() {
  const bin = process.env.OUTPOST_BIN;
  if (!bin) throw new Error('set OUTPOST_BIN to the outpost binary (this test makes an admin account on its own database)');
  const dir = tmpDir();
  const db = path.join(dir, 'admin.db');
  execFileSync(bin, ['user', '--db', db, 'add', 'root', '--admin'], { input: `${PASSWORD}\n` });
  const web = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'dist');
  return spawnServer(bin, ['--db', db, '--web', web, '--password-cost', 'cheapest', '--no-client-limits'], dir);
}

before(async () => {
  if (!fs.existsSync(path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'dist', 'index.html')))
    throw new Error('build web/dist first (npm run build)');
  server = await startAdminServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

const post = (page, p, body) => page.request.post(server.url + p, { data: { v: 1, ...body } });

test('D9: an administrator walks the admin page by keyboard; issue 25: the disabled player\'s page is told', async () => {
  // Boris signs up, starts a game at one screen and reports it.
  const boris = await newPage(browser, server.url + '/');
  assert.equal((await post(boris, '/api/v1/account/signup', { name: 'boris', password: PASSWORD })).status(), 201);
  const made = await (await post(boris, '/api/v1/games', { opponent: 'hotseat', color: 'white', time_control: '-' })).json();
  await boris.goto(`${server.url}/#/game/${made.game}?seat=${made.seats.white}`);
  await boris.waitForSelector('.end-box', { state: 'attached' });
  await boris.reload();  // the account is read at start
  await boris.waitForSelector('details[data-report=game]');
  await boris.click('details[data-report=game] summary');
  await boris.fill('#report-game-reason', 'Someone else is moving my pieces');
  await boris.click('[data-action=report-send]');
  await boris.waitForFunction(() => document.querySelector('details[data-report=game] [role=status]')?.textContent.length > 0);
  await assertAccessible(boris, 'the game page with the report form');
  // The same on a profile (not on one's own).
  await boris.goto(`${server.url}/#/player/root`);
  await boris.click('details[data-report=player] summary');
  await boris.waitForSelector('#report-player-reason', { state: 'visible' });
  await assertAccessible(boris, 'a profile with the report form');
  await boris.goto(`${server.url}/#/player/boris`);
  await boris.waitForSelector('.profile-page h1');
  assert.equal(await boris.locator('details[data-report]').count(), 0);
  // A player is refused the admin page.
  await boris.goto(`${server.url}/#/admin`);
  await boris.waitForSelector('[data-admin=refused]');
  assert.equal(await boris.locator('[data-nav=admin]').isHidden(), true);
  await boris.goto(`${server.url}/#/game/${made.game}`);
  await boris.waitForSelector('.game-screen');

  // The administrator signs in and opens the page from the link that only admins see.
  const root = await newPage(browser, server.url + '/');
  assert.equal((await post(root, '/api/v1/account/signin', { name: 'root', password: PASSWORD })).status(), 200);
  await root.reload();
  await root.click('[data-nav=admin]');
  await root.waitForSelector('[data-table=games] [data-game]');
  await root.waitForSelector('[data-table=reports] [data-report]');
  await shot(root, 'admin-page');
  await assertAccessible(root, 'the admin page');
  assert.match(await root.locator('[data-connections]').textContent(), /\d/);

  // Find Boris by keyboard and disable the account: his page is told at once.
  await root.focus('#admin-q');
  await root.keyboard.type('bor');
  await root.keyboard.press('Enter');
  await root.waitForSelector('[data-account=boris][data-disabled=false]');
  await root.focus('[data-account=boris] [data-action=disable]');
  await root.keyboard.press('Enter');
  await root.waitForSelector('[data-account=boris][data-disabled=true]');
  assert.equal(await root.evaluate(() => document.activeElement?.id), 'admin-accounts');  // the focus stays in the section
  await boris.waitForFunction(() => /administrator disabled the account/.test(document.getElementById('toast')?.textContent ?? ''));
  await boris.waitForFunction(() => !/boris/.test(document.querySelector('[data-nav=account]')?.textContent ?? 'boris'));
  assert.equal((await post(boris, '/api/v1/account/signin', { name: 'boris', password: PASSWORD })).status(), 403);
  await root.focus('[data-account=boris] [data-action=enable]');
  await root.keyboard.press('Enter');
  await root.waitForSelector('[data-account=boris][data-disabled=false]');

  // The report is resolved; the game is ended by the arbiter, which Boris's page shows.
  await root.focus('[data-table=reports] [data-action=resolve]');
  await root.keyboard.press('Enter');
  await root.waitForSelector('[data-table=reports] [data-report]', { state: 'detached' });
  await root.click(`[data-game="${made.game}"] summary`);
  await root.selectOption(`#admin-result-${made.game}`, '0-1');
  await root.fill(`#admin-reason-${made.game}`, 'a second person moved the pieces');
  await root.focus(`[data-end="${made.game}"] [data-action=end-game]`);
  await root.keyboard.press('Enter');
  await root.waitForSelector(`[data-table=games] [data-game="${made.game}"]`, { state: 'detached' });
  const state = (await (await root.request.get(`${server.url}/api/v1/games/${made.game}`)).json()).game;
  assert.equal(state.status, 'arbiter-decision');
  assert.equal(state.result, '0-1');
  await boris.waitForFunction(() => /a second person moved the pieces/.test(document.querySelector('.end-text')?.textContent ?? ''));
  const pgn = await (await root.request.get(`${server.url}/api/v1/games/${made.game}/pgn`)).text();
  assert.match(pgn, /\[Termination "adjudication"\]/);
  assert.match(pgn.replace(/\s+/g, ' '), /\{Arbiter's decision: a second person moved the pieces\}/);  // lines of at most 79 characters

  // The audit log: every action, newest first.
  await root.click('[data-action=refresh]');
  await root.waitForSelector('[data-audit=end_game]');
  const actions = await root.locator('[data-table=audit] [data-audit]').evaluateAll((rows) => rows.map((r) => r.dataset.audit));
  assert.deepEqual(actions, ['end_game', 'resolve_report', 'enable', 'disable']);
  await assertAccessible(root, 'the admin page after the actions');

  // Six languages.
  for (const [lang, title] of [['fi', 'Ylläpito'], ['th', 'การดูแลระบบ'], ['zh', '管理'], ['ja', '管理'], ['mr', 'प्रशासन'], ['en', 'Administration']]) {
    await root.goto(`${server.url}/?lang=${lang}#/admin`);
    await root.waitForSelector('[data-table=audit]');
    assert.equal(await root.locator('#admin-title').textContent(), title, lang);
  }
  await assertAccessible(root, 'the admin page in English');
});
