// The lobby (P22): quick pairing by time control, seeks to create and accept, and the
// games being played now, to watch. Live over its own WebSocket (/api/v1/lobby,
// docs/protocol.md "Lobby"); the server pairs, this screen only asks and shows.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import { clear, h, redrawKeepingFocus, toast } from './dom';
import { errorText, playerName, t } from './i18n';
import { PRESETS, formatTc } from './timecontrol';
import { saveSeat } from './store';
import { storedName, storeName } from './playername';
import { sessionEnded } from './account';

export const QUICK = ['1+0', '3+2', '5+3', '10+0', '15+10', '30+0'];

interface Seek {
  id: string; name: string; rating: number; provisional: boolean; time_control: string; class: string;
  variant: 'standard' | 'chess960'; rated: boolean; quick: boolean; color: 'white' | 'black' | 'random';
  rating_min: number | null; rating_max: number | null;
}
interface LiveGame {
  id: string; white: string; black: string; time_control: string; variant: string; rated: boolean;
  fen?: string; last_move?: string | null;
}
interface Speed { time_control: string; waiting: number; playing: number }
interface LobbyMessage { t: 'lobby'; seeks: Seek[]; games: LiveGame[]; mine: string[]; playing: number; speeds?: Speed[]; instance?: string }

// A game being played as a mini board to click (issue 28, item 9), kept from one
// lobby message to the next so that only its position changes.
interface MiniGame { item: HTMLElement; link: HTMLAnchorElement; cg: Api; names: HTMLElement; key: string }
const isSquare = (s: string): s is Key => /^[a-h][1-8]$/.test(s);


// A time control as players write it ("10+0", not "10"); days in words of the UI language.
export function tcText(tc: string): string {
  const days = /^(\d+)d$/.exec(tc);
  return days ? t('daysN', { n: Number(days[1]) }) : tc === '-' ? '∞' : formatTc(tc);
}

// The colour the one who accepts a seek plays: the other of the seeker's.
const accepterColour = (c: Seek['color']) => (c === 'white' ? 'black' : c === 'black' ? 'white' : 'random');

// A rating as lichess shows it: "1500?" while provisional.
export const ratingText = (r: number, provisional: boolean) => `${Math.round(r)}${provisional ? '?' : ''}`;

export class LobbyView {
  private ws: WebSocket | null = null;
  private closed = false;
  private retry = 0;
  private timer = 0;
  private last: LobbyMessage | null = null;
  // Our seeks as the lobby last listed them, kept when the socket closes: the server
  // withdrew them, and the page posts them again once it is back (docs/protocol.md,
  // "Lobby": `instance`). Cleared by a pairing and by our own cancel.
  private lost: Seek[] = [];
  private root: HTMLElement;
  private readonly quickBox = h('div.quick-grid', { role: 'group', 'aria-label': t('lobbyQuick') });
  private readonly seeksBox = h('div.seeks');
  private readonly gamesBox = h('div.live-games');
  private readonly status = h('p.lobby-status', { 'aria-live': 'polite' });
  private readonly nameInput = h('input', { type: 'text', maxlength: 40, value: storedName(), 'data-field': 'lobby-name', 'aria-label': t('yourName') }) as HTMLInputElement;

  constructor(mount: HTMLElement) {
    this.nameInput.addEventListener('change', () => storeName(this.nameInput.value.trim()));
    clear(mount, this.root = h('main.lobby-screen',
      h('h1', t('lobby')),
      h('label.lobby-name', t('yourName'), this.nameInput),
      h('section.lobby-quick', h('h2', t('lobbyQuick')), h('p.hint', t('lobbyQuickHint')), this.quickBox, this.status),
      h('section.lobby-seeks', h('h2', t('lobbySeeks')), this.seeksBox, this.seekForm()),
      h('section.lobby-games', h('h2', t('lobbyGames')), this.gamesBox)));
    this.render();
    this.connect();
  }

  destroy() {
    for (const m of this.minis.values()) m.cg.destroy();
    this.minis.clear();
    this.closed = true;
    window.clearTimeout(this.timer);
    this.ws?.close();
  }

  private name(): string | undefined {
    const n = this.nameInput.value.trim();
    return n ? new TextEncoder().encode(n).length <= 40 ? n : undefined : undefined;
  }

  private connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/v1/lobby`);
    this.ws = ws;
    ws.onopen = () => { this.retry = 0; };
    ws.onmessage = (ev) => this.receive(String(ev.data));
    ws.onclose = (ev) => {
      sessionEnded(ev);
      if (this.ws !== ws) return;
      if (this.last) this.lost = this.last.seeks.filter((s) => this.mine(s));
      this.ws = null;
      if (this.closed) return;
      this.timer = window.setTimeout(() => this.connect(), Math.min(8000, 500 * 2 ** this.retry++));
    };
  }

  private send(msg: Record<string, unknown>) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { toast(t('notConnected')); return; }
    this.ws.send(JSON.stringify({ v: 1, ...msg }));
  }

  private receive(text: string) {
    let m: Record<string, unknown>;
    try { m = JSON.parse(text); } catch { return; }
    if (m.t === 'lobby' && Array.isArray(m.seeks) && Array.isArray(m.games) && Array.isArray(m.mine)) {
      const next = m as unknown as LobbyMessage;
      // Another lobby instance (another node runs the lobby now): ours were left behind.
      if (this.last && next.instance !== this.last.instance) this.lost = this.last.seeks.filter((s) => this.mine(s));
      this.last = next;
      this.repost();
      this.render();
    } else if (m.t === 'paired' && typeof m.game === 'string' && typeof m.seat === 'string') {
      this.lost = [];
      const color = m.color === 'black' ? 'black' : 'white';
      saveSeat({ game: m.game, token: m.seat, color, created: Date.now() });
      location.hash = `#/game/${m.game}?seat=${encodeURIComponent(m.seat)}`;
    } else if (m.t === 'error') {
      toast(errorText(String(m.code ?? ''), String(m.message ?? '')));
    }
  }

  private mine(s: Seek) { return this.last?.mine.includes(s.id) ?? false; }

  // The seeks and quick-pairing waits the lobby lost, posted again (once: an error
  // answer, such as a limit, is shown and not retried).
  private repost() {
    const lost = this.lost;
    this.lost = [];
    for (const s of lost) {
      if (s.quick) this.send({ t: 'quick', time_control: s.time_control, rated: s.rated, name: this.name() });
      else this.send({ t: 'seek', time_control: s.time_control, variant: s.variant, color: s.color, rated: s.rated,
        rating_min: s.rating_min ?? undefined, rating_max: s.rating_max ?? undefined, name: this.name() });
    }
  }

  private render() { redrawKeepingFocus(this.root, () => this.draw()); }

  private draw() {
    const seeks = this.last?.seeks ?? [];
    const waiting = new Set(seeks.filter((s) => s.quick && this.mine(s)).map((s) => s.time_control));
    // At each speed, how many wait and how many play now (issue 28, item 9).
    const speeds = new Map((this.last?.speeds ?? []).map((x) => [x.time_control, x]));
    clear(this.quickBox, QUICK.map((tc) => {
      const n = speeds.get(tc);
      const counts = n ? t('lobbySpeedCounts', { waiting: n.waiting, playing: n.playing }) : '';
      return h('button.quick', {
        type: 'button', 'data-quick': tc, 'aria-pressed': waiting.has(tc) ? 'true' : 'false',
        'data-waiting': n ? String(n.waiting) : undefined, 'data-playing': n ? String(n.playing) : undefined,
        onclick: () => waiting.has(tc) ? this.cancelQuick(tc) : this.send({ t: 'quick', time_control: tc, name: this.name() }),
      }, h('span.quick-tc', tc), counts ? h('span.sr-only', ', ') : null, counts ? h('span.quick-counts', counts) : null);
    }));
    this.status.textContent = waiting.size ? t('lobbyWaiting') : '';
    const listed = seeks.filter((s) => !s.quick || !this.mine(s));
    clear(this.seeksBox, listed.length === 0 ? h('p.empty', t('lobbyNoSeeks')) : h('table.seek-table',
      h('thead', h('tr', h('th', t('lobbyPlayer')), h('th', t('lobbyRating')), h('th', t('timeControl')),
        h('th', t('variant')), h('th', t('lobbyMode')), h('th', t('color')), h('th', ''))),
      h('tbody', listed.map((s) => h('tr', { 'data-seek': s.id },
        h('td', playerName(s.name)), h('td', ratingText(s.rating, s.provisional)), h('td', { 'data-tc': s.time_control }, tcText(s.time_control)),
        h('td', s.variant === 'chess960' ? t('chess960') : t('standard')),
        h('td', s.rated ? t('rated') : t('casual')),
        // "Your colour": one's own seek's colour, else the colour accepting it gives.
        ((c) => h('td', { 'data-colour': c }, c === 'random' ? t('random') : t(c)))(this.mine(s) ? s.color : accepterColour(s.color)),
        h('td', this.mine(s)
          ? h('button.action', { type: 'button', 'data-action': 'cancel-seek', onclick: () => this.send({ t: 'cancel', seek: s.id }) }, t('cancel'))
          : h('button.action.yes', { type: 'button', 'data-action': 'accept-seek', onclick: () => this.send({ t: 'accept', seek: s.id, name: this.name() }) }, t('accept'))))))));
    this.drawGames(this.last?.games ?? []);
  }

  // The games being played as live mini boards, as lichess's home page shows them:
  // each a link to watch the game. A board is made once and then only moved on.
  private readonly minis = new Map<string, MiniGame>();
  private readonly miniGrid = h('ul.live-grid');
  private readonly noGames = h('p.empty', t('lobbyNoGames'));

  private drawGames(games: LiveGame[]) {
    const seen = new Set(games.map((g) => g.id));
    for (const [id, m] of this.minis) if (!seen.has(id)) { m.cg.destroy(); m.item.remove(); this.minis.delete(id); }
    const cards = games.map((g) => {
      let m = this.minis.get(g.id);
      if (!m) {
        const wrap = h('div.live-mini-board');
        const names = h('span.live-names');
        const link = h('a.live-game', { href: `#/game/${encodeURIComponent(g.id)}`, 'data-watch': g.id },
          wrap, names) as HTMLAnchorElement;
        const cg = Chessground(wrap, { viewOnly: true, coordinates: false, animation: { enabled: false }, fen: g.fen });
        m = { item: h('li', link), link, cg, names, key: '' };
        this.minis.set(g.id, m);
      }
      const label = `${playerName(g.white)} ${t('vs')} ${playerName(g.black)} · ${tcText(g.time_control)}${g.variant === 'chess960' ? ` · ${t('chess960')}` : ''}${g.rated ? ` · ${t('rated')}` : ''}`;
      const key = `${g.fen ?? ''}|${g.last_move ?? ''}|${label}`;
      if (m.key !== key) {
        m.key = key;
        const lm = g.last_move ?? '';
        const from = lm.slice(0, 2), to = lm.slice(2, 4);
        m.cg.set({ fen: g.fen, lastMove: isSquare(from) && isSquare(to) ? [from, to] : undefined });
        m.link.title = label;
        m.link.dataset.fen = g.fen ?? '';
        // Read as "Anna vs Boris, 5+3": the words between are for screen readers only.
        clear(m.names, h('span.live-white', playerName(g.white)), h('span.sr-only', ` ${t('vs')} `),
          h('span.live-black', playerName(g.black)), h('span.sr-only', ', '), h('span.tc', tcText(g.time_control)));
      }
      return m.item;
    });
    if (games.length === 0) {
      if (!this.noGames.isConnected) clear(this.gamesBox, this.noGames);
      return;
    }
    if (!this.miniGrid.isConnected) clear(this.gamesBox, this.miniGrid);
    // In order, moving only what is out of place (a board keeps its element).
    cards.forEach((c, i) => { if (this.miniGrid.children[i] !== c) this.miniGrid.insertBefore(c, this.miniGrid.children[i] ?? null); });
  }

  private cancelQuick(tc: string) {
    for (const s of this.last?.seeks ?? []) if (s.quick && s.time_control === tc && this.mine(s)) this.send({ t: 'cancel', seek: s.id });
  }

  private seekForm(): HTMLElement {
    const tc = h('select', { 'data-field': 'seek-tc', 'aria-label': t('timeControl') },
      PRESETS.filter((p) => p.tc !== '-').map((p) => h('option', { value: p.tc }, /^\d+d$/.test(p.tc) ? tcText(p.tc) : p.label))) as HTMLSelectElement;
    tc.value = '10+0';
    const variant = h('select', { 'data-field': 'seek-variant', 'aria-label': t('variant') },
      h('option', { value: 'standard' }, t('standard')), h('option', { value: 'chess960' }, t('chess960'))) as HTMLSelectElement;
    const color = h('select', { 'data-field': 'seek-color', 'aria-label': t('color') },
      (['random', 'white', 'black'] as const).map((c) => h('option', { value: c }, t(c)))) as HTMLSelectElement;
    const rated = h('input', { type: 'checkbox', 'data-field': 'seek-rated' }) as HTMLInputElement;
    const min = h('input', { type: 'number', min: 0, max: 4000, step: 50, 'data-field': 'seek-min', 'aria-label': t('ratingMin') }) as HTMLInputElement;
    const max = h('input', { type: 'number', min: 0, max: 4000, step: 50, 'data-field': 'seek-max', 'aria-label': t('ratingMax') }) as HTMLInputElement;
    const num = (i: HTMLInputElement) => (i.value.trim() === '' ? undefined : Math.round(Number(i.value)));
    return h('form.seek-form', {
      onsubmit: (e: Event) => {
        e.preventDefault();
        this.send({ t: 'seek', time_control: tc.value, variant: variant.value, color: color.value, rated: rated.checked,
          rating_min: num(min), rating_max: num(max), name: this.name() });
      },
    }, h('h3', t('lobbyCreateSeek')),
    h('label', t('timeControl'), tc), h('label', t('variant'), variant), h('label', t('color'), color),
    h('label.check', rated, t('rated')),
    h('fieldset.range', h('legend', t('ratingRange')), h('label', t('ratingMin'), min), h('label', t('ratingMax'), max)),
    h('button.action.primary', { type: 'submit', 'data-action': 'create-seek' }, t('lobbyCreateSeek')));
  }
}
