// P22: the players' presence in the game view (online, away, gone for how long) and,
// once the opponent has been gone for the abandonment time (docs/protocol.md,
// "Abandoned games"), the buttons to claim the win or call it a draw. The server
// decides: the times here only count down what its last message said, and a claim
// made a moment early is answered with `not_allowed`.
import { h, clear } from '../dom';
import { t } from '../i18n';
import type { Color, GameState, Presence } from '../types';

export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}:${String(s % 60).padStart(2, '0')}` : `${s} s`;
}

export class PresenceClock {
  private p: Presence | null = null;
  private at = 0; // performance.now() when `p` arrived
  private timer = 0;
  private readonly badges = new Map<Color, HTMLElement>();
  private note: HTMLElement | null = null;
  private wasReady = false;

  // `ready`: the claim became possible (the view redraws its buttons).
  constructor(private readonly ready: () => void) {}

  update(s: GameState) {
    this.p = s.presence ?? null;
    this.at = performance.now();
    this.wasReady = this.claimReady();
    window.clearInterval(this.timer);
    if (this.p && s.status === 'ongoing' && (this.p.white.state === 'gone' || this.p.black.state === 'gone'))
      this.timer = window.setInterval(() => this.tick(), 1000);
  }

  destroy() { window.clearInterval(this.timer); }

  private elapsed() { return performance.now() - this.at; }

  claimInMs(): number | null {
    const c = this.p?.claim_in_ms;
    return c === null || c === undefined ? null : Math.max(0, c - this.elapsed());
  }

  claimReady(): boolean { return this.claimInMs() === 0; }

  // The badge of one side, kept up to date every second while it is gone.
  badge(el: HTMLElement, color: Color, s: GameState) {
    this.badges.set(color, el);
    this.paintBadge(color, s.players[color].kind === 'robot' || s.you === 'both');
  }

  private paintBadge(color: Color, hide = false) {
    const el = this.badges.get(color);
    if (!el) return;
    const p = this.p?.[color];
    el.hidden = hide || !p;
    if (!p || hide) return;
    el.dataset.presence = p.state;
    const text = p.state === 'gone' ? t('presenceGone', { time: duration((p.gone_ms ?? 0) + this.elapsed()) })
      : t(p.state === 'away' ? 'presenceAway' : 'presenceOnline');
    clear(el, h('span.presence-dot', { 'aria-hidden': 'true' }), text);
  }

  // The line above the claim buttons: how long until a claim, or that it may be made.
  claimNote(el: HTMLElement) {
    this.note = el;
    this.paintNote();
  }

  private paintNote() {
    if (!this.note) return;
    const ms = this.claimInMs();
    this.note.textContent = ms === null ? '' : ms > 0 ? t('opponentLeftWait', { time: duration(ms) }) : t('opponentLeftClaim');
  }

  private tick() {
    for (const c of ['white', 'black'] as const) if (this.badges.get(c)?.hidden === false) this.paintBadge(c);
    this.paintNote();
    const ready = this.claimReady();
    if (ready && !this.wasReady) this.ready();
    this.wasReady = ready;
  }
}
