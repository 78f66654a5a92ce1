// Time controls in the compact form of src/chess/clock.h, and their C4 class.
//   5+3, 3+2d, 3+2b, 90, 40/5400+30:1800+30, 3d, 3d/14d, -
export type TimeClass = 'bullet' | 'blitz' | 'rapid' | 'standard' | 'correspondence' | 'unlimited';

export interface Preset { tc: string; label: string }

export const PRESETS: Preset[] = [
  { tc: '1+0', label: '1+0' }, { tc: '2+1', label: '2+1' },
  { tc: '3+0', label: '3+0' }, { tc: '3+2', label: '3+2' }, { tc: '5+0', label: '5+0' }, { tc: '5+3', label: '5+3' },
  { tc: '10+0', label: '10+0' }, { tc: '10+5', label: '10+5' }, { tc: '15+10', label: '15+10' },
  { tc: '30+0', label: '30+0' }, { tc: '30+20', label: '30+20' },
  { tc: '40/5400+30:1800+30', label: '90/40+30' },
  { tc: '1d', label: '1 day' }, { tc: '3d', label: '3 days' },
  { tc: '-', label: '∞' },
];

// Returns the class, or null when the text is not a valid time control.
export function classify(tc: string): TimeClass | null {
  const t = tc.trim();
  if (t === '-') return 'unlimited';
  if (/^\d+d(\/\d+d)?$/.test(t)) return 'correspondence';
  let main: number; let bonus = 0;
  const simple = /^(\d+(?:\.\d+)?)(?:\+(\d+)([db])?)?$/.exec(t);
  if (simple) {
    main = parseFloat(simple[1]) * 60;
    bonus = simple[2] ? parseInt(simple[2], 10) : 0;
  } else {
    // Periods in seconds: [moves/]time[+inc[d|b]] separated by ':'.
    const parts = t.split(':');
    const re = /^(?:(\d+)\/)?(\d+)(?:\+(\d+)([db])?)?$/;
    const first = re.exec(parts[0]);
    if (!first || !parts.every((p) => re.test(p))) return null;
    main = parseInt(first[2], 10);
    bonus = first[3] ? parseInt(first[3], 10) : 0;
  }
  if (main <= 0 && bonus <= 0) return null;
  const total = main + 60 * bonus;
  if (total < 180) return 'bullet';
  if (total < 900) return 'blitz';
  if (total < 3600) return 'rapid';
  return 'standard';
}

// Builds the compact form from the custom fields of the new-game panel.
export function customTc(o: { minutes: number; increment: number; mode: '' | 'd' | 'b'; periods: string }): string {
  if (o.periods.trim()) return o.periods.trim();
  const m = Number.isInteger(o.minutes) ? String(o.minutes) : String(o.minutes);
  return `${m}+${o.increment}${o.increment > 0 ? o.mode : ''}`;
}

const FRACTIONS: Record<string, string> = { '0.25': '¼', '0.5': '½', '0.75': '¾', '1.5': '1½' };

// A time control as players write it: minutes+increment ("10+0", "½+0"); a bare
// number of minutes gains its "+0". Other forms (periods, days, "-") stay as they are.
export function formatTc(tc: string): string {
  const m = /^(\d+(?:\.\d+)?)(?:\+(\d+)([db])?)?$/.exec(tc.trim());
  if (!m) return tc;
  const minutes = String(parseFloat(m[1]));
  return `${FRACTIONS[minutes] ?? minutes}+${m[2] ?? '0'}${m[3] ?? ''}`;
}

// The simple delay (US delay) of a move in ms: "3+5d" -> 5000; the first period's for
// periods; 0 for none (an increment, a Bronstein delay, days, no clock).
export function simpleDelayMs(tc: string): number {
  const first = tc.trim().split(':')[0];
  const m = /\+(\d+(?:\.\d+)?)d$/.exec(first);
  return m ? Math.round(parseFloat(m[1]) * 1000) : 0;
}
