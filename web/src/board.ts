// The board (P7): chessground with the server's legal destinations and premoves
// (one by chessground, or a queue of several: round/premove.ts). What a move
// means (castling forms, promotion) is decided by the round controller.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Config } from '@lichess-org/chessground/config';
import type { Dests, Key } from '@lichess-org/chessground/types';

export interface BoardMove { from: Key; to: Key }

export const isKey = (s: string): s is Key => /^[a-h][1-8]$/.test(s);

export class Board {
  readonly cg: Api;
  onMove: (m: BoardMove) => void = () => {};
  onPremove: (m: BoardMove) => void = () => {};

  constructor(readonly wrap: HTMLElement, config: Config = {}) {
    this.cg = Chessground(wrap, {
      coordinates: true,
      autoCastle: true,
      animation: { enabled: true, duration: 200 },
      highlight: { lastMove: true, check: true },
      movable: { free: false, showDests: true, events: { after: (from, to) => this.onMove({ from, to }) } },
      premovable: {
        enabled: true, showDests: true, castle: true,
        events: { set: (from, to) => this.onPremove({ from, to }) },
      },
      draggable: { enabled: true, showGhost: true },
      drawable: { enabled: true },
    });
    this.cg.set(config); // merged deeply, keeping the events above
  }

  set(config: Config) { this.cg.set(config); }

  // The server's `legal` map as chessground dests: the server already lists every
  // square a piece may be dropped on, castling included (castling.ts).
  static dests(legal: Record<string, string[]> | undefined): Dests {
    const d: Dests = new Map();
    for (const [from, tos] of Object.entries(legal ?? {})) {
      if (isKey(from)) d.set(from, tos.filter(isKey));
    }
    return d;
  }

  destroy() { this.cg.destroy(); }
}
