// Issue 28, items 11 and 12: no page scrolls sideways on a phone (360, 390 and 430 px
// wide), the game panel's tool row is inside its card at 1280x800, the home and game
// pages have an h1 and the skip link is inside a landmark (axe "moderate").
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage } from './helpers.mjs';
import { assertAccessible } from './a11y.mjs';

let server; let browser; let game; let finished; let simul; let event; let seeker;
before(async () => {
  server = await startServer(); browser = await launch();
  // Lists with something in them: a simul, an event, an open seek.
  const host = await newPage(browser, server.url + '/');
  const name = `Wide${Date.now() % 100000}`;
  const post = async (path, data) => {
    const r = await host.request.post(server.url + path, { data: { v: 1, ...data } });
    assert.ok(r.ok(), `${path}: ${await r.text()}`);
    return r.json();
  };
  await post('/api/v1/account/signup', { name, password: 'a password long enough' });
  simul = (await post('/api/v1/simuls', { name: 'A simul with a rather long name for a phone', color: 'white', time_control: '5+3', max_boards: 4 })).simul.id;
  event = (await post('/api/v1/events', { name: 'An event with a rather long name for a phone', system: 'swiss', rounds: 5, time_control: '10+5', rated: false, mode: 'online' })).id;
  await post(`/api/v1/events/${event}/join`, {});
  seeker = await newPage(browser, server.url + '/#/lobby');
  await seeker.waitForSelector('form.seek-form');
  await seeker.selectOption('[data-field=seek-tc]', '40/5400+30:1800+30');
  await seeker.click('[data-action=create-seek]');
  await seeker.waitForSelector('[data-seek]');
  const make = async (body) => (await (await fetch(server.url + '/api/v1/games', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ v: 1, variant: 'standard', casual: true, color: 'white', ...body }),
  })).json());
  game = await make({ opponent: 'invite', time_control: '5+3' });
  finished = await make({ opponent: 'hotseat', time_control: '-' });
});
after(async () => { await browser?.close(); await server?.close(); });

const routes = () => [
  '/#/', '/#/games', '/#/account', '/#/account/signup', '/#/lobby', '/#/events', '/#/simuls', '/#/player/nobody',
  `/#/simul/${simul}`, `/#/event/${event}`,
  `/#/game/${game.game}?seat=${encodeURIComponent(game.seats.white)}`, `/#/game/${game.game}`,
];

for (const width of [360, 390, 430]) {
  test(`item 11: no page is wider than a ${width} px screen`, async () => {
    const page = await newPage(browser, server.url + '/', { viewport: { width, height: 800 }, isMobile: true, hasTouch: true });
    const wide = [];
    for (const r of routes()) {
      await page.goto(server.url + r);
      await page.waitForSelector('#app > *');
      await page.waitForTimeout(300);
      const { sw, iw, culprit } = await page.evaluate(() => {
        const iw = window.innerWidth;
        const over = [...document.querySelectorAll('body *')].find((e) => {
          const b = e.getBoundingClientRect();
          return b.width > 0 && b.right > iw + 1 && getComputedStyle(e).position !== 'fixed';
        });
        return { sw: document.documentElement.scrollWidth, iw, culprit: over ? `${over.tagName}.${over.className}` : '' };
      });
      // A phone widens its layout viewport to a page too wide: innerWidth grows with it.
      if (sw > iw || iw > width) wide.push(`${r}: ${sw} / ${iw} > ${width} (${culprit})`);
    }
    assert.deepEqual(wide, []);
    // Every link of the top bar is on the screen.
    await page.goto(server.url + '/#/');
    const off = await page.locator('header.topbar a, header.topbar button').evaluateAll((els, w) => els
      .filter((e) => { const b = e.getBoundingClientRect(); return b.right > w + 1 || b.left < -1; }).map((e) => e.textContent), width);
    assert.deepEqual(off, []);
    // The settings dialog too.
    await page.goto(server.url + '/#/');
    await page.click('[data-action=settings]');
    await page.waitForSelector('dialog[open]');
    const sw = await page.evaluate(() => document.documentElement.scrollWidth);
    if (sw > width) wide.push(`settings: ${sw} > ${width}`);
    assert.deepEqual(wide, []);
  });
}

test('item 11: at 1280x800 the game panel\'s tool row is inside its card', async () => {
  const page = await newPage(browser, `${server.url}/#/game/${game.game}?seat=${encodeURIComponent(game.seats.white)}`);
  await page.waitForSelector('.game-screen[data-status] [data-link=watch]');
  await page.waitForSelector('form[data-form=player-name]:not([hidden])');
  await page.waitForTimeout(300);
  const { tools, side } = await page.evaluate(() => ({
    tools: document.querySelector('.tools').getBoundingClientRect().toJSON(),
    side: document.querySelector('.game-screen .side').getBoundingClientRect().toJSON(),
  }));
  assert.ok(tools.bottom <= side.bottom + 0.5, `tools end at ${tools.bottom}, the card at ${side.bottom}`);
  assert.ok(tools.bottom <= 800, `tools on the screen (${tools.bottom})`);
  const hit = await page.evaluate(() => {
    const b = document.querySelector('[data-tool=pgn]').getBoundingClientRect();
    const e = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
    return e?.closest('[data-tool]')?.getAttribute('data-tool') ?? null;
  });
  assert.equal(hit, 'pgn', 'the PGN tool can be clicked');
});

test('item 12: the home and game pages have an h1; the skip link is inside a landmark', async () => {
  const page = await newPage(browser, server.url + '/');
  for (const r of ['/#/', `/#/game/${game.game}`, `/#/game/${finished.game}?seat=${encodeURIComponent(finished.seats.white)}`]) {
    await page.goto(server.url + r);
    await page.waitForSelector('#app > *');
    await page.waitForTimeout(300);
    assert.equal(await page.locator('h1').count(), 1, `one h1 on ${r}`);
    assert.equal(await page.locator('a.skip').evaluate((a) => !!a.closest('header, nav, main, [role=banner], [role=navigation], [role=main]')), true);
    await assertAccessible(page, `issue 28 ${r}`, { impacts: ['moderate', 'serious', 'critical'] });
  }
});
