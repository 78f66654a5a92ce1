// Issue 27 item 5: `outpost serve` stopped with SIGTERM closes the page's WebSocket with
// 1012 ("service restart"), and the page reconnects by itself to the next server on the
// same address, where the game goes on. Starts its own two servers (one after the
// other, on one port and one database), never the suite's shared one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, newPage, move, waitPly, startGame, tmpDir } from './helpers.mjs';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

// `outpost serve` on `port` (0: a free one); resolves once it says where it serves.
function serve(bin, port, db) {
  const proc = spawn(bin, ['serve', '--host', '127.0.0.1', '--port', String(port), '--robot-instant', '--db', db,
    '--web', path.join(WEB, 'dist')], { stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('outpost serve did not start: ' + out)), 15000);
    const read = (d) => {
      out += d;
      const m = out.match(/serving on http:\/\/[^:\s]+:(\d+)\//);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    };
    proc.stdout.on('data', read);
    proc.stderr.on('data', () => {});
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`outpost serve exited with ${code}: ${out}`)); });
  });
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  return { proc, ready, exited };
}

let browser; let dir; const running = [];
before(async () => { browser = await launch(); dir = tmpDir(); });
after(async () => {
  await browser?.close();
  for (const s of running) if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('SIGTERM closes the game socket with 1012 and the page reconnects to the next server', async (t) => {
  const bin = process.env.OUTPOST_BIN;
  if (!bin) { t.skip('OUTPOST_BIN is not set'); return; }
  const db = path.join(dir, 'restart.db');
  const first = serve(bin, 0, db);
  running.push(first);
  const port = await first.ready;
  const page = await newPage(browser, `http://127.0.0.1:${port}/`);
  // Every socket's close code, as the page's own WebSocket sees it.
  await page.addInitScript(() => {
    const Native = window.WebSocket;
    window.__closeCodes = [];
    window.WebSocket = class extends Native {
      constructor(...args) {
        super(...args);
        this.addEventListener('close', (e) => window.__closeCodes.push(e.code));
      }
    };
  });
  await page.reload();
  await startGame(page, { opponent: 'hotseat' });
  await move(page, 'e2', 'e4'); await waitPly(page, 1);

  const started = Date.now();
  first.proc.kill('SIGTERM');
  const { code } = await first.exited;
  assert.equal(code, 0, 'the server exits normally');
  assert.ok(Date.now() - started < 5000, 'within 5 s');
  await page.waitForFunction(() => window.__closeCodes.includes(1012), null, { timeout: 5000 });
  await page.waitForSelector('.conn:not([hidden])', { timeout: 5000 });

  const second = serve(bin, port, db);
  running.push(second);
  assert.equal(await second.ready, port);
  await page.waitForSelector('.conn[hidden]', { state: 'attached', timeout: 15000 });
  await move(page, 'e7', 'e5'); await waitPly(page, 2);
  assert.deepEqual(await page.locator('.moves .mv').allTextContents(), ['e4', 'e5']);
  second.proc.kill('SIGTERM');
  assert.equal((await second.exited).code, 0);
});

// Issue 26 (docs/protocol.md "Lobby", `instance`): seeks live in the lobby's memory. When
// the lobby the page waited in is gone (here its server restarted; with several nodes,
// another node runs the lobby), the page posts its seek and its quick-pairing wait again.
test('the lobby page posts its seek and its quick pairing again in the next lobby', async (t) => {
  const bin = process.env.OUTPOST_BIN;
  if (!bin) { t.skip('OUTPOST_BIN is not set'); return; }
  const db = path.join(dir, 'lobby-restart.db');
  const first = serve(bin, 0, db);
  running.push(first);
  const port = await first.ready;
  const anna = await newPage(browser, `http://127.0.0.1:${port}/#/lobby`);
  await anna.fill('[data-field=lobby-name]', 'Anna');
  await anna.click('[data-quick="3+2"]');
  await anna.waitForSelector('[data-quick="3+2"][aria-pressed=true]');
  await anna.selectOption('[data-field=seek-tc]', '5+3');
  await anna.click('[data-action=create-seek]');
  await anna.waitForSelector('[data-action=cancel-seek]');

  first.proc.kill('SIGTERM');
  assert.equal((await first.exited).code, 0);
  const second = serve(bin, port, db);
  running.push(second);
  assert.equal(await second.ready, port);
  // Someone else in the new lobby sees Anna's seek and her wait at 3+2.
  const boris = await newPage(browser, `http://127.0.0.1:${port}/#/lobby`);
  await boris.waitForSelector('[data-quick="3+2"][data-waiting="1"]', { timeout: 15000 });
  await boris.waitForSelector('tr[data-seek] [data-action=accept-seek]', { timeout: 15000 });
  const rows = await boris.locator('tr[data-seek]').allTextContents();
  assert.ok(rows.some((r) => r.includes('Anna') && r.includes('5+3')), JSON.stringify(rows));
  // Posted once each, not twice.
  await boris.waitForTimeout(1000);
  assert.equal(await boris.locator('[data-quick="5+3"][data-waiting="1"]').count(), 1);
  assert.equal(await boris.locator('[data-quick="3+2"][data-waiting="1"]').count(), 1);
  second.proc.kill('SIGTERM');
  assert.equal((await second.exited).code, 0);
});
