// User settings, remembered in localStorage (P4 sound, P9 resign confirmation,
// P7 premove queue, P16 speech, P17 language and notation).
export interface Settings {
  sound: boolean;
  confirmResign: boolean;
  premoveQueue: boolean;
  coordinates: boolean;
  animation: boolean;
  speak: boolean;       // speech synthesis of each move (P16)
  phonetic: boolean;    // FIDE phonetic announcements (P16)
  figurine: boolean;    // figurine notation in the move list (P17)
  blindfold: boolean;   // P15: pieces hidden
  autoFlip: boolean;    // hotseat: turn the board to the side to move
  lang: string;
  screenReader: boolean; // P16: one-key commands, the position in words (round/nvui.ts)
  highContrast: boolean; // P16: a high-contrast board
}

const KEY = 'outpost.settings';
const defaults: Settings = {
  sound: true, confirmResign: true, premoveQueue: false, coordinates: true, animation: true,
  speak: false, phonetic: false, figurine: false, blindfold: false, autoFlip: false, lang: '',
  screenReader: false, highContrast: false,
};

function load(): Settings {
  try { return { ...defaults, ...JSON.parse(localStorage.getItem(KEY) ?? '{}') }; } catch { return { ...defaults }; }
}

export const settings: Settings = load();
const listeners: Array<() => void> = [];

export function setSetting<K extends keyof Settings>(k: K, v: Settings[K]) {
  settings[k] = v;
  try { localStorage.setItem(KEY, JSON.stringify(settings)); } catch { /* private mode: not remembered */ }
  listeners.forEach((f) => f());
}

// Calls `f` after every change; returns the function that stops it (a screen that
// goes away must call it, or its renders outlive it).
export function onSettings(f: () => void): () => void {
  listeners.push(f);
  return () => { const i = listeners.indexOf(f); if (i >= 0) listeners.splice(i, 1); };
}
