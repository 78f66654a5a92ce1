// The promotion chooser (P7, R3): four pieces over the promotion file, Q N R B;
// a key (q, r, b, n) picks, Escape or a click beside the pieces cancels.
import { h } from '../dom';
import { t } from '../i18n';
import type { Color } from '../types';

export type PromotionRole = 'queen' | 'rook' | 'bishop' | 'knight';
export const PROMOTION_LETTER: Record<PromotionRole, string> = { queen: 'q', rook: 'r', bishop: 'b', knight: 'n' };
const ORDER: PromotionRole[] = ['queen', 'knight', 'rook', 'bishop'];

export const isLastRank = (sq: string) => sq[1] === '8' || sq[1] === '1';

export class Promotion {
  private el: HTMLElement | null = null;
  private cancelOpen: (() => void) | null = null;

  constructor(private wrap: HTMLElement) {}

  // Resolves with the UCI letter of the chosen piece, or null when cancelled.
  choose(dest: string, color: Color, orientation: Color): Promise<string | null> {
    this.cancel();
    return new Promise((resolve) => {
      const file = dest.charCodeAt(0) - 97;
      const left = (orientation === 'white' ? file : 7 - file) * 12.5;
      const top = (dest[1] === '8') === (orientation === 'white');
      const done = (v: string | null) => {
        const hadFocus = el.contains(document.activeElement);
        el.remove();
        if (hadFocus && this.wrap.tabIndex >= 0) this.wrap.focus({ preventScroll: true }); // back to the keyboard board
        this.el = null;
        this.cancelOpen = null;
        document.removeEventListener('keydown', onKey, true);
        resolve(v);
      };
      const onKey = (e: KeyboardEvent) => {
        const k = e.key.toLowerCase();
        if (k === 'escape') { e.preventDefault(); e.stopPropagation(); done(null); }
        else if (k.length === 1 && 'qrbn'.includes(k)) { e.preventDefault(); e.stopPropagation(); done(k); }
      };
      const el = h('div.promotion', { role: 'dialog', 'aria-label': t('promoteTo') },
        ORDER.map((role, i) => h('button.promo-piece', {
          type: 'button',
          'aria-label': t(`piece_${role}`),
          'data-piece': PROMOTION_LETTER[role],
          style: `left:${left}%;${top ? `top:${i * 12.5}%` : `bottom:${i * 12.5}%`}`,
          onclick: (e: Event) => { e.stopPropagation(); done(PROMOTION_LETTER[role]); },
        }, h(`piece.${role}.${color}`))));
      el.addEventListener('click', () => done(null));
      this.wrap.append(el);
      this.el = el;
      this.cancelOpen = () => done(null);
      document.addEventListener('keydown', onKey, true);
      el.querySelector<HTMLElement>('button')?.focus();
    });
  }

  get open(): boolean { return this.el !== null; }

  cancel() { this.cancelOpen?.(); }
}
