// The board (P7): chessground with the server's legal destinations, a promotion
// chooser of our own, and premoves (one by chessground, or a queue of several).
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Config } from '@lichess-org/chessground/config';
import type { Dests, Key } from '@lichess-org/chessground/types';
import { h } from './dom';
import { t } from './i18n';
import type { Color } from './types';

export type Role = 'queen' | 'rook' | 'bishop' | 'knight';
const PROMO: Array<[Role, string]> = [['queen', 'q'], ['knight', 'n'], ['rook', 'r'], ['bishop', 'b']];

export interface BoardMove { from: string; to: string; promo?: string }

export class Board {
  readonly cg: Api;
  private promoEl: HTMLElement | null = null;
  onMove: (m: BoardMove) => void = () => {};
  onPremove: (m: BoardMove) => void = () => {};
  onPremoveCancel: () => void = () => {};

  constructor(readonly wrap: HTMLElement, config: Config = {}) {
    this.cg = Chessground(wrap, {
      coordinates: true,
      autoCastle: true,
      animation: { enabled: true, duration: 200 },
      highlight: { lastMove: true, check: true },
      movable: { free: false, showDests: true, events: { after: (o, d) => this.afterMove(o, d) } },
      premovable: {
        enabled: true, showDests: true, castle: true,
        events: { set: (o, d) => this.onPremove({ from: o, to: d }), unset: () => this.onPremoveCancel() },
      },
      draggable: { enabled: true, showGhost: true },
      drawable: { enabled: true },
    });
    this.cg.set(config); // merged deeply, keeping the events above
  }

  set(config: Config) { this.cg.set(config); }

  // The server's `legal` map as chessground dests. In standard chess the king may
  // also be dropped on its own rook to castle (as on lichess); we send e1g1 for it.
  static dests(legal: Record<string, string[]> | undefined, chess960: boolean): Dests {
    const d: Dests = new Map();
    if (!legal) return d;
    for (const [from, tos] of Object.entries(legal)) {
      const list = [...tos] as Key[];
      if (!chess960 && (from === 'e1' || from === 'e8')) {
        const r = from[1];
        if (tos.includes(`g${r}`) && !list.includes(`h${r}` as Key)) list.push(`h${r}` as Key);
        if (tos.includes(`c${r}`) && !list.includes(`a${r}` as Key)) list.push(`a${r}` as Key);
      }
      d.set(from as Key, list);
    }
    return d;
  }

  private afterMove(orig: Key, dest: Key) {
    const piece = this.cg.state.pieces.get(dest);
    const lastRank = dest[1] === '8' || dest[1] === '1';
    if (piece?.role === 'pawn' && lastRank) {
      this.choosePromotion(dest, piece.color).then((p) => {
        if (p) this.onMove({ from: orig, to: dest, promo: p });
        else this.onMove({ from: '', to: '' }); // cancelled: the caller redraws from the state
      });
      return;
    }
    this.onMove({ from: orig, to: dest });
  }

  // Our own chooser: four pieces over the promotion file, Q N R B, Escape cancels.
  choosePromotion(dest: string, color: Color): Promise<string | null> {
    this.promoEl?.remove();
    return new Promise((resolve) => {
      const orientation = this.cg.state.orientation;
      const file = dest.charCodeAt(0) - 97;
      const left = (orientation === 'white' ? file : 7 - file) * 12.5;
      const top = (dest[1] === '8') === (orientation === 'white');
      const done = (v: string | null) => {
        el.remove();
        this.promoEl = null;
        document.removeEventListener('keydown', onKey, true);
        resolve(v);
      };
      const onKey = (e: KeyboardEvent) => {
        const k = e.key.toLowerCase();
        if (k === 'escape') { e.preventDefault(); done(null); }
        else if ('qrbn'.includes(k) && k.length === 1) { e.preventDefault(); done(k); }
      };
      const el = h('div.promotion', { role: 'dialog', 'aria-label': t('promoteTo') },
        PROMO.map(([role, letter], i) => h('button.promo-piece', {
          type: 'button',
          'aria-label': t(`piece_${role}` as any),
          'data-piece': letter,
          style: `left:${left}%;${top ? `top:${i * 12.5}%` : `bottom:${i * 12.5}%`}`,
          onclick: (e: Event) => { e.stopPropagation(); done(letter); },
        }, h(`piece.${role}.${color}`))),
      );
      el.addEventListener('click', () => done(null));
      this.wrap.append(el);
      this.promoEl = el;
      document.addEventListener('keydown', onKey, true);
      (el.querySelector('button') as HTMLElement).focus();
    });
  }

  destroy() { this.promoEl?.remove(); this.cg.destroy(); }
}
