// Shared pieces of the browser tests: the real server under test (OUTPOST_URL, or
// one started from OUTPOST_BIN on a free port serving web/dist), Debian's Chromium through
// playwright-core, and board helpers that click squares as a person would.
// SPDX-License-Identifier: GPL-3.0-or-later
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.join(HERE, '..');
export const ARTIFACTS = path.join(WEB, 'test-artifacts');
fs.mkdirSync(ARTIFACTS, { recursive: true });

// The server under test is always the real `outpost serve`: OUTPOST_URL when one is
// running (scripts/test.sh starts one), else this file starts one from OUTPOST_BIN on a
// free port with a fresh database, serving web/dist (built first when older than src/).
export async function startServer() {
  if (process.env.OUTPOST_URL) return { url: process.env.OUTPOST_URL.replace(/\/$/, ''), close: async () => {} };
  const bin = process.env.OUTPOST_BIN;
  if (!bin) throw new Error('set OUTPOST_URL to a running `outpost serve`, or OUTPOST_BIN to the outpost binary');
  ensureBuilt();
  const dir = tmpDir();
  // --robot-instant: the robot answers as soon as it has searched (a person's time per
  // move would make a 30-move game take minutes).
  return spawnServer(bin, ['--robot-instant', '--db', path.join(dir, 'test.db'), '--web', path.join(WEB, 'dist')], dir);
}

// `outpost serve --port 0 ARGS…` from `bin`, once it says where it serves; close()
// stops it and removes `dir` (its database's folder).
export async function spawnServer(bin, args, dir) {
  const proc = spawn(bin, ['serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('outpost serve did not start: ' + out)), 15000);
    const read = (d) => {
      out += d;
      const m = out.match(/http:\/\/[^:\s]+:(\d+)\//);
      if (m) { clearTimeout(timer); resolve(`http://127.0.0.1:${m[1]}`); }
    };
    proc.stdout.on('data', read);
    proc.stderr.on('data', read);
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`outpost serve exited with ${code}: ${out}`)); });
  });
  proc.removeAllListeners('exit');
  return {
    url,
    close: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => { if (proc.exitCode !== null) r(); else proc.once('exit', r); });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function newest(dir) {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

function ensureBuilt() {
  const index = path.join(WEB, 'dist', 'index.html');
  const src = Math.max(newest(path.join(WEB, 'src')), fs.statSync(path.join(WEB, 'index.html')).mtimeMs);
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= src) return;
  execFileSync(process.execPath, [path.join(WEB, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: WEB, stdio: 'inherit' });
}

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// Playwright gives every launch a fresh, empty --user-data-dir of its own.
export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export async function newPage(browser, url, opts = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true, ...opts });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(url);
  return page;
}

export async function shot(page, name) {
  await page.waitForTimeout(250); // let animations settle
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

// The centre of a square on the screen, from the board's box and orientation.
export async function squareCenter(page, sq) {
  const board = page.locator('.game-screen cg-board, .home-screen cg-board').first();
  const box = await board.boundingBox();
  const black = await page.locator('.cg-wrap.orientation-black').count() > 0;
  const file = sq.charCodeAt(0) - 97; const rank = parseInt(sq[1], 10) - 1;
  const col = black ? 7 - file : file; const row = black ? rank : 7 - rank;
  const s = box.width / 8;
  return { x: box.x + (col + 0.5) * s, y: box.y + (row + 0.5) * s };
}

export async function clickSquare(page, sq, { touch = false } = {}) {
  const { x, y } = await squareCenter(page, sq);
  if (touch) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

// Click-click move, e.g. move(page, 'e2', 'e4').
export async function move(page, from, to, opts) {
  await clickSquare(page, from, opts);
  await page.waitForTimeout(40);
  await clickSquare(page, to, opts);
}

export async function waitPly(page, n, timeout = 10000) {
  await page.waitForSelector(`.game-screen[data-ply="${n}"]`, { timeout });
}

export async function waitMyTurn(page, timeout = 10000) {
  await page.waitForSelector('.game-screen[data-myturn="true"], .game-screen:not([data-status="ongoing"])[data-status]', { timeout });
}

export async function gameState(page) {
  return page.locator('.game-screen').evaluate((el) => ({ ...el.dataset }));
}

// Starts a game from the home screen with the given panel choices.
export async function startGame(page, { opponent = 'robot', color = 'white', tc = '-', level, start, variant } = {}) {
  await page.click(`[data-field=opponent] [data-value=${opponent}]`);
  if (opponent !== 'hotseat') await page.click(`[data-field=color] [data-value="${color}"]`);
  if (level) await page.click(`[data-field=level] [data-value="${level}"]`);
  await page.click(`[data-field=tc] [data-value="${tc}"]`);
  if (start !== undefined || variant !== undefined) {
    if (!(await page.locator('details.more').evaluate((d) => d.open))) await page.click('details.more summary');
  }
  if (variant !== undefined) await page.click(`[data-field=variant] [data-value="${variant}"]`);
  if (start !== undefined) {
    await page.fill('[data-field=start]', start);
    await page.locator('[data-field=start]').dispatchEvent('change');
  }
  await page.click('[data-action=play]');
  await page.waitForSelector('.game-screen[data-status]');
}

// The squares a piece on `from` may go to, as the board shows them after a click.
// The squares of the elements a selector finds on the game board, read from where they
// are drawn (so the board's orientation is taken into account).
async function drawnSquares(page, selector) {
  const board = await page.locator('.game-screen cg-board').boundingBox();
  const black = await page.locator('.cg-wrap.orientation-black').count() > 0;
  const pts = await page.locator(selector).evaluateAll((els) => els.map((e) => {
    const r = e.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }));
  const s = board.width / 8;
  return pts.map(({ x, y }) => {
    const col = Math.floor((x - board.x) / s); const row = Math.floor((y - board.y) / s);
    return `${'abcdefgh'[black ? 7 - col : col]}${(black ? row : 7 - row) + 1}`;
  }).filter((sq) => /^[a-h][1-8]$/.test(sq));
}

export const shownDests = (page) => drawnSquares(page, 'cg-board square.move-dest');

// The squares of our pieces, read from the board.
export const pieceSquares = (page, color) => drawnSquares(page, `cg-board piece.${color}:not(.ghost):not(.fading)`);

// The square the board shows as selected, or null. chessground redraws on the next
// animation frame, so wait for two frames first: a read straight after a click can
// see the previous selection's destinations.
export async function selectedSquare(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return (await drawnSquares(page, 'cg-board square.selected'))[0] ?? null;
}

export const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-web-'));

// The messages the page sends on its game WebSocket, parsed (for checking what the UI
// asks the server, e.g. the UCI form of a castling move).
export function recordSent(page) {
  const sent = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => {
    try { sent.push(JSON.parse(typeof f.payload === 'string' ? f.payload : f.payload.toString())); } catch { /* not JSON */ }
  }));
  return sent;
}

// Two signed-in pages paired for a rated 5+3 game through the lobby: `alice` seeks as
// White, `bob` accepts; both wait for the game screen.
export async function pairRatedInLobby(alice, bob, url) {
  await alice.goto(url + '/#/lobby');
  await bob.goto(url + '/#/lobby');
  await alice.waitForSelector('form.seek-form');
  await alice.selectOption('[data-field=seek-tc]', '5+3');
  await alice.selectOption('[data-field=seek-color]', 'white');
  await alice.check('[data-field=seek-rated]');
  await alice.click('[data-action=create-seek]');
  await bob.waitForSelector('[data-seek] [data-action=accept-seek]');
  await bob.click('[data-seek] [data-action=accept-seek]');
  await alice.waitForSelector('.game-screen[data-you=white]');
  await bob.waitForSelector('.game-screen[data-you=black]');
}
