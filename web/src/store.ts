// The seats this browser holds (P11, P12): game id -> seat token(s), in localStorage,
// so that "my games" can ask the server about them and a reload finds its seat.
// touchMove: the game was set up as a touch-move training game (R15), enforced by this UI.
// simul: the game is a board of that simul (P18): the game screen links back to it.
export interface SavedSeat { game: string; token: string; color: 'white' | 'black' | 'both'; created: number; opponent?: string; touchMove?: boolean; simul?: string }

const KEY = 'outpost.seats';

export function savedSeats(): SavedSeat[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(v) ? v : [];
  } catch { return []; }
}

export function saveSeat(s: SavedSeat) {
  const all = savedSeats().filter((x) => x.token !== s.token);
  all.unshift(s);
  try { localStorage.setItem(KEY, JSON.stringify(all.slice(0, 500))); } catch { /* full or private */ }
}

export function seatFor(game: string): SavedSeat | undefined {
  return savedSeats().find((s) => s.game === game);
}

// Invite links the creator should be able to copy again later.
const INV = 'outpost.invites';
export function saveInvite(game: string, token: string) {
  try {
    const m = JSON.parse(localStorage.getItem(INV) ?? '{}');
    m[game] = token;
    localStorage.setItem(INV, JSON.stringify(m));
  } catch { /* ignore */ }
}
export function inviteFor(game: string): string | undefined {
  try { return JSON.parse(localStorage.getItem(INV) ?? '{}')[game]; } catch { return undefined; }
}
