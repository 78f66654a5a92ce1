// P10: both clocks, ticking locally from the last state and corrected by every
// state the server sends (C5: display only; the server decides flag fall).
import type { ClockState, Color } from './types';
import { t } from './i18n';
import { simpleDelayMs } from './timecontrol';

export function formatMs(ms: number, correspondence: boolean): string {
  ms = Math.max(0, ms);
  if (correspondence && ms >= 3600_000) {
    const d = Math.floor(ms / 86400_000); const hh = Math.floor((ms % 86400_000) / 3600_000);
    return d > 0 ? t('clockDaysHours', { d: String(d), h: String(hh).padStart(2, '0') })
      : t('clockHoursMinutes', { h: String(hh), m: String(Math.floor((ms % 3600_000) / 60000)).padStart(2, '0') });
  }
  const total = Math.floor(ms / 1000);
  const hrs = Math.floor(total / 3600); const min = Math.floor((total % 3600) / 60); const sec = total % 60;
  if (hrs > 0) return `${hrs}:${String(min).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
  if (ms < 10_000) return `${min}:${String(sec).padStart(2, '0')}.${Math.floor((ms % 1000) / 100)}`;
  return `${min}:${String(sec).padStart(2, '0')}`;
}

export class Clocks {
  private base: ClockState | null = null;
  private at = 0;
  private timer = 0;
  private lowFired: Record<Color, boolean> = { white: false, black: false };
  // A simple delay (3+5d): the main time does not run during the first seconds of a
  // move, as the server counts it. `delayLeft` is what was left of it at `at`; `turn`
  // names the move it belongs to (side and ply), so that another state within the
  // same move (an offer, a reconnect) does not give the delay again.
  private delayLeft = 0;
  private turn = '';
  onLow: (c: Color) => void = () => {};

  constructor(public els: Record<Color, HTMLElement>) {
    this.timer = window.setInterval(() => this.render(), 100);
  }

  // `lagMs`: half the measured round trip, by which the running clock has moved on
  // since the server sent this state. `ply`: the state's ply (the move the clock runs for).
  sync(c: ClockState | null, lagMs = 0, ply = -1) {
    const at = performance.now() - lagMs;
    const turn = c?.running ? `${c.running}:${ply}` : '';
    const delay = c ? simpleDelayMs(c.time_control) : 0;
    // The server says what is left of the delay (issue 28): after a reload or a
    // reconnect the clock shows that, not the whole delay again.
    this.delayLeft = !turn || !delay ? 0
      : typeof c?.delay_ms === 'number' ? Math.max(0, c.delay_ms - lagMs)
        : turn === this.turn ? Math.max(0, this.delayLeft - (at - this.at))
          : Math.max(0, delay - lagMs);
    this.turn = turn;
    this.base = c;
    this.at = at;
    this.render();
  }

  remaining(color: Color): number {
    if (!this.base) return 0;
    const ms = color === 'white' ? this.base.white_ms : this.base.black_ms;
    return this.base.running === color ? ms - Math.max(0, performance.now() - this.at - this.delayLeft) : ms;
  }

  // What is left of the running side's delay (0 when none is running).
  delayRemaining(color: Color): number {
    if (!this.base || this.base.running !== color) return 0;
    return Math.max(0, this.delayLeft - (performance.now() - this.at));
  }

  private threshold(): number {
    const cls = this.base?.class;
    if (cls === 'correspondence') return 3600_000 * 6;
    return cls === 'bullet' ? 10_000 : 30_000;
  }

  render() {
    for (const color of ['white', 'black'] as Color[]) {
      const el = this.els[color];
      if (!this.base || this.base.class === 'unlimited' || this.base.time_control === '-') {
        el.hidden = true;
        continue;
      }
      el.hidden = false;
      const ms = this.remaining(color);
      const text = formatMs(ms, this.base.class === 'correspondence');
      if (el.textContent !== text) el.textContent = text;
      const running = this.base.running === color;
      const low = ms < this.threshold();
      el.classList.toggle('running', running);
      el.classList.toggle('low', low);
      el.classList.toggle('flagged', ms <= 0);
      // The delay's own countdown beside the clock (drawn by CSS from the attribute).
      const delay = this.delayRemaining(color);
      const shown = delay > 0 ? (Math.ceil(delay / 100) / 10).toFixed(1) : '';
      if ((el.dataset.delay ?? '') !== shown) { if (shown) el.dataset.delay = shown; else delete el.dataset.delay; }
      if (running && low && !this.lowFired[color]) { this.lowFired[color] = true; this.onLow(color); }
      if (!low) this.lowFired[color] = false;
    }
  }

  destroy() { window.clearInterval(this.timer); }
}
