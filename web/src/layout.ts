// P5: full screen and the zen layout (board and clocks only).
export function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen();
  else void document.documentElement.requestFullscreen?.().catch(() => {});
}

export function toggleZen(on?: boolean) {
  const v = on ?? !document.body.classList.contains('zen');
  document.body.classList.toggle('zen', v);
  document.querySelectorAll('[data-tool=zen]').forEach((b) => b.setAttribute('aria-pressed', String(v)));
  try { localStorage.setItem('outpost.zen', v ? '1' : ''); } catch { /* ignore */ }
}

export function restoreZen() {
  try { if (localStorage.getItem('outpost.zen')) document.body.classList.add('zen'); } catch { /* ignore */ }
}
