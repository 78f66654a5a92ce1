// Piece placement of earlier positions for reviewing the move list (P8). Display
// only: the moves come from the server, already validated, so this applies them
// to the placement without judging them (no legality, no rules state).
export type Placement = Map<string, string>; // "e4" -> "P" (FEN letters)

export function placementFromFen(fen: string): Placement {
  const m: Placement = new Map();
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += parseInt(ch, 10);
      else { m.set(`${'abcdefgh'[file]}${8 - i}`, ch); file++; }
    }
  });
  return m;
}

export function placementToFen(p: Placement): string {
  const rows: string[] = [];
  for (let r = 8; r >= 1; r--) {
    let row = ''; let empty = 0;
    for (const f of 'abcdefgh') {
      const pc = p.get(`${f}${r}`);
      if (!pc) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += pc;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join('/');
}

// Applies one UCI move (standard e1g1 castling or Chess960 king-takes-rook).
export function applyUci(p: Placement, uci: string) {
  const from = uci.slice(0, 2); const to = uci.slice(2, 4); const promo = uci[4];
  const pc = p.get(from);
  if (!pc) return;
  const target = p.get(to);
  const white = pc === pc.toUpperCase();
  if (pc.toLowerCase() === 'k') {
    const rank = from[1];
    const ff = from.charCodeAt(0); const tf = to.charCodeAt(0);
    const ownRook = target && target === (white ? 'R' : 'r');
    if (ownRook || Math.abs(tf - ff) === 2) {
      const side = tf > ff ? 'h' : 'a';
      let rookFrom = ownRook ? to : '';
      if (!rookFrom) {
        // The outermost own rook on that side of the king.
        const files = side === 'h' ? 'hgfedcba' : 'abcdefgh';
        for (const f of files) { if (p.get(`${f}${rank}`) === (white ? 'R' : 'r')) { rookFrom = `${f}${rank}`; break; } }
      }
      const kingTo = `${side === 'h' ? 'g' : 'c'}${rank}`;
      const rookTo = `${side === 'h' ? 'f' : 'd'}${rank}`;
      p.delete(from);
      if (rookFrom) p.delete(rookFrom);
      p.set(kingTo, pc);
      p.set(rookTo, white ? 'R' : 'r');
      return;
    }
  }
  if (pc.toLowerCase() === 'p' && from[0] !== to[0] && !target) p.delete(`${to[0]}${from[1]}`); // en passant
  p.delete(from);
  p.set(to, promo ? (white ? promo.toUpperCase() : promo.toLowerCase()) : pc);
}

// FEN placement after the first `ply` moves.
export function fenAt(initialFen: string, moves: string[], ply: number): string {
  const p = placementFromFen(initialFen);
  for (let i = 0; i < ply && i < moves.length; i++) applyUci(p, moves[i]);
  return placementToFen(p);
}

// The square of the given side's king in a placement (for check highlights).
export function kingSquare(fen: string, white: boolean): string | undefined {
  for (const [sq, pc] of placementFromFen(fen)) if (pc === (white ? 'K' : 'k')) return sq;
  return undefined;
}
