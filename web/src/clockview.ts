// P10: both clocks, ticking locally from the last state and corrected by every
// state the server sends (C5: display only; the server decides flag fall).
import type { ClockState, Color } from './types';
import { t } from './i18n';

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
  onLow: (c: Color) => void = () => {};

  constructor(public els: Record<Color, HTMLElement>) {
    this.timer = window.setInterval(() => this.render(), 100);
  }

  // `lagMs`: half the measured round trip, by which the running clock has moved on
  // since the server sent this state.
  sync(c: ClockState | null, lagMs = 0) {
    this.base = c;
    this.at = performance.now() - lagMs;
    this.render();
  }

  remaining(color: Color): number {
    if (!this.base) return 0;
    const ms = color === 'white' ? this.base.white_ms : this.base.black_ms;
    return this.base.running === color ? ms - (performance.now() - this.at) : ms;
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
      if (running && low && !this.lowFired[color]) { this.lowFired[color] = true; this.onLow(color); }
      if (!low) this.lowFired[color] = false;
    }
  }

  destroy() { window.clearInterval(this.timer); }
}
