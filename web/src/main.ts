// Outpost web UI: a hash router over three screens (home, game, my games).
//   #/                      home: board and Play (P1)
//   #/game/ID?seat=TOKEN    play (or watch, without seat) a game (P12)
//   #/games                 my games (P11)
//   #/account[/signin|/signup]  sign in, sign up, the account menu (P21)
//   #/player/NAME           a player's profile (P21)
//   #/lobby                 the lobby: quick pairing, seeks, games to watch (P22)
//   #/events, #/event/ID    tournaments: the list, one event (P20, issue 13)
//   #/simuls, #/simul/ID    simultaneous exhibitions: the list, one simul (P18)
//   #/admin                 the admin page, for administrators (SPEC D9)
//   #/puzzles[/ID]          puzzles (issue 29); #/learn/ID: learn from your mistakes in game ID
import '@lichess-org/chessground/assets/chessground.base.css';
import '@lichess-org/chessground/assets/chessground.brown.css';
import '@lichess-org/chessground/assets/chessground.cburnett.css';
import './style.css';
import { h, clear } from './dom';
import { RoundCtrl } from './round/ctrl';
import { gamesView } from './games';
import { HomeView } from './home';
import { LobbyView } from './lobby';
import { allText, currentLang, langFromAddress, t } from './i18n';
import { loadFonts } from './fonts';
import { restoreZen, toggleZen } from './layout';
import { openSettings } from './settingsview';
import { icon } from './icons';
import { saveSeat, seatFor } from './store';
import { onSettings, settings } from './settings';
import { account, accountView, loadAccount, onAccount } from './account';
import { profileView } from './profile';
import { EventsView, EventView } from './events';
import { SimulListView, SimulView } from './simul';
import { AdminView } from './admin';
import { PuzzleView } from './puzzles/view';
import { LearnView } from './puzzles/learn';

let view: { destroy(): void } | null = null;
const app = h('div.app-body', { id: 'app', tabindex: '-1' });

// The skip link is the banner's first element (axe: all content inside landmarks).
function header() {
  return h('header.topbar',
    h('a.skip', { href: '#/', onclick: (e: Event) => { e.preventDefault(); app.focus(); } }, t('skipToContent')),
    h('a.brand', { href: '#/', title: t('home') }, h('span.logo', { 'aria-hidden': 'true' }, '♞'), t('appName')),
    h('nav', { 'aria-label': t('mainNav') },
      h('a', { href: '#/', 'data-nav': 'play' }, t('newGame')),
      h('a', { href: '#/lobby', 'data-nav': 'lobby' }, t('lobby')),
      h('a', { href: '#/events', 'data-nav': 'events' }, t('evNav')),
      h('a', { href: '#/simuls', 'data-nav': 'simuls' }, t('simuls')),
      h('a', { href: '#/puzzles', 'data-nav': 'puzzles' }, t('pzNav')),
      h('a', { href: '#/games', 'data-nav': 'games' }, t('myGames')),
      accountLink(),
      adminLink(),
      h('button.icon', { type: 'button', 'data-action': 'settings', 'aria-label': t('settings'), title: t('settings'),
        onclick: () => openSettings(() => void boot()) }, icon('settings'))));
}

// Sign in, or the account's menu once signed in (P21); follows sign-in and sign-out.
function accountLink() {
  const a = h('a', { href: '#/account', 'data-nav': 'account' });
  const show = () => { a.textContent = account() ? t('acctMenu', { name: account()!.name }) : t('acctSignIn'); };
  show();
  onAccount(show);
  return a;
}

// The admin page's link, shown to administrators only (the server checks every request).
function adminLink() {
  const a = h('a', { href: '#/admin', 'data-nav': 'admin', hidden: true }, t('adminNav'));
  const show = () => { a.hidden = !account()?.admin; };
  show();
  onAccount(show);
  return a;
}

function route() {
  view?.destroy();
  view = null;
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query] = hash.split('?');
  const params = new URLSearchParams(query ?? '');
  const m = /^\/game\/([A-Za-z0-9_-]+)$/.exec(path);
  if (m) {
    const seat = params.get('seat');
    if (seat && !seatFor(m[1])) saveSeat({ game: m[1], token: seat, color: 'both', created: Date.now() }); // an invite link opened here
    view = new RoundCtrl(app, m[1], seat, params.get('analyse') === '1');
  } else if (path === '/account' || path.startsWith('/account/')) {
    accountView(app, path.slice('/account/'.length));
  } else if (path.startsWith('/player/')) {
    profileView(app, decodeURIComponent(path.slice('/player/'.length)));
  } else if (path === '/lobby') {
    view = new LobbyView(app);
  } else if (path === '/events') {
    view = new EventsView(app);
  } else if (/^\/event\/\d+$/.test(path)) {
    view = new EventView(app, path.slice('/event/'.length));
  } else if (path === '/simuls') {
    view = new SimulListView(app);
  } else if (path.startsWith('/simul/')) {
    view = new SimulView(app, decodeURIComponent(path.slice('/simul/'.length)));
  } else if (path === '/puzzles' || /^\/puzzles\/[A-Za-z0-9_-]{1,32}$/.test(path)) {
    view = new PuzzleView(app, path === '/puzzles' ? null : path.slice('/puzzles/'.length));
  } else if (/^\/learn\/[A-Za-z0-9]+$/.test(path)) {
    view = new LearnView(app, path.slice('/learn/'.length));
  } else if (path === '/admin') {
    view = new AdminView(app);
  } else if (path === '/games') {
    gamesView(app);
  } else {
    view = new HomeView(app);
  }
  window.scrollTo(0, 0);
}

async function boot() {
  const lang = currentLang();
  await Promise.all([loadFonts(lang, allText()), loadAccount()]);
  document.documentElement.lang = lang;
  clear(document.body, header(), app,
    h('button.zen-exit', { type: 'button', 'aria-label': t('exitZen'), title: t('exitZen'), onclick: () => toggleZen(false) }, icon('close')));
  route();
}

window.addEventListener('hashchange', () => { if (langFromAddress() && document.documentElement.lang !== currentLang()) void boot(); else route(); });
langFromAddress();
restoreZen();
// The high-contrast board (P16) follows its setting everywhere.
const boardTheme = () => document.body.classList.toggle('high-contrast', settings.highContrast);
onSettings(boardTheme);
boardTheme();
void boot();
