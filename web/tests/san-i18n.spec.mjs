// R17, P14, P17 (FIDE Laws Appendix C.3): SAN in each language's piece letters
// round-trips to English SAN; the move box takes the language's letters, English
// letters, figurines and (Chinese) piece characters, and picks the reading that is a
// legal move. Pure module web/src/locale/san.ts, no browser.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importTs } from './ts-import.mjs';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const san = await importTs(path.join(WEB, 'src', 'locale', 'san.ts'));
const LANGS = ['en', 'fi', 'th', 'mr', 'zh', 'ja'];

// Every SAN shape: piece moves, captures, disambiguation by file, rank and both,
// pawn captures, promotions with and without capture, castling, check and mate.
const SANS = ['e4', 'Nf3', 'Bb5+', 'O-O', 'O-O-O#', 'Qxd8+', 'Rae1', 'R1e2', 'Qh4e1', 'exd5', 'e8=Q',
  'exf8=N+', 'a1=R', 'b1=B#', 'Kxf2', 'Nbd7', 'Rxh8#', 'gxh1=Q+'];

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const START_LEGAL = {
  a2: ['a3', 'a4'], b2: ['b3', 'b4'], c2: ['c3', 'c4'], d2: ['d3', 'd4'], e2: ['e3', 'e4'], f2: ['f3', 'f4'],
  g2: ['g3', 'g4'], h2: ['h3', 'h4'], b1: ['a3', 'c3'], g1: ['f3', 'h3'],
};

test('R17: Finnish letters are K D T L R (kuningas, daami, torni, lähetti, ratsu)', () => {
  assert.equal(san.toLocalSan('Nf3', san.lettersFor('fi')), 'Rf3');
  assert.equal(san.toLocalSan('Qxd8+', san.lettersFor('fi')), 'Dxd8+');
  assert.equal(san.toLocalSan('Rae1', san.lettersFor('fi')), 'Tae1');
  assert.equal(san.toLocalSan('Bb5', san.lettersFor('fi')), 'Lb5');
  assert.equal(san.toLocalSan('e8=Q', san.lettersFor('fi')), 'e8=D');
  assert.equal(san.toLocalSan('O-O-O', san.lettersFor('fi')), 'O-O-O');
});

for (const lang of LANGS) {
  test(`R17, P17: SAN in ${lang} letters round-trips to English SAN`, () => {
    const letters = san.lettersFor(lang);
    for (const s of SANS) {
      const local = san.toLocalSan(s, letters);
      assert.equal(san.sanCandidates(local, lang)[0], s, `${lang}: ${s} -> ${local}`);
    }
  });
}

test('R17: figurine SAN round-trips in both colours', () => {
  for (const s of SANS) {
    for (const white of [true, false]) assert.equal(san.sanCandidates(san.toFigurineSan(s, white), 'en')[0], s);
  }
  assert.equal(san.toFigurineSan('Nf3', true), '♘f3');
  assert.equal(san.toFigurineSan('exd8=Q#', false), 'exd8=♛#');
});

test('P14, P17: Finnish "Rf3" is the knight (ratsu) at the start, English "Nf3" too', () => {
  assert.deepEqual(san.resolveTyped('Rf3', 'fi', START, START_LEGAL), { san: 'Nf3', uci: 'g1f3' });
  assert.deepEqual(san.resolveTyped('Nf3', 'fi', START, START_LEGAL), { san: 'Nf3', uci: 'g1f3' });
  assert.deepEqual(san.resolveTyped('♘c3', 'fi', START, START_LEGAL), { san: 'Nc3', uci: 'b1c3' });
  assert.deepEqual(san.resolveTyped('e4', 'fi', START, START_LEGAL), { san: 'e4', uci: 'e2e4' });
});

test('P14, P17: Finnish "Rf3" is the rook (English R) when no knight can go there', () => {
  const fen = '4k3/8/8/8/8/8/8/5RK1 w - - 0 1';
  const legal = { f1: ['f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'e1', 'd1', 'c1', 'b1', 'a1'], g1: ['g2', 'h2', 'h1', 'f2'] };
  assert.deepEqual(san.resolveTyped('Rf3', 'fi', fen, legal), { san: 'Rf3', uci: 'f1f3' });
  assert.deepEqual(san.resolveTyped('Tf3', 'fi', fen, legal), { san: 'Rf3', uci: 'f1f3' });
});

test('P14, P17: promotion in Finnish letters (e8=D), Chinese piece characters, castling with zeros', () => {
  const fen = '8/4P3/8/8/8/8/k7/4K2R w K - 0 1';
  const legal = { e7: ['e8'], e1: ['d1', 'd2', 'e2', 'f2', 'f1', 'g1'], h1: ['h2', 'g1', 'f1'] };
  assert.deepEqual(san.resolveTyped('e8=D', 'fi', fen, legal), { san: 'e8=Q', uci: 'e7e8q' });
  assert.deepEqual(san.resolveTyped('e8=R', 'fi', fen, legal), { san: 'e8=N', uci: 'e7e8n' }); // ratsu
  assert.deepEqual(san.resolveTyped('e8=Q', 'en', fen, legal), { san: 'e8=Q', uci: 'e7e8q' });
  assert.deepEqual(san.resolveTyped('0-0', 'fi', fen, legal), { san: 'O-O' });
  assert.deepEqual(san.resolveTyped('马f3', 'zh', START, START_LEGAL), { san: 'Nf3', uci: 'g1f3' });
  assert.deepEqual(san.resolveTyped('♞f6', 'en', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
    { g8: ['f6', 'h6'], b8: ['a6', 'c6'] }), { san: 'Nf6', uci: 'g8f6' });
});

test('P14: an ambiguous or illegal reading is sent as SAN for the server to refuse', () => {
  // Two knights reach d2: "Nd2" names neither.
  const fen = '4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1';
  const legal = { b1: ['a3', 'c3', 'd2'], f1: ['d2', 'e3', 'g3', 'h2'], e1: ['d1', 'e2', 'f2'] };
  assert.equal(san.matchSan('Nd2', fen, legal), null);
  assert.deepEqual(san.resolveTyped('Nbd2', 'en', fen, legal), { san: 'Nbd2', uci: 'b1d2' });
  assert.deepEqual(san.resolveTyped('Nd2', 'en', fen, legal), { san: 'Nd2' });
  assert.deepEqual(san.resolveTyped('Qh5', 'en', START, START_LEGAL), { san: 'Qh5' });
  assert.deepEqual(san.resolveTyped('hello', 'en', START, START_LEGAL), { san: 'hello' });
  assert.deepEqual(san.sanCandidates('', 'fi'), []);
});
