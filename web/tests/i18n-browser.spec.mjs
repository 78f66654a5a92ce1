// P17 in a real browser: ?lang=xx picks the language and is remembered; without it
// the browser's language decides; the home page and the Settings dialog show no
// English string that the language translates; Thai, Devanagari and CJK render with
// the Noto fonts shipped from npm, fetched only for their language (never for
// English). axe-core finds nothing serious on each page in each language.
// Screenshots: web/test-artifacts/lang-home-LANG.png, lang-settings-LANG.png.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch, newPage, shot, move, waitPly } from './helpers.mjs';
import { importTs } from './ts-import.mjs';
import { assertAccessible } from './a11y.mjs';
import { LANGS, dicts, leftInEnglish, texts } from './i18n-check.mjs';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const FAMILY = { th: 'Noto Sans Thai', mr: 'Noto Sans Devanagari', zh: 'Noto Sans SC', ja: 'Noto Sans JP' };

const SCRIPT = { th: /[\u0E00-\u0E7F]/g, mr: /[\u0900-\u097F]/g, zh: /[\u3000-\u9FFF\uFF00-\uFFEF]/g, ja: /[\u3000-\u9FFF\uFF00-\uFFEF]/g };

// Every element under `root` whose own text holds the language's script must be drawn
// with the shipped font: glyphs from other (system) fonts may only be the Latin
// letters, digits, spaces and signs beside it. Asked of Chromium through the DevTools
// protocol (CSS.getPlatformFontsForNode: the fonts used for a node's own text).
async function fallbackGlyphs(page, root, lang) {
  const marked = await page.evaluate(([sel, src]) => {
    const re = new RegExp(src, 'g'); let i = 0;
    for (const el of document.querySelectorAll(`${sel}, ${sel} *`)) {
      const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('');
      if (own.match(re)) el.setAttribute('data-fontcheck', String(i++));
    }
    return i;
  }, [root, SCRIPT[lang].source]);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable'); await cdp.send('CSS.enable');
  const { root: doc } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: doc.nodeId, selector: '[data-fontcheck]' });
  const bad = [];
  for (const nodeId of nodeIds) {
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    if (!fonts.length) continue; // not drawn: hidden, or an <option> of a closed <select>
    const { node } = await cdp.send('DOM.describeNode', { nodeId });
    const i = node.attributes[node.attributes.indexOf('data-fontcheck') + 1];
    // The fonts reported cover the node's whole subtree (and a <summary>'s marker).
    const [text, marker] = await page.locator(`[data-fontcheck="${i}"]`).evaluate((el) => [el.textContent, el.tagName === 'SUMMARY' ? 2 : 0]);
    const other = text.replace(SCRIPT[lang], '').length + marker;
    const system = fonts.filter((f) => !f.isCustomFont).reduce((a, f) => a + f.glyphCount, 0);
    if (system > other || !fonts.some((f) => f.isCustomFont)) bad.push(`"${text}": ${fonts.map((f) => `${f.familyName} ${f.glyphCount}`).join(', ')}`);
  }
  await cdp.detach();
  return { checked: marked, bad };
}

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const { formatMessage } = await importTs(path.join(WEB, 'src', 'locale', 'format.ts'));
const formatIn = (lang, key, params) => formatMessage(dicts[lang][key], params, lang);

for (const lang of LANGS) {
  test(`P17: /?lang=${lang}: home page and Settings in ${lang}, fonts for its script`, async () => {
    const fontRequests = [];
    const page = await newPage(browser, 'about:blank');
    page.on('request', (r) => { if (/\.woff2($|\?)/.test(r.url())) fontRequests.push(r.url()); });
    await page.goto(`${server.url}/?lang=${lang}`);
    await page.waitForSelector('.home-screen cg-board piece');
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    assert.equal((await page.locator('[data-action=play]').textContent()).trim(), dicts[lang].play);
    await page.waitForTimeout(300);
    if (lang !== 'en') {
      assert.deepEqual(leftInEnglish(await texts(page, 'body'), lang), [], 'home page strings still in English');
      // The level tooltips are worded here, not the server's English `label`.
      await page.waitForSelector('[data-field=level] .elo');
      const title = await page.locator('[data-field=level] button.level').first().getAttribute('title');
      assert.ok(title && !/measured|Level/.test(title), title);
      if (!(await page.locator('details.more').evaluate((d) => d.open))) await page.click('details.more summary');
      assert.deepEqual(leftInEnglish(await texts(page, 'body'), lang), [], 'more options still in English');
    }
    const family = FAMILY[lang];
    if (family) {
      await page.evaluate(() => document.fonts.ready);
      const ok = await page.evaluate(([f, sample]) => document.fonts.check(`16px "${f}"`, sample) &&
        [...document.fonts].some((ff) => ff.family.replace(/"/g, '') === f && ff.status === 'loaded'), [family, dicts[lang].play]);
      assert.ok(ok, `${family} loaded for ${lang}`);
      assert.ok(fontRequests.some((u) => u.includes(family.toLowerCase().replace(/ /g, '-'))), `${family} fetched: ${fontRequests}`);
      const { checked, bad } = await fallbackGlyphs(page, 'body', lang);
      assert.ok(checked > 20, `only ${checked} elements in ${lang} script`);
      assert.deepEqual(bad, [], 'text drawn with a system font (boxes on a bare machine)');
    }
    for (const [other, f] of Object.entries(FAMILY)) {
      if (other === lang) continue;
      const slug = f.toLowerCase().replace(/ /g, '-');
      assert.ok(!fontRequests.some((u) => u.includes(slug)), `${lang} page fetched ${f}`);
    }
    await shot(page, `lang-home-${lang}`);
    await assertAccessible(page, `the home page in ${lang}`);
    await page.click('[data-action=settings]');
    await page.waitForSelector('dialog.settings[open]');
    if (lang !== 'en') assert.deepEqual(leftInEnglish(await texts(page, 'dialog.settings'), lang), [], 'Settings still in English');
    await shot(page, `lang-settings-${lang}`);
    await assertAccessible(page, `Settings in ${lang}`);
    // Remembered: the address without ?lang keeps the language.
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-action=play]');
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    await page.context().close();
  });
}

// The piece letters each language writes in the move list (R17, FIDE Laws C.3).
const KNIGHT = { en: 'N', fi: 'R', th: 'N', mr: 'N', zh: 'N', ja: 'N' };

for (const lang of LANGS.filter((l) => l !== 'en')) {
  test(`P17, R17: a same-device game and My games in ${lang}; the move list in its letters`, async () => {
    const page = await newPage(browser, `${server.url}/?lang=${lang}`);
    await page.waitForSelector('[data-action=play]');
    await page.click('[data-field=opponent] [data-value=hotseat]');
    await page.click('[data-field=tc] [data-value="5+3"]');
    await page.click('[data-action=play]');
    await page.waitForSelector('.game-screen[data-status=ongoing]');
    await move(page, 'g1', 'f3');
    await waitPly(page, 1);
    assert.equal((await page.locator('.moves .mv[data-ply="1"]').textContent()).trim(), `${KNIGHT[lang]}f3`);
    await page.waitForTimeout(300);
    // Nothing left in English, the player bars' "Anonymous" from the server included.
    assert.deepEqual(leftInEnglish(await texts(page, 'body'), lang), [],
      'game screen strings still in English');
    if (FAMILY[lang]) assert.deepEqual((await fallbackGlyphs(page, 'body', lang)).bad, []);
    await shot(page, `lang-game-${lang}`);
    await assertAccessible(page, `a game in ${lang}`);
    await page.goto(`${server.url}/#/games`);
    await page.waitForSelector('.game-list .game-row');
    const row = await page.locator('.game-list .game-row').first().textContent();
    assert.ok(row.includes(dicts[lang].yourTurn), row);  // C3: a same-device game waits for "your" move
    assert.ok(row.includes(formatIn(lang, 'movesN', { n: 1 })), row);
    assert.deepEqual(leftInEnglish(await texts(page, 'body'), lang), [], 'My games strings still in English');
    await shot(page, `lang-games-${lang}`);
    await assertAccessible(page, `My games in ${lang}`);
    await page.context().close();
  });
}

// The analysis view (issue 10) in each language: the summary, the marks' words, the
// graph's name and the comment under the board.
for (const lang of LANGS.filter((l) => l !== 'en')) {
  test(`P17: the analysis of a finished game in ${lang}`, async () => {
    const page = await newPage(browser, `${server.url}/?lang=${lang}`);
    await page.waitForSelector('[data-action=play]');
    await page.click('[data-field=opponent] [data-value=hotseat]');
    await page.click('[data-action=play]');
    await page.waitForSelector('.game-screen[data-status=ongoing]');
    const moves = [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']];
    for (let i = 0; i < moves.length; i++) {
      await move(page, ...moves[i]);
      await waitPly(page, i + 1);
    }
    await page.waitForSelector('.game-screen[data-status=checkmate]');
    await page.click('[data-action=analyse]');
    await page.waitForSelector('.analysis[data-phase=done]', { timeout: 60000 });
    await page.locator('.mv[data-ply="3"]').click();
    await page.waitForTimeout(300);
    assert.deepEqual(leftInEnglish(await texts(page, 'body'), lang), [], 'analysis strings still in English');
    if (FAMILY[lang]) assert.deepEqual((await fallbackGlyphs(page, 'body', lang)).bad, []);
    await shot(page, `lang-analysis-${lang}`);
    await assertAccessible(page, `the analysis view in ${lang}`);
    await page.context().close();
  });
}

test('P17: without ?lang the browser\'s language decides, then English', async () => {
  for (const [locale, want] of [['fi-FI', 'fi'], ['ja-JP', 'ja'], ['de-DE', 'en']]) {
    const page = await newPage(browser, `${server.url}/`, { locale });
    await page.waitForSelector('[data-action=play]');
    assert.equal(await page.evaluate(() => document.documentElement.lang), want, locale);
    assert.equal((await page.locator('[data-action=play]').textContent()).trim(), dicts[want].play);
    await page.context().close();
  }
});

test('P17: an unknown ?lang is ignored', async () => {
  const page = await newPage(browser, `${server.url}/?lang=xx`, { locale: 'en-GB' });
  await page.waitForSelector('[data-action=play]');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await page.context().close();
});
