// P7: a premove made while the opponent thinks is played when the turn comes;
// with the queue setting, several premoves are played one after another.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, newPage, shot, move, waitPly, startGame } from './helpers.mjs';

let server; let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function pair(queue) {
  const anna = await newPage(browser, server.url + '/');
  if (queue) await anna.evaluate(() => localStorage.setItem('outpost.settings', JSON.stringify({ premoveQueue: true })));
  await anna.reload();
  await startGame(anna, { opponent: 'invite', color: 'white', tc: '5+0' });
  const boris = await newPage(browser, await anna.locator('[data-link=invite]').inputValue());
  await boris.waitForSelector('.game-screen[data-you=black]');
  return { anna, boris };
}

test('one premove', async () => {
  const { anna, boris } = await pair(false);
  await move(anna, 'e2', 'e4'); await waitPly(anna, 1);
  await move(anna, 'd2', 'd4'); // Black to move: this is a premove
  await anna.waitForFunction(() => document.querySelectorAll('cg-board square.current-premove').length === 2);
  await shot(anna, 'premove-set');
  await move(boris, 'e7', 'e5');
  await waitPly(boris, 3);
  assert.deepEqual(await anna.locator('.moves .mv').allTextContents(), ['e4', 'e5', 'd4']);
});

test('a premove queue', async () => {
  const { anna, boris } = await pair(true);
  await move(anna, 'e2', 'e4'); await waitPly(anna, 1);
  await move(anna, 'g1', 'f3');
  await move(anna, 'f1', 'c4');
  await anna.waitForFunction(() => document.querySelectorAll('cg-board square.current-premove').length === 4);
  await shot(anna, 'premove-queue');
  await move(boris, 'e7', 'e5'); await waitPly(boris, 3);
  await move(boris, 'b8', 'c6'); await waitPly(boris, 5);
  assert.deepEqual(await anna.locator('.moves .mv').allTextContents(), ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4']);
});

test('R4: castling as a queued premove (king dropped on its rook) is drawn and sent as e1g1', async () => {
  const { anna, boris } = await pair(true);
  const plies = [[anna, 'e2', 'e4'], [boris, 'e7', 'e5'], [anna, 'g1', 'f3'], [boris, 'b8', 'c6'], [anna, 'f1', 'c4']];
  for (let i = 0; i < plies.length; i++) { await move(...plies[i]); await waitPly(anna, i + 1); }
  await move(anna, 'e1', 'h1'); // Black to move: a queued premove
  await anna.waitForFunction(() => document.querySelectorAll('cg-board square.current-premove').length === 2);
  // Drawn castled: the king on g1, the rook on f1 (not the king on h1 alone).
  const at = (sq) => anna.evaluate((sq) => {
    const board = document.querySelector('.game-screen cg-board').getBoundingClientRect();
    const s = board.width / 8; const f = sq.charCodeAt(0) - 97; const r = Number(sq[1]) - 1;
    const p = [...document.querySelectorAll('cg-board piece')].find((e) => {
      const b = e.getBoundingClientRect();
      return Math.floor((b.x + b.width / 2 - board.x) / s) === f && Math.floor((b.y + b.height / 2 - board.y) / s) === 7 - r;
    });
    return p ? p.className : '';
  }, sq);
  await anna.waitForTimeout(300);
  assert.match(await at('g1'), /white king/);
  assert.match(await at('f1'), /white rook/);
  await shot(anna, 'premove-queue-castle');
  await move(boris, 'g8', 'f6'); await waitPly(anna, 7);
  assert.deepEqual(await anna.locator('.moves .mv').allTextContents(), ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Nf6', 'O-O']);
  const id = anna.url().match(/game\/([\w-]+)/)[1];
  const game = (await (await fetch(`${server.url}/api/v1/games/${id}`)).json()).game;
  assert.equal(game.moves[6], 'e1g1');
});
