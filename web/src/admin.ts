// The admin page (SPEC D9), #/admin, for accounts made with `outpost user add NAME
// --admin`: the games being played (an arbiter's decision ends one), the connections,
// accounts (find, disable, enable, sign out everywhere), events and simuls (close),
// the players' reports (resolve, reopen) and the audit log of every admin action.
// The server checks every request (docs/protocol.md, "Administration"); this page
// only shows what it answers. Tables have captions and header cells; every action is
// a button or a form with labelled fields; what an action did is said in a live region.
import { ApiError } from './api';
import { account } from './account';
import { clear, h } from './dom';
import { dateTime, errorText, hasKey, playerName, t } from './i18n';
import type { Key } from './i18n/en';

interface LiveGame { id: string; white: string; black: string; time_control: string; ply: number; connections: number }
interface Overview {
  games: LiveGame[]; live_games: number; open_reports: number;
  connections: { total: number; anonymous: number; accounts: Array<{ name: string; connections: number }> };
}
interface AdminAccount { name: string; admin: boolean; disabled: boolean; connections: number }
interface Report { id: number; at: number; reporter: string; kind: 'game' | 'player'; target: string; reason: string; state: string; resolved_by: string | null }
interface AuditEntry { id: number; at: number; admin: string; action: string; target: string; before: string; after: string }
interface EventRow { id: number; name: string; status: string; organiser: string }
interface SimulRow { id: string; name: string; status: string; host: string }

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, method === 'GET' ? { credentials: 'same-origin' } : {
    method, credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: 1, ...(body ?? {}) }),
  });
  let parsed: { code?: string; message?: string };
  try { parsed = await res.json(); } catch { throw new ApiError('bad_response', `${res.status}`); }
  if (!res.ok) throw new ApiError(parsed.code ?? 'http', parsed.message ?? `${res.status}`);
  return parsed as T;
}

const th = (text: string) => h('th', { scope: 'col' }, text);
const table = (caption: string, heads: string[], rows: HTMLElement[], name: string) =>
  rows.length ? h('table.admin-table', { 'data-table': name }, h('caption', caption), h('thead', h('tr', heads.map(th))), h('tbody', rows))
    : h('p.muted', { 'data-table': name }, t('adminNone'));
const btn = (text: string, action: string, f: () => void) =>
  h('button.small-btn', { type: 'button', 'data-action': action, onclick: f }, text);

export class AdminView {
  private page = h('main.page.admin-page', { 'aria-labelledby': 'admin-title' });
  private status = h('p.form-status', { role: 'status', 'data-admin-status': '' });
  private sections: Record<string, HTMLElement> = {};
  private query = '';
  private reportState = 'open';
  private alive = true;

  constructor(mount: HTMLElement) {
    clear(mount, this.page);
    clear(this.page, h('h1', { id: 'admin-title' }, t('adminTitle')), h('p', t('loading')));
    void this.start();
  }

  destroy() { this.alive = false; }

  private section(name: string, title: Key): HTMLElement {
    const body = h('div');
    this.sections[name] = body;
    return h('section.admin-section', { 'aria-labelledby': `admin-${name}` },
      h('h2', { id: `admin-${name}`, tabindex: '-1' }, t(title)), body);
  }

  private async start() {
    try { await call<Overview>('GET', '/api/v1/admin/overview'); } catch (e) {
      if (!this.alive) return;
      clear(this.page, h('h1', { id: 'admin-title' }, t('adminTitle')),
        h('p', { 'data-admin': 'refused' }, e instanceof ApiError && e.code === 'not_signed_in' ? errorText(e.code, e.message) : t('adminOnly')));
      return;
    }
    if (!this.alive) return;
    const search = h('input', { id: 'admin-q', name: 'q', type: 'search', maxlength: 40, autocomplete: 'off' }) as HTMLInputElement;
    const states = h('select', { id: 'admin-report-state', onchange: (e: Event) => { this.reportState = (e.target as HTMLSelectElement).value; void this.reports(); } },
      [['open', t('adminReportsOpen')], ['resolved', t('adminReportsResolved')], ['all', t('adminReportsAll')]].map(([v, l]) => h('option', { value: v }, l)));
    clear(this.page,
      h('h1', { id: 'admin-title' }, t('adminTitle')),
      btn(t('adminRefresh'), 'refresh', () => void this.all()),
      this.status,
      this.section('games', 'adminGames'),
      this.section('accounts', 'adminAccounts'),
      this.section('reports', 'adminReports'),
      this.section('events', 'adminEvents'),
      this.section('simuls', 'adminSimuls'),
      this.section('audit', 'adminAudit'));
    this.sections.accounts.before(h('form.admin-search', { role: 'search', onsubmit: (e: Event) => { e.preventDefault(); this.query = search.value; void this.accounts(); } },
      h('label', { for: 'admin-q' }, t('adminSearch')), ' ', search, ' ', h('button.small-btn', { type: 'submit', 'data-action': 'find' }, t('adminFind'))));
    this.sections.reports.before(h('label.block', { for: 'admin-report-state' }, t('adminState'), states));
    await this.all();
  }

  private async all() { await Promise.all([this.games(), this.accounts(), this.reports(), this.events(), this.simuls(), this.audit()]); }

  // Runs an admin action, says what became of it, and shows the page as it is now.
  private async act(path: string, body: unknown, done: string, focus: string) {
    try {
      await call('POST', path, body);
      this.status.textContent = done;
    } catch (e) {
      this.status.textContent = e instanceof ApiError ? errorText(e.code, e.message) : t('err_http');
    }
    await this.all();
    document.getElementById(`admin-${focus}`)?.focus();
  }

  private fail(name: string, e: unknown) {
    clear(this.sections[name], h('p', e instanceof ApiError ? errorText(e.code, e.message) : t('err_http')));
  }

  private async games() {
    try {
      const o = await call<Overview>('GET', '/api/v1/admin/overview');
      const c = o.connections;
      clear(this.sections.games,
        h('p', { 'data-connections': String(c.total) }, t('adminConnSummary', { total: c.total, anonymous: c.anonymous, accounts: c.accounts.length })),
        table(t('adminGames'), [t('adminPlayers'), t('adminTc'), t('adminMoves'), t('adminConnections'), t('adminEndGame')],
          o.games.map((g) => h('tr', { 'data-game': g.id },
            h('td', h('a', { href: `#/game/${encodeURIComponent(g.id)}` }, `${playerName(g.white)} ${t('vs')} ${playerName(g.black)}`)),
            h('td', g.time_control), h('td', String(Math.ceil(g.ply / 2))), h('td', String(g.connections)),
            h('td', this.endForm(g)))), 'games'));
    } catch (e) { this.fail('games', e); }
  }

  private endForm(g: LiveGame): HTMLElement {
    const rid = `admin-result-${g.id}`, wid = `admin-reason-${g.id}`;
    const result = h('select', { id: rid, name: 'result' },
      [['1-0', `1-0 (${t('white')})`], ['0-1', `0-1 (${t('black')})`], ['1/2-1/2', `½-½ (${t('adminDraw')})`]].map(([v, l]) => h('option', { value: v }, l))) as HTMLSelectElement;
    const reason = h('input', { id: wid, name: 'reason', type: 'text', maxlength: 300, required: true }) as HTMLInputElement;
    return h('details', h('summary', t('adminEndGame')),
      h('form', { 'data-end': g.id, onsubmit: (e: Event) => { e.preventDefault(); void this.act(`/api/v1/admin/games/${encodeURIComponent(g.id)}/end`, { result: result.value, reason: reason.value }, t('adminEnded'), 'games'); } },
        h('label.block', { for: rid }, t('adminResult'), result),
        h('label.block', { for: wid }, t('adminReason'), reason),
        h('button.small-btn', { type: 'submit', 'data-action': 'end-game' }, t('adminEnd'))));
  }

  private async accounts() {
    try {
      const r = await call<{ accounts: AdminAccount[] }>('GET', `/api/v1/admin/accounts?q=${encodeURIComponent(this.query)}`);
      const path = (a: AdminAccount, what: string) => `/api/v1/admin/accounts/${encodeURIComponent(a.name)}/${what}`;
      clear(this.sections.accounts, table(t('adminAccounts'), [t('adminName'), t('adminState'), t('adminConnections'), t('adminAction')],
        r.accounts.map((a) => h('tr', { 'data-account': a.name, 'data-disabled': String(a.disabled) },
          h('th', { scope: 'row' }, h('a', { href: `#/player/${encodeURIComponent(a.name)}` }, a.name)),
          h('td', a.disabled ? t('adminDisabled') : t('adminActive')), h('td', String(a.connections)),
          h('td', a.disabled ? btn(t('adminEnable'), 'enable', () => void this.act(path(a, 'enable'), {}, t('adminDone'), 'accounts'))
            : a.name === account()?.name ? '' // an admin does not disable their own account (the server refuses it too)
              : btn(t('adminDisable'), 'disable', () => void this.act(path(a, 'disable'), {}, t('adminDone'), 'accounts')),
          ' ', btn(t('adminSignOut'), 'signout', () => void this.act(path(a, 'signout'), {}, t('adminDone'), 'accounts'))))), 'accounts'));
    } catch (e) { this.fail('accounts', e); }
  }

  private async reports() {
    try {
      const r = await call<{ reports: Report[] }>('GET', `/api/v1/admin/reports?state=${this.reportState}`);
      clear(this.sections.reports, table(t('adminReports'), [t('adminWhen'), t('adminReporter'), t('adminTarget'), t('adminReportReason'), t('adminState'), t('adminAction')],
        r.reports.map((x) => h('tr', { 'data-report': String(x.id), 'data-state': x.state },
          h('td', dateTime(new Date(x.at))), h('td', x.reporter),
          h('td', h('a', { href: x.kind === 'game' ? `#/game/${encodeURIComponent(x.target)}` : `#/player/${encodeURIComponent(x.target)}` }, x.target)),
          h('td', x.reason),
          h('td', x.state === 'resolved' ? `${t('adminReportsResolved')} (${t('adminResolvedBy', { name: x.resolved_by ?? '' })})` : t('adminReportsOpen')),
          h('td', x.state === 'open'
            ? btn(t('adminResolve'), 'resolve', () => void this.act(`/api/v1/admin/reports/${x.id}`, { state: 'resolved' }, t('adminDone'), 'reports'))
            : btn(t('adminReopen'), 'reopen', () => void this.act(`/api/v1/admin/reports/${x.id}`, { state: 'open' }, t('adminDone'), 'reports'))))), 'reports'));
    } catch (e) { this.fail('reports', e); }
  }

  private async events() {
    try {
      const r = await call<{ events: EventRow[] }>('GET', '/api/v1/events');
      clear(this.sections.events, table(t('adminEvents'), [t('adminName'), t('adminStatus'), t('adminAction')],
        r.events.map((e) => h('tr', { 'data-event': String(e.id) },
          h('th', { scope: 'row' }, h('a', { href: `#/event/${e.id}` }, e.name)), h('td', t(`evStatus_${e.status}` as Key)),
          h('td', e.status === 'registration' || e.status === 'running'
            ? btn(t('adminClose'), 'close-event', () => void this.act(`/api/v1/admin/events/${e.id}/close`, {}, t('adminClosed'), 'events')) : ''))), 'events'));
    } catch (e) { this.fail('events', e); }
  }

  private async simuls() {
    try {
      const r = await call<{ simuls: SimulRow[] }>('GET', '/api/v1/simuls');
      clear(this.sections.simuls, table(t('adminSimuls'), [t('adminName'), t('adminStatus'), t('adminAction')],
        r.simuls.map((s) => h('tr', { 'data-simul': s.id },
          h('th', { scope: 'row' }, h('a', { href: `#/simul/${encodeURIComponent(s.id)}` }, s.name)), h('td', t(`simul_${s.status}` as 'simul_open')),
          h('td', s.status === 'open'
            ? btn(t('adminClose'), 'close-simul', () => void this.act(`/api/v1/admin/simuls/${encodeURIComponent(s.id)}/close`, {}, t('adminClosed'), 'simuls')) : ''))), 'simuls'));
    } catch (e) { this.fail('simuls', e); }
  }

  private async audit() {
    try {
      const r = await call<{ entries: AuditEntry[] }>('GET', '/api/v1/admin/audit?limit=100');
      clear(this.sections.audit, table(t('adminAudit'), [t('adminWhen'), t('adminWho'), t('adminAction'), t('adminTarget'), t('adminBefore'), t('adminAfter')],
        r.entries.map((x) => h('tr', { 'data-audit': x.action },
          h('td', dateTime(new Date(x.at))), h('td', x.admin), h('td', hasKey(`auditAct_${x.action}`) ? t(`auditAct_${x.action}` as Key) : x.action), h('td', x.target),
          h('td', h('code', x.before)), h('td', h('code', x.after)))), 'audit'));
    } catch (e) { this.fail('audit', e); }
  }
}
