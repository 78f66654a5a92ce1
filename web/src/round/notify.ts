// C3: when it becomes the player's move, the page title says so (view.ts) and, if the
// player turned it on here, a browser notification (Notifications API) too. Permission
// is asked for only when the player turns the option on.
import { h } from '../dom';
import { t } from '../i18n';

const KEY = 'outpost.notifyMyTurn';

export const notificationsSupported = () => typeof window !== 'undefined' && 'Notification' in window;

export function notifyWanted(): boolean {
  try { return localStorage.getItem(KEY) === '1' && notificationsSupported() && Notification.permission === 'granted'; } catch { return false; }
}

// The option as a checkbox; permission is asked on turning it on.
export function notifyToggle(redraw: () => void): HTMLElement | null {
  if (!notificationsSupported()) return null;
  let on = false;
  try { on = localStorage.getItem(KEY) === '1' && Notification.permission === 'granted'; } catch { /* ignore */ }
  return h('label.check.notify', h('input', { type: 'checkbox', checked: on, 'data-field': 'notify',
    onchange: async (e: Event) => {
      const box = e.target as HTMLInputElement;
      let want = box.checked;
      if (want && Notification.permission !== 'granted') want = (await Notification.requestPermission()) === 'granted';
      try { localStorage.setItem(KEY, want ? '1' : '0'); } catch { /* ignore */ }
      box.checked = want;
      redraw();
    } }), h('span', t('notifyMyTurn')));
}

// Called when it has just become the player's move.
export function notifyMyTurn(body: string) {
  if (!notifyWanted() || document.visibilityState === 'visible') return;
  try { new Notification(t('notifyTitle'), { body, tag: 'outpost-my-turn' }); } catch { /* some browsers allow it only from a service worker */ }
}
