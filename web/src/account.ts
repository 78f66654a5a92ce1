// Accounts (P21): who is signed in, the sign-in and sign-up forms, the account menu
// (change password, sign out, sign out everywhere), and keeping the games in progress
// this browser holds after signing in. Accounts are optional: anonymous play needs
// none. The session is an HttpOnly cookie: no script (this one included) reads it.
import { ApiError, lookupGames } from './api';
import { clear, h, toast } from './dom';
import { errorText, t, type Key } from './i18n';
import { savedSeats } from './store';

export interface Account { name: string; created_ms: number; admin?: boolean }

let current: Account | null = null;
const listeners = new Set<() => void>();

export const account = () => current;
export function onAccount(f: () => void): () => void { listeners.add(f); return () => listeners.delete(f); }
function setAccount(a: Account | null) {
  current = a;
  for (const f of listeners) f();
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, method === 'GET' ? { credentials: 'same-origin' } : {
    method, credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: 1, ...(body ?? {}) }),
  });
  const text = await res.text();
  let parsed: { code?: string; message?: string; t?: string };
  try { parsed = JSON.parse(text); } catch { throw new ApiError('bad_response', `${res.status}`); }
  if (!res.ok || parsed.t === 'error') throw new ApiError(parsed.code ?? 'http', parsed.message ?? `${res.status}`);
  return parsed as T;
}

// Issue 25: the server closed a connection because its session ended (signed out
// everywhere, a password change, an administrator): say so, and become anonymous.
export const SESSION_ENDED = 4001;
export function sessionEnded(ev: CloseEvent): boolean {
  if (ev.code !== SESSION_ENDED) return false;
  // Signing out here closes this page's own connections too: nothing to tell.
  const why: Record<string, Key> = {
    'signed out everywhere': 'sessEnd_all', 'password changed': 'sessEnd_password',
    'account disabled': 'sessEnd_disabled', 'signed out by an administrator': 'sessEnd_admin',
    'session ended': 'sessEnd_other',
  };
  if (ev.reason !== 'signed out') toast(t('sessionEnded', { reason: why[ev.reason] ? t(why[ev.reason]) : ev.reason }), 'info');
  void loadAccount();
  return true;
}

// Asks the server who this browser is (at start; anonymous when it cannot say).
export async function loadAccount(): Promise<Account | null> {
  try { setAccount((await call<{ account: Account | null }>('GET', '/api/v1/account')).account); } catch { setAccount(null); }
  return current;
}

// The games in progress this browser holds seats in become the account's (the server
// refuses finished games, other accounts' seats and games at one screen).
export async function keepGames(): Promise<number> {
  const seats = savedSeats();
  let games;
  try { games = await lookupGames([...new Set(seats.map((s) => s.token))]); } catch { return 0; }
  let kept = 0;
  for (const g of games) {
    const token = seats.find((s) => s.game === g.id)?.token;
    if (g.status !== 'ongoing' || g.you === 'both' || g.you === 'spectator' || !token) continue;
    try {
      await call('POST', `/api/v1/games/${encodeURIComponent(g.id)}/claim`, { seat: token });
      kept++;
    } catch { /* not this one */ }
  }
  return kept;
}

function field(label: string, name: string, type: string, autocomplete: string, help?: string) {
  const id = `acct-${name}`;
  return h('label.block', { for: id }, label,
    h('input', { id, name, type, autocomplete, required: true, maxlength: type === 'password' ? 1024 : 20,
      ...(help ? { 'aria-describedby': `${id}-help` } : {}) }),
    help ? h('small', { id: `${id}-help` }, help) : null);
}

function form(titleKey: 'acctSignIn' | 'acctSignUp', onsubmit: (data: FormData, status: HTMLElement) => Promise<void>,
  ...fields: HTMLElement[]) {
  const status = h('p.form-status', { role: 'status', 'aria-live': 'polite' });
  const f = h('form.account-form', { 'data-form': titleKey, novalidate: true },
    ...fields,
    h('button.primary', { type: 'submit' }, t(titleKey)),
    status) as HTMLFormElement;
  f.onsubmit = (e: Event) => {
    e.preventDefault();
    const button = f.querySelector('button[type=submit]') as HTMLButtonElement;
    button.disabled = true;
    status.textContent = ''; // an earlier answer does not stand beside this one
    onsubmit(new FormData(f), status)
      .catch((err) => { status.textContent = err instanceof ApiError ? (err.code === 'wrong_current' ? err.message : errorText(err.code, err.message)) : t('err_http'); })
      .finally(() => { button.disabled = false; });
  };
  return f;
}

async function afterSignIn(a: Account) {
  setAccount(a);
  const kept = await keepGames();
  toast(`${t('acctSignedInAs', { name: a.name })}. ${t('acctKept', { n: kept })}`, 'info');
  // The menu replaces the form; at #/account already no hashchange would come.
  if (location.hash === '#/account') window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = '#/account';
}

function signInForms(mount: HTMLElement, mode: 'signin' | 'signup') {
  const signIn = form('acctSignIn', async (d) => {
    const r = await call<{ account: Account }>('POST', '/api/v1/account/signin', { name: d.get('name'), password: d.get('password') });
    await afterSignIn(r.account);
  }, field(t('acctUsername'), 'name', 'text', 'username'), field(t('acctPassword'), 'password', 'password', 'current-password'));
  const signUp = form('acctSignUp', async (d) => {
    const r = await call<{ account: Account }>('POST', '/api/v1/account/signup', { name: d.get('name'), password: d.get('password') });
    await afterSignIn(r.account);
  }, field(t('acctUsername'), 'name', 'text', 'username', t('acctUsernameHelp')),
  field(t('acctPassword'), 'password', 'password', 'new-password', t('acctPasswordHelp')));
  clear(mount, h('main.page.account-page',
    h('h1', mode === 'signin' ? t('acctSignIn') : t('acctSignUp')),
    h('p', t('acctOptional')),
    mode === 'signin' ? signIn : signUp,
    h('p.account-switch',
      h('a', { href: mode === 'signin' ? '#/account/signup' : '#/account/signin' }, mode === 'signin' ? t('acctNoAccount') : t('acctHaveAccount'))),
    h('p', h('a.small-btn', { href: '#/', 'data-action': 'anonymous' }, t('playAnonymously')))));
}

function menu(mount: HTMLElement, a: Account) {
  const change = form('acctSignIn', async (d, status) => {
    try {
      await call('POST', '/api/v1/account/password', { old: d.get('old'), new: d.get('new') });
    } catch (e) {
      // Here the only credential checked is the current password: say so.
      if (e instanceof ApiError && e.code === 'wrong_credentials') throw new ApiError('wrong_current', t('acctWrongCurrent'));
      throw e;
    }
    (change as HTMLFormElement).reset();
    status.textContent = t('acctPasswordChanged');
  }, field(t('acctCurrentPassword'), 'old', 'password', 'current-password'),
  field(t('acctNewPassword'), 'new', 'password', 'new-password', t('acctPasswordHelp')));
  change.dataset.form = 'password';
  (change.querySelector('button[type=submit]') as HTMLElement).textContent = t('acctChangePassword');
  const out = async (everywhere: boolean) => {
    try {
      await call('POST', everywhere ? '/api/v1/account/signout-all' : '/api/v1/account/signout', {});
      if (everywhere) toast(t('acctSignedOutAll'), 'info');
      setAccount(null);
      location.hash = '#/account/signin';
    } catch (err) {
      toast(err instanceof ApiError ? errorText(err.code, err.message) : t('err_http'));
    }
  };
  clear(mount, h('main.page.account-page',
    h('h1', t('acctSignedInAs', { name: a.name })),
    h('p', h('a.small-btn', { href: `#/player/${encodeURIComponent(a.name)}`, 'data-action': 'profile' }, t('profileTitle', { name: a.name }))),
    h('section', { 'aria-labelledby': 'acct-pw-title' }, h('h2', { id: 'acct-pw-title' }, t('acctChangePassword')), change),
    h('section.account-out',
      h('button', { type: 'button', 'data-action': 'signout', onclick: () => void out(false) }, t('acctSignOut')),
      h('button', { type: 'button', 'data-action': 'signout-all', onclick: () => void out(true) }, t('acctSignOutAll')))));
}

// #/account (the menu, or the sign-in form), #/account/signin, #/account/signup.
export function accountView(mount: HTMLElement, sub: string) {
  const a = account();
  if (a && sub !== 'signin' && sub !== 'signup') return menu(mount, a);
  signInForms(mount, sub === 'signup' ? 'signup' : 'signin');
}
