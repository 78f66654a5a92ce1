// The anonymous player's name (P21), remembered in this browser: the home screen's new
// game, the lobby and the game screen (an invite link's player) share it. A signed-in
// player plays under the account's name and never sends it.
const KEY = 'outpost.newgame'; // the home screen's remembered choices hold it as `name`

export function storedName(): string {
  try { return String(JSON.parse(localStorage.getItem(KEY) ?? '{}').name ?? '').trim(); } catch { return ''; }
}

export function storeName(name: string) {
  try {
    const c = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    localStorage.setItem(KEY, JSON.stringify({ ...c, name: name.trim() }));
  } catch { /* private mode: not remembered */ }
}
