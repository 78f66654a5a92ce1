// P8: material balance from piece values P1 N3 B3 R5 Q9, from the placement part of a FEN.
const VALUE: Record<string, number> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };
const ORDER = ['q', 'r', 'b', 'n', 'p'];

export interface Material {
  // Pieces each side has captured beyond the other (what stands "up"), as role letters.
  white: string[];
  black: string[];
  diff: number; // positive: white is ahead
}

export function material(fen: string): Material {
  const count: Record<string, number> = {};
  for (const ch of fen.split(' ')[0]) if (/[a-zA-Z]/.test(ch)) count[ch] = (count[ch] ?? 0) + 1;
  const white: string[] = []; const black: string[] = [];
  let diff = 0;
  for (const r of ORDER) {
    const w = count[r.toUpperCase()] ?? 0; const b = count[r] ?? 0;
    diff += (w - b) * VALUE[r];
    // White "captured" the black pieces it is ahead by, and vice versa.
    for (let i = 0; i < w - b; i++) white.push(r);
    for (let i = 0; i < b - w; i++) black.push(r);
  }
  return { white, black, diff };
}
