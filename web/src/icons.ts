// Small inline icons (no icon font: every browser and system shows them alike).
const svg = (body: string) =>
  `<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${body}</svg>`;

export const ICONS = {
  first: svg('<path d="M6 5v14M18 5l-8 7 8 7z" fill="currentColor"/>'),
  prev: svg('<path d="M16 5l-9 7 9 7z" fill="currentColor"/>'),
  next: svg('<path d="M8 5l9 7-9 7z" fill="currentColor"/>'),
  last: svg('<path d="M18 5v14M6 5l8 7-8 7z" fill="currentColor"/>'),
  flip: svg('<path d="M7 3v18M7 21l-4-4M7 21l4-4M17 21V3M17 3l-4 4M17 3l4 4"/>'),
  soundOn: svg('<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/><path d="M16 9a4 4 0 0 1 0 6M19 6a8 8 0 0 1 0 12"/>'),
  soundOff: svg('<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/><path d="M17 9l5 6M22 9l-5 6"/>'),
  zen: svg('<circle cx="12" cy="12" r="8"/><circle cx="12" cy="12" r="3" fill="currentColor"/>'),
  fullscreen: svg('<path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5"/>'),
  settings: svg('<circle cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M2 12h3M19 12h3M4.9 19.1L7 17M17 7l2.1-2.1"/>'),
  close: svg('<path d="M6 6l12 12M18 6L6 18"/>'),
};

export function icon(name: keyof typeof ICONS): HTMLElement {
  const span = document.createElement('span');
  span.className = 'ic';
  span.innerHTML = ICONS[name];
  return span;
}
