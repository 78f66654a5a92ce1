// P4: short sounds of our own (web/scripts/make-sounds.sh), on/off remembered.
import { settings } from './settings';

export type SoundName = 'move' | 'capture' | 'check' | 'castle' | 'end' | 'lowtime';
const cache = new Map<SoundName, HTMLAudioElement>();

export function play(name: SoundName) {
  if (!settings.sound) return;
  let a = cache.get(name);
  if (!a) {
    a = new Audio(`${import.meta.env.BASE_URL}sounds/${name}.ogg`);
    a.preload = 'auto';
    cache.set(name, a);
  }
  a.currentTime = 0;
  a.play().catch(() => { /* autoplay refused before a user gesture: stay silent */ });
}

// Which sound a move makes, from its SAN.
export function soundForSan(san: string): SoundName {
  if (san.includes('+') || san.includes('#')) return 'check';
  if (san.startsWith('O-O')) return 'castle';
  if (san.includes('x')) return 'capture';
  return 'move';
}
