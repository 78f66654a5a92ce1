// Events (P20, issue 13): the list of tournaments and the form to create one, and an
// event's page: players, the pairing of each round with links to play or watch,
// results, live standings with the organiser's tiebreaks, join/withdraw, half-point
// byes, the organiser's buttons (start round, enter result), TRF and PGN downloads
// and a printable view (print CSS). The server pairs (docs/protocol.md, "Events");
// this screen only asks and shows. The page is read again every few seconds.
import { ApiError } from './api';
import { account, onAccount } from './account';
import { clear, h, toast, redrawKeepingFocus } from './dom';
import { dateTime, errorText, playerName, t } from './i18n';
import type { Key } from './i18n/en';

interface Side { rank: number; name: string }
interface Board { board: number; white: Side; black: Side | null; result: string; game?: string; seat?: string; note?: string }
interface RoundView { round: number; started_ms: number; boards: Board[]; half_point_byes: number[] }
interface Standing { place: number; rank: number; name: string; points: number; tiebreaks: number[]; counted?: boolean }
interface EventPlayer { rank: number; name: string; rating: number; withdrawn_from: number; byes: number[]; points: number }
interface EventSummary {
  id: number; name: string; organiser: string; system: string; rounds: number; time_control: string; rated: boolean;
  mode: 'online' | 'otb'; status: 'registration' | 'running' | 'finished' | 'closed'; current_round: number; players: number;
}
interface EventFull extends Omit<EventSummary, 'players'> {
  tiebreaks: string[]; players: EventPlayer[]; pairings: RoundView[]; standings: Standing[];
  you?: { organiser: boolean; rank: number; playing: boolean };
}

const RESULTS = ['1-0', '0-1', '1/2-1/2', '+-', '-+', '--'];
const REFRESH_MS = 5000;

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, method === 'GET' ? { credentials: 'same-origin' } : {
    method, credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}),
  });
  let parsed: { code?: string; message?: string };
  try { parsed = await res.json(); } catch { throw new ApiError('bad_response', `${res.status}`); }
  if (!res.ok) throw new ApiError(parsed.code ?? 'http', parsed.message ?? `${res.status}`);
  return parsed as T;
}

const failed = (e: unknown) => toast(e instanceof ApiError ? errorText(e.code, e.message) : t('err_http'));
const systemText = (s: string) => t(s === 'swiss' ? 'evSwiss' : s === 'round-robin' ? 'evRoundRobin' : 'evDoubleRoundRobin');
const statusText = (e: Pick<EventSummary, 'status'>) => t(`evStatus_${e.status}` as Key);
const resultText = (r: string) => (r === '1/2-1/2' ? '½-½' : r === 'bye' ? t('evBye') : r);

function summaryLine(e: Omit<EventSummary, 'players'>): string {
  return [systemText(e.system), e.system === 'swiss' || e.rounds ? t('evRoundsN', { n: e.rounds }) : '',
    e.time_control === '-' ? '' : e.time_control, e.rated ? t('evRated') : t('evUnrated'),
    e.mode === 'online' ? t('evOnline') : t('evOtb')].filter(Boolean).join(' · ');
}

// --- The list and the create form ---------------------------------------------------------

export class EventsView {
  private readonly list = h('ul.game-list.event-list', { 'aria-live': 'polite' });
  private readonly formBox = h('section.event-create', { 'aria-labelledby': 'event-create-title' });
  private readonly unsubscribe: () => void;

  constructor(mount: HTMLElement) {
    clear(mount, h('main.page.events-page', h('h1', t('evTitle')), this.list, this.formBox));
    this.unsubscribe = onAccount(() => this.renderForm());
    this.renderForm();
    void this.load();
  }

  destroy() { this.unsubscribe(); }

  private async load() {
    try {
      const r = await call<{ events: EventSummary[] }>('GET', '/api/v1/events');
      clear(this.list, r.events.length ? r.events.map((e) => h('li.game-row', { 'data-event': e.id },
        h('a.game-link', { href: `#/event/${e.id}` },
          h('span.players', e.name),
          h('span.game-meta', [summaryLine(e), t('evOrganiser', { name: e.organiser }), t('evPlayersN', { n: e.players })].join(' · ')),
          h('span.result', statusText(e))))) : h('li.empty', t('evNone')));
    } catch (e) {
      clear(this.list, h('li.empty', e instanceof ApiError ? errorText(e.code, e.message) : t('err_http')));
    }
  }

  private renderForm() {
    if (!account()) {
      clear(this.formBox, h('p', h('a', { href: '#/account/signin' }, t('evSignInToCreate'))));
      return;
    }
    const field = (label: string, input: HTMLElement) => h('label.block', label, input);
    const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 100, 'data-field': 'event-name' }) as HTMLInputElement;
    const system = h('select', { name: 'system', 'data-field': 'event-system' },
      h('option', { value: 'swiss' }, t('evSwiss')), h('option', { value: 'round-robin' }, t('evRoundRobin')),
      h('option', { value: 'double-round-robin' }, t('evDoubleRoundRobin'))) as HTMLSelectElement;
    const rounds = h('input', { type: 'number', name: 'rounds', min: 1, max: 30, value: 5, 'data-field': 'event-rounds' }) as HTMLInputElement;
    const roundsLabel = field(t('evRounds'), rounds);
    const tc = h('input', { type: 'text', name: 'time_control', value: '10+5', 'data-field': 'event-tc' }) as HTMLInputElement;
    const rated = h('input', { type: 'checkbox', name: 'rated' }) as HTMLInputElement;
    const mode = h('select', { name: 'mode', 'data-field': 'event-mode' },
      h('option', { value: 'online' }, t('evOnline')), h('option', { value: 'otb' }, t('evOtb'))) as HTMLSelectElement;
    const tiebreaks = h('input', { type: 'text', name: 'tiebreaks', value: 'BH-C1, BH, SB', 'data-field': 'event-tiebreaks' }) as HTMLInputElement;
    system.onchange = () => {
      roundsLabel.hidden = system.value !== 'swiss';
      tiebreaks.value = system.value === 'swiss' ? 'BH-C1, BH, SB' : 'DE, WIN, SB';
    };
    const status = h('p.form-status', { role: 'status' });
    const form = h('form.account-form', {
      onsubmit: async (ev: Event) => {
        ev.preventDefault();
        const body: Record<string, unknown> = {
          name: name.value.trim(), system: system.value, time_control: tc.value.trim() || '-', rated: rated.checked, mode: mode.value,
          tiebreaks: tiebreaks.value.split(/[\s,]+/).filter(Boolean),
        };
        if (system.value === 'swiss') body.rounds = Number(rounds.value);
        try {
          const e = await call<EventFull>('POST', '/api/v1/events', body);
          location.hash = `#/event/${e.id}`;
        } catch (e) {
          status.textContent = e instanceof ApiError ? errorText(e.code, e.message) : t('err_http');
        }
      },
    },
    field(t('evName'), name), field(t('evSystem'), system), roundsLabel, field(t('evTimeControl'), tc),
    h('label', rated, ' ', t('evRated')), field(t('evMode'), mode), field(t('evTiebreaks'), tiebreaks), status,
    h('button.primary', { type: 'submit', 'data-action': 'create-event' }, t('evCreate')));
    clear(this.formBox, h('h2', { id: 'event-create-title' }, t('evCreate')), form);
  }
}

// --- One event ---------------------------------------------------------------------------------

export class EventView {
  private timer = 0;
  private closed = false;
  private readonly page = h('main.page.event-page', h('p', t('loading')));
  private readonly path: string;
  private lastBody = '';

  constructor(mount: HTMLElement, private readonly id: string) {
    this.path = `/api/v1/events/${encodeURIComponent(id)}`;
    clear(mount, this.page);
    void this.load();
  }

  destroy() {
    this.closed = true;
    window.clearTimeout(this.timer);
  }

  private async load() {
    if (this.closed) return;
    window.clearTimeout(this.timer);
    try {
      const e = await call<EventFull>('GET', this.path);
      const body = JSON.stringify(e);
      // Redraw only when something changed (keeps the organiser's open selects).
      if (body !== this.lastBody && !this.closed) {
        this.lastBody = body;
        this.render(e);
      }
    } catch (e) {
      if (!this.lastBody) clear(this.page, h('h1', t('evTitle')),
        h('p', e instanceof ApiError && e.code === 'not_found' ? t('evNotFound') : t('err_http')));
    }
    if (!this.closed) this.timer = window.setTimeout(() => void this.load(), REFRESH_MS);
  }

  private async act(action: string, body: unknown = {}) {
    try {
      const e = await call<EventFull>('POST', `${this.path}/${action}`, body);
      this.lastBody = JSON.stringify(e);
      this.render(e);
    } catch (e) { failed(e); }
  }

  private render(e: EventFull) { redrawKeepingFocus(this.page, () => this.draw(e)); }

  private draw(e: EventFull) {
    const you = e.you;
    const actions = h('div.event-actions.no-print');
    if (account() && e.status !== 'finished' && e.status !== 'closed') {
      if (you?.playing) actions.append(h('button.small-btn', { type: 'button', 'data-action': 'withdraw', onclick: () => void this.act('withdraw') }, t('evWithdraw')));
      else if (e.status === 'registration' || e.system === 'swiss') actions.append(h('button.primary', { type: 'button', 'data-action': 'join', onclick: () => void this.act('join') }, t('evJoin')));
      if (you?.playing && e.system === 'swiss' && e.current_round < e.rounds) {
        const round = h('select', { 'aria-label': t('evByeRound'), 'data-field': 'bye-round' },
          Array.from({ length: e.rounds - e.current_round }, (_, i) => e.current_round + 1 + i).map((r) => h('option', { value: r }, t('evRoundN', { n: r })))) as HTMLSelectElement;
        actions.append(h('span.bye-request', round, h('button.small-btn', { type: 'button', 'data-action': 'bye',
          onclick: () => void this.act('bye', { round: Number(round.value) }) }, t('evByeRequest'))));
      }
      // The next round once every board of the last one has its result.
      const last = e.pairings[e.pairings.length - 1];
      const ready = !last || last.boards.every((b) => b.result !== '');
      if (you?.organiser && (e.current_round === 0 || e.current_round < e.rounds)) {
        const next = e.current_round + 1;
        actions.append(h('button.primary', { type: 'button', 'data-action': 'start-round', disabled: !ready, onclick: () => void this.act('rounds') }, t('evStartRound', { n: next })));
      }
    } else if (!account()) {
      actions.append(h('a', { href: '#/account/signin' }, t('evSignInToCreate')));
    }
    const downloads = h('div.event-downloads.no-print',
      h('a.small-btn', { href: `${this.path}/trf`, download: `outpost-event-${this.id}.trf`, 'data-action': 'trf' }, t('evDownloadTrf')),
      h('a.small-btn', { href: `${this.path}/pgn`, download: `outpost-event-${this.id}.pgn`, 'data-action': 'pgn' }, t('evDownloadPgn')),
      h('button.small-btn', { type: 'button', 'data-action': 'print', onclick: () => window.print() }, t('evPrint')));
    clear(this.page,
      h('h1', e.name),
      h('p.muted', summaryLine(e), ' · ', t('evOrganiser', { name: e.organiser }), ' · ', h('span', { 'data-field': 'event-status' }, statusText(e))),
      actions, downloads,
      this.standings(e),
      h('section.event-rounds', { 'aria-labelledby': 'event-rounds-title' },
        h('h2', { id: 'event-rounds-title' }, t('evPairings')),
        e.pairings.length ? [...e.pairings].reverse().map((r) => this.round(e, r)) : h('p', t('evNoPairing'))),
      this.players(e));
  }

  private round(e: EventFull, r: RoundView): HTMLElement {
    const names = new Map(e.players.map((p) => [p.rank, p.name]));
    const organiser = e.you?.organiser ?? false;
    const side = (s: Side | null) => (s ? `${playerName(s.name)} (${s.rank})` : t('evBye'));
    return h('table.event-table.event-round', { 'data-round': r.round },
      h('caption', t('evRoundN', { n: r.round }), r.started_ms ? ` · ${t('evStarted', { time: dateTime(new Date(r.started_ms)) })}` : ''),
      h('thead', h('tr', h('th', { scope: 'col' }, t('evBoard')), h('th', { scope: 'col' }, t('white')),
        h('th', { scope: 'col' }, t('evResult')), h('th', { scope: 'col' }, t('black')), h('th.no-print', { scope: 'col' }, ''))),
      h('tbody', r.boards.map((b) => {
        let result: HTMLElement | string = resultText(b.result);
        if (organiser && b.black) {
          const sel = h('select', { 'aria-label': t('evEnterResult', { board: b.board }), 'data-field': `result-${r.round}-${b.board}`,
            onchange: () => void this.act('results', { round: r.round, board: b.board, result: sel.value || '*' }) },
          h('option', { value: '' }, t('evPending')), RESULTS.map((x) => h('option', { value: x, selected: x === b.result }, resultText(x)))) as HTMLSelectElement;
          result = h('span', h('span.print-only', resultText(b.result)), h('span.no-print', sel));
        }
        const link = b.game
          ? (b.seat ? h('a', { href: `#/game/${encodeURIComponent(b.game)}?seat=${encodeURIComponent(b.seat)}`, 'data-action': 'play' }, t('evPlay'))
            : h('a', { href: `#/game/${encodeURIComponent(b.game)}`, 'data-action': 'watch' }, t('evWatch')))
          : null;
        return h('tr', { 'data-board': b.board },
          h('td', String(b.board)), h('td', side(b.white)), h('td.result', result, b.note === 'aborted' ? h('span.muted', ` ${t('evAborted')}`) : null),
          h('td', side(b.black)), h('td.no-print', link));
      })),
      r.half_point_byes.length ? h('tfoot', h('tr', h('td', { colspan: 5 },
        t('evHalfByes', { names: r.half_point_byes.map((k) => playerName(names.get(k) ?? String(k))).join(', ') })))) : null);
  }

  private standings(e: EventFull): HTMLElement {
    const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0$/, ''));
    return h('table.event-table.event-standings',
      h('caption', t('evStandings')),
      h('thead', h('tr', h('th', { scope: 'col' }, t('evPlace')), h('th', { scope: 'col' }, t('evName')),
        h('th', { scope: 'col' }, t('evPoints')), e.tiebreaks.map((c) => h('th', { scope: 'col', title: c }, c)))),
      h('tbody', e.standings.map((s) => h(s.counted === false ? 'tr.muted' : 'tr', { 'data-rank': s.rank },
        h('td', s.place ? String(s.place) : '–'), h('th', { scope: 'row' }, h('a.player-link', { href: `#/player/${encodeURIComponent(s.name)}` }, playerName(s.name))),
        h('td', fmt(s.points)), s.tiebreaks.map((v) => h('td', fmt(v)))))));
  }

  private players(e: EventFull): HTMLElement {
    return h('section.event-players', { 'aria-labelledby': 'event-players-title' },
      h('h2', { id: 'event-players-title' }, t('evPlayers'), ' ', h('span.muted', `(${e.players.length})`)),
      e.players.length ? h('ol.event-player-list', e.players.map((p) => h('li', { value: p.rank },
        playerName(p.name), p.rating ? h('span.muted', { 'data-rating': p.rating }, ` ${p.rating}`) : null,
        p.withdrawn_from ? h('span.muted', ` (${t('evWithdrawn')})`) : null)))
        : h('p', t('evNoPlayers')));
  }
}
