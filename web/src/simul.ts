// Simultaneous exhibitions (P18; docs/protocol.md "Simuls"): the live list and the form to
// create one (#/simuls), and one simul (#/simul/ID): before the start its players,
// after it the host's every board (each a game socket with the host's seat), the one
// being played large, "next board where it is my move" (button and the N key), and
// for everyone the boards' results with the host's score. A player plays in the
// normal game view, which links back here. The simul's own socket
// (/api/v1/simul?id=ID&key=KEY) tells of every change; the server decides everything.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import { account } from './account';
import { ApiError } from './api';
import { Board, isKey } from './board';
import { moveUci, piecesOf } from './castling';
import { Clocks } from './clockview';
import { clear, h, toast } from './dom';
import { errorText, playerName, t } from './i18n';
import { Promotion, isLastRank } from './round/promotion';
import { GameSocket } from './round/socket';
import { saveSeat } from './store';
import { PRESETS } from './timecontrol';
import type { Color, GameState } from './types';

interface SimulPlayer { id: string; name: string; signed_in: boolean; robot: number; accepted: boolean }
interface SimulBoard {
  n: number; player: string; name: string; robot: number; game: string; host_color: Color; ply: number;
  turn: 'host' | 'player' | ''; status: 'playing' | 'over' | 'aborted' | 'failed'; result: string;
}
interface Summary { wins: number; losses: number; draws: number; aborted: number; playing: number; score: number; of: number }
export interface Simul {
  id: string; name: string; host: string; host_color: 'white' | 'black' | 'alternate'; time_control: string;
  host_extra: number; max_boards: number; join_directly: boolean; status: 'open' | 'started' | 'finished' | 'cancelled';
  players: SimulPlayer[]; boards: SimulBoard[]; summary: Summary;
}
interface You {
  role: 'host' | 'player' | 'none'; seats?: Record<string, string>; player?: string; accepted?: boolean; key?: string;
  game?: string; seat?: string; color?: Color;
}
interface SimulAnswer { simul: Simul; you: You }
interface ListEntry { id: string; name: string; host: string; time_control: string; max_boards: number; players: number; boards: number; over: number; status: string }

// --- The players' keys (anonymous players are known by them) ------------------------------

const KEYS = 'outpost.simulkeys';
function keyFor(id: string): string {
  try { return String(JSON.parse(localStorage.getItem(KEYS) ?? '{}')[id] ?? ''); } catch { return ''; }
}
function saveKey(id: string, key: string) {
  try {
    const m = JSON.parse(localStorage.getItem(KEYS) ?? '{}');
    m[id] = key;
    localStorage.setItem(KEYS, JSON.stringify(m));
  } catch { /* full or private */ }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, method === 'GET' ? undefined : {
    method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}),
  });
  const text = await res.text();
  let j: Record<string, unknown>;
  try { j = JSON.parse(text); } catch { throw new ApiError('bad_response', `${res.status}`); }
  if (!res.ok || j.t === 'error') throw new ApiError(String(j.code ?? 'http'), String(j.message ?? res.status));
  return j as T;
}
const fail = (e: unknown) => toast(e instanceof ApiError ? errorText(e.code, e.message) : String(e));

const colourText = (c: string) => (c === 'alternate' ? t('simulAlternate') : t(c === 'black' ? 'black' : 'white'));
const boardName = (b: { name: string; robot: number }) => (b.robot ? t('levelN', { level: b.robot }) : playerName(b.name));

// --- The list and the form ------------------------------------------------------------------

// The list is live: it is read again every few seconds while the page is open (and
// visible), so that new simuls, entries and starts show without a reload.
const LIST_EVERY_MS = 4000;
export class SimulListView {
  private readonly list = h('div.simul-list', h('p.empty', '…'));
  private timer = 0;
  private shown = '';
  constructor(mount: HTMLElement) {
    const signedIn = account() !== null;
    clear(mount, h('main.lobby-screen.simul-screen',
      h('h1', t('simuls')),
      h('p.hint', t('simulIntro')),
      h('section', h('h2', t('simulList')), this.list),
      h('section', h('h2', t('simulCreate')), signedIn ? createForm() : h('p', h('a', { href: '#/account/signin' }, t('simulSignInToHost'))))));
    this.refresh(true);
    this.timer = window.setInterval(() => { if (!document.hidden) this.refresh(false); }, LIST_EVERY_MS);
  }
  destroy() { window.clearInterval(this.timer); this.timer = 0; }
  private refresh(first: boolean) {
    void call<{ simuls: ListEntry[] }>('GET', '/api/v1/simuls').then((r) => {
      if (!this.timer && !first) return; // left meanwhile
      const text = JSON.stringify(r.simuls);
      if (text === this.shown) return; // unchanged: no redraw (keeps focus and selection)
      this.shown = text;
      clear(this.list, r.simuls.length === 0 ? h('p.empty', t('simulNone')) : h('table.seek-table',
        h('thead', h('tr', h('th', t('simulName')), h('th', t('simulHost')), h('th', t('timeControl')), h('th', t('simulPlayers')), h('th', t('simulStatus')))),
        h('tbody', r.simuls.map((s) => h('tr', { 'data-simul': s.id, 'data-status': s.status },
          h('td', h('a', { href: `#/simul/${encodeURIComponent(s.id)}` }, s.name)), h('td', playerName(s.host)), h('td', s.time_control),
          h('td', `${s.players}/${s.max_boards}`), h('td', t(`simul_${s.status}` as 'simul_open')))))));
    }).catch((e) => { if (first) fail(e); });
  }
}

function createForm(): HTMLElement {
  const name = h('input', { type: 'text', maxlength: 60, required: true, 'data-field': 'simul-name', value: t('simulDefaultName', { name: account()?.name ?? '' }) }) as HTMLInputElement;
  const color = h('select', { 'data-field': 'simul-color' },
    (['white', 'black', 'alternate'] as const).map((c) => h('option', { value: c }, colourText(c)))) as HTMLSelectElement;
  const tc = h('select', { 'data-field': 'simul-tc' },
    PRESETS.filter((p) => !/d$/.test(p.tc)).map((p) => h('option', { value: p.tc }, p.label))) as HTMLSelectElement;
  tc.value = '10+5';
  const extra = h('input', { type: 'number', min: 0, max: 60, value: 0, 'data-field': 'simul-extra' }) as HTMLInputElement;
  const boards = h('input', { type: 'number', min: 1, max: 50, value: 10, 'data-field': 'simul-boards' }) as HTMLInputElement;
  const directly = h('input', { type: 'checkbox', checked: true, 'data-field': 'simul-directly' }) as HTMLInputElement;
  return h('form.seek-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      const body = { name: name.value.trim(), color: color.value, time_control: tc.value, host_extra: tc.value === '-' ? 0 : Math.round(Number(extra.value) || 0),
        max_boards: Math.round(Number(boards.value) || 1), join_directly: directly.checked };
      void call<SimulAnswer>('POST', '/api/v1/simuls', body)
        .then((r) => { location.hash = `#/simul/${encodeURIComponent(r.simul.id)}`; }).catch(fail);
    },
  },
  h('label', t('simulName'), name), h('label', t('simulHostColor'), color), h('label', t('timeControl'), tc),
  h('label', t('simulExtra'), extra), h('label', t('simulMaxBoards'), boards), h('label.check', directly, t('simulJoinDirectly')),
  h('button.action.primary', { type: 'submit', 'data-action': 'create-simul' }, t('simulCreate')));
}

// --- One simul ------------------------------------------------------------------------------

export class SimulView {
  private ws: WebSocket | null = null;
  private closed = false;
  private retry = 0;
  private timer = 0;
  private last: SimulAnswer | null = null;
  private wsKey = ''; // the key the socket was opened with (it says who watches)
  private host: HostBoards | null = null;
  private readonly head = h('div.simul-head');
  private readonly body = h('div.simul-body');
  private readonly results = h('section.simul-results');

  constructor(mount: HTMLElement, readonly id: string) {
    clear(mount, h('main.simul-screen', this.head, this.body, this.results));
    this.connect();
  }

  destroy() {
    this.closed = true;
    window.clearTimeout(this.timer);
    this.ws?.close();
    this.host?.destroy();
  }

  private connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = new URLSearchParams({ id: this.id });
    const key = keyFor(this.id);
    this.wsKey = key;
    if (key) q.set('key', key);
    const ws = new WebSocket(`${proto}//${location.host}/api/v1/simul?${q}`);
    this.ws = ws;
    ws.onopen = () => { this.retry = 0; };
    ws.onmessage = (ev) => { if (this.ws === ws) this.receive(String(ev.data)); };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.closed) this.timer = window.setTimeout(() => this.connect(), Math.min(8000, 500 * 2 ** this.retry++));
    };
  }

  private receive(text: string) {
    let m: Record<string, unknown>;
    try { m = JSON.parse(text); } catch { return; }
    if (m.t === 'error') { clear(this.body, h('p.empty', errorText(String(m.code ?? ''), String(m.message ?? '')))); return; }
    if (m.t !== 'simul' || typeof m.simul !== 'object' || typeof m.you !== 'object') return;
    this.apply(m as unknown as SimulAnswer);
  }

  private apply(a: SimulAnswer) {
    const before = this.last;
    this.last = a;
    if (a.you.key) saveKey(this.id, a.you.key);
    // Joined just now: the socket is opened again with the key, to be told as a player.
    if (a.you.key && a.you.key !== this.wsKey) {
      const old = this.ws;
      this.ws = null;
      old?.close();
      this.connect();
    }
    // A player on this page when the simul starts goes to its game.
    if (a.you.role === 'player' && a.you.game && a.you.seat && before && before.simul.status === 'open' && a.simul.status !== 'open') {
      this.openGame(a.you);
      return;
    }
    this.render();
  }

  private openGame(y: You) {
    if (!y.game || !y.seat) return;
    saveSeat({ game: y.game, token: y.seat, color: y.color ?? 'white', created: Date.now(), simul: this.id });
    location.hash = `#/game/${y.game}?seat=${encodeURIComponent(y.seat)}`;
  }

  private post(action: string, body: Record<string, unknown> = {}) {
    void call<SimulAnswer>('POST', `/api/v1/simuls/${encodeURIComponent(this.id)}/${action}`, { key: keyFor(this.id) || undefined, ...body })
      .then((r) => this.apply(r)).catch(fail);
  }

  private render() {
    const a = this.last;
    if (!a) return;
    const s = a.simul, you = a.you;
    clear(this.head,
      h('p', h('a', { href: '#/simuls' }, t('simuls'))),
      h('h1', s.name),
      h('p.simul-meta', t('simulMeta', { host: playerName(s.host), tc: s.time_control === '-' ? '∞' : s.time_control, color: colourText(s.host_color) }),
        s.host_extra ? ` · ${t('simulExtraN', { n: s.host_extra })}` : '', ` · `, h('span', { 'data-simul-status': s.status }, t(`simul_${s.status}` as 'simul_open'))));
    if (s.status === 'open') {
      this.host?.destroy();
      this.host = null;
      const focused = document.activeElement;
      clear(this.body, this.openPart(s, you));
      if (focused instanceof HTMLElement && focused !== document.activeElement && this.body.contains(focused)) focused.focus(); // moved, not replaced
    } else if (you.role === 'host' && s.status !== 'cancelled') {
      if (!this.host) {
        this.host = new HostBoards(s, you.seats ?? {});
        clear(this.body, this.host.el);
      }
      this.host.update(s);
    } else if (you.role === 'player' && you.game) {
      clear(this.body, h('p', h('a.action.primary', { href: `#/game/${you.game}?seat=${encodeURIComponent(you.seat ?? '')}`, 'data-action': 'my-simul-game',
        onclick: (e: Event) => { e.preventDefault(); this.openGame(you); } }, t('simulYourGame'))));
    } else {
      clear(this.body);
    }
    this.renderResults(s);
  }

  // Made once: a simul's every update redraws the open part, and a name half typed or
  // a level chosen (and the focus in them) must outlive it.
  private readonly joinName = h('input', { type: 'text', maxlength: 40, 'data-field': 'simul-player-name', 'aria-label': t('yourName') }) as HTMLInputElement;
  private readonly robotLevel = h('select', { 'data-field': 'simul-robot' }, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((l) => h('option', { value: l }, t('levelN', { level: l })))) as HTMLSelectElement;

  private openPart(s: Simul, you: You): HTMLElement {
    const host = you.role === 'host';
    const accepted = s.players.filter((p) => p.accepted).length;
    const players = h('table.seek-table.simul-players',
      h('thead', h('tr', h('th', t('lobbyPlayer')), h('th', ''))),
      h('tbody', s.players.length === 0 ? h('tr', h('td', { colspan: 2 }, t('simulNoPlayers'))) : s.players.map((p) => h('tr', { 'data-player': p.id },
        h('td', p.robot ? t('levelN', { level: p.robot }) : playerName(p.name), p.accepted ? '' : ` (${t('simulApplied')})`),
        h('td', host && !p.accepted ? h('button.action.yes', { type: 'button', 'data-action': 'accept-player', onclick: () => this.post('accept', { player: p.id }) }, t('accept')) : null,
          host ? h('button.action', { type: 'button', 'data-action': 'remove-player', onclick: () => this.post('withdraw', { player: p.id }) }, t('simulRemove')) : null)))));
    const parts: HTMLElement[] = [h('p', t('simulBoardsN', { n: accepted, max: s.max_boards })), players];
    if (host) {
      const level = this.robotLevel;
      parts.push(h('div.actions',
        h('button.action.primary', { type: 'button', 'data-action': 'start-simul', disabled: accepted === 0, onclick: () => this.post('start') }, t('simulStart')),
        h('button.action', { type: 'button', 'data-action': 'cancel-simul', onclick: () => this.post('cancel') }, t('simulCancel')),
        h('label', t('simulAddRobot'), level),
        h('button.action', { type: 'button', 'data-action': 'add-robot', onclick: () => this.post('join', { robot: Number(level.value) }) }, t('simulAdd'))));
    } else if (you.role === 'player') {
      parts.push(h('p', you.accepted ? t('simulJoined') : t('simulWaitingAccept')),
        h('button.action', { type: 'button', 'data-action': 'withdraw', onclick: () => this.post('withdraw') }, t('simulWithdraw')));
    } else {
      const name = this.joinName;
      parts.push(h('form.simul-join', {
        onsubmit: (e: Event) => { e.preventDefault(); this.post('join', account() ? {} : { name: name.value.trim() }); },
      }, account() ? null : h('label', t('yourName'), name),
      h('button.action.primary', { type: 'submit', 'data-action': 'join-simul' }, s.join_directly ? t('simulJoin') : t('simulApply'))));
    }
    return h('section.simul-open', parts);
  }

  private renderResults(s: Simul) {
    if (s.boards.length === 0) { clear(this.results); return; }
    const m = s.summary;
    clear(this.results,
      h('h2', s.status === 'finished' ? t('simulResults') : t('simulBoards')),
      h('p.simul-summary', { 'data-summary': `+${m.wins} -${m.losses} =${m.draws}` },
        t('simulSummary', { host: playerName(s.host), wins: m.wins, losses: m.losses, draws: m.draws, score: m.score, of: m.of })),
      h('table.seek-table.simul-table',
        h('thead', h('tr', h('th', '#'), h('th', t('lobbyPlayer')), h('th', t('simulHostColor')), h('th', t('simulResult')))),
        h('tbody', s.boards.map((b) => h('tr', { 'data-board': b.n },
          h('td', String(b.n)), h('td', b.game ? h('a', { href: `#/game/${b.game}` }, boardName(b)) : boardName(b)),
          h('td', t(b.host_color)),
          h('td', b.status === 'playing' ? (b.turn === 'host' ? t('simulHostToMove') : t('simulPlayerToMove'))
            : b.status === 'over' ? b.result : t(`simul_${b.status}` as 'simul_open')))))));
  }
}

// --- The host's boards ---------------------------------------------------------------------

interface Mini { board: SimulBoard; socket: GameSocket; state: GameState | null; cg: Api; cell: HTMLElement }

class HostBoards {
  readonly el: HTMLElement;
  private readonly grid = h('div.simul-grid', { role: 'list' });
  private readonly bigWrap = h('div.board-wrap.simul-big', { 'data-simul-big': '' });
  private readonly caption = h('p.simul-caption', { 'aria-live': 'polite' });
  private readonly minis = new Map<string, Mini>();
  private readonly big: Board;
  private readonly promotion: Promotion;
  private selected = '';
  private bigTop = NaN;
  // The selected board's clocks: the player's above the board, the host's below.
  private readonly clockTop = h('div.clock.simul-clock', { 'data-clock': 'player' });
  private readonly clockBottom = h('div.clock.simul-clock', { 'data-clock': 'host' });
  private readonly clocks = new Clocks({ white: this.clockBottom, black: this.clockTop });

  constructor(s: Simul, private readonly seats: Record<string, string>) {
    const inner = h('div.board');
    this.bigWrap.append(inner);
    this.el = h('section.simul-host',
      h('div.simul-play', this.caption, this.clockTop, this.bigWrap, this.clockBottom,
        h('div.actions', h('button.action.primary', { type: 'button', 'data-action': 'next-board', title: t('simulNextKey'), onclick: () => this.next() }, t('simulNext')))),
      this.grid);
    this.big = new Board(inner, { viewOnly: false, movable: { color: undefined } });
    this.big.onMove = (m) => this.move(m.from, m.to);
    this.promotion = new Promotion(inner);
    for (const b of s.boards) if (b.game && seats[b.game]) this.add(b);
    document.addEventListener('keydown', this.onKey);
    const first = s.boards.find((b) => b.game);
    if (first) this.select(first.game);
  }

  destroy() {
    document.removeEventListener('keydown', this.onKey);
    for (const m of this.minis.values()) { m.socket.close(); m.cg.destroy(); }
    this.big.destroy();
    this.clocks.destroy();
  }

  private readonly onKey = (e: KeyboardEvent) => {
    const tag = (e.target as HTMLElement | null)?.tagName ?? '';
    if (e.ctrlKey || e.metaKey || e.altKey || tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    if (e.key === 'n' || e.key === 'N') { e.preventDefault(); this.next(); }
  };

  private add(b: SimulBoard) {
    const wrap = h('div.simul-mini-board');
    const cell = h('button.simul-cell', { type: 'button', role: 'listitem', 'data-game': b.game, onclick: () => this.select(b.game) },
      wrap, h('span.simul-cell-name', `${b.n}. ${boardName(b)}`), h('span.simul-cell-state'));
    this.grid.append(cell);
    const cg = Chessground(wrap, { viewOnly: true, coordinates: false, orientation: b.host_color, animation: { enabled: false } });
    const mini: Mini = { board: b, socket: null as unknown as GameSocket, state: null, cg, cell };
    mini.socket = new GameSocket(b.game, this.seats[b.game], {
      state: (st) => { mini.state = st; this.draw(mini); },
      error: (code, message) => toast(errorText(code, message)),
      status: () => {},
      lag: () => {},
    });
    this.minis.set(b.game, mini);
  }

  update(s: Simul) {
    for (const b of s.boards) {
      const m = this.minis.get(b.game);
      if (m) { m.board = b; this.draw(m); }
    }
  }

  private myMove(m: Mini): boolean {
    const st = m.state;
    return !!st && st.status === 'ongoing' && st.turn === m.board.host_color;
  }

  private lastMove(st: GameState): Key[] | undefined {
    const lm = st.last_move;
    if (!lm) return undefined;
    const a = lm.slice(0, 2), b = lm.slice(2, 4);
    return isKey(a) && isKey(b) ? [a, b] : undefined;
  }

  private draw(m: Mini) {
    const st = m.state;
    if (st) m.cg.set({ fen: st.fen, lastMove: this.lastMove(st) });
    const mine = this.myMove(m);
    m.cell.classList.toggle('my-turn', mine);
    m.cell.classList.toggle('selected', m.board.game === this.selected);
    const label = m.cell.querySelector('.simul-cell-state')!;
    label.textContent = !st ? '…' : st.status !== 'ongoing' ? st.result : mine ? t('simulYourMove') : '';
    if (m.board.game === this.selected) this.drawBig();
  }

  private drawBig() {
    const m = this.minis.get(this.selected);
    if (!m) return;
    const st = m.state;
    const mine = this.myMove(m);
    this.caption.textContent = `${m.board.n}. ${boardName(m.board)}${st && st.status !== 'ongoing' ? ` · ${st.result}` : mine ? ` · ${t('simulYourMove')}` : ''}`;
    this.bigWrap.setAttribute('data-game', m.board.game);
    this.clocks.els = m.board.host_color === 'white' ? { white: this.clockBottom, black: this.clockTop } : { white: this.clockTop, black: this.clockBottom };
    this.clocks.sync(st?.clock ?? null, 0, st?.ply ?? -1);
    // Chessground keeps the board's place from when it last drew: a board moved by
    // the text above it would take clicks for other squares.
    const top = this.bigWrap.getBoundingClientRect().top + window.scrollY;
    if (top !== this.bigTop) { this.bigTop = top; this.big.cg.state.dom.bounds.clear(); }
    this.big.set({
      orientation: m.board.host_color,
      fen: st?.fen,
      lastMove: st ? this.lastMove(st) : undefined,
      turnColor: st?.turn,
      check: !!st?.check,
      movable: { color: mine ? m.board.host_color : undefined, dests: mine ? Board.dests(st?.legal) : new Map() },
    });
  }

  select(game: string) {
    this.selected = game;
    for (const m of this.minis.values()) m.cell.classList.toggle('selected', m.board.game === game);
    this.drawBig();
  }

  // The next board after the selected one (in board order, round again) where it is
  // the host's move; none: stays.
  next() {
    const games = [...this.minis.keys()];
    const from = games.indexOf(this.selected);
    for (let i = 1; i <= games.length; i++) {
      const g = games[(from + i) % games.length];
      if (this.myMove(this.minis.get(g)!)) { this.select(g); return; }
    }
    toast(t('simulNoMoveDue'), 'info');
  }

  private move(from: Key, to: Key) {
    const m = this.minis.get(this.selected);
    const st = m?.state;
    if (!m || !st) return;
    const pieces = piecesOf(st.fen);
    const piece = pieces.get(from);
    const send = (promotion?: string) => {
      if (!m.socket.send({ t: 'move', uci: moveUci(st.variant, pieces, from, to, promotion), ply: st.ply })) toast(t('notConnected'));
    };
    if (piece?.role === 'pawn' && isLastRank(to)) {
      void this.promotion.choose(to, piece.color as Color, m.board.host_color).then((p) => (p ? send(p) : this.drawBig()));
      return;
    }
    send();
  }
}
