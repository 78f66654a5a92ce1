// The first screen (P1): a board at once, a big Play button, and the new-game
// options beside it (P2, P3, C4, P13), remembered between visits.
import { account } from './account';
import { createGame, fetchLevels } from './api';
import { Board } from './board';
import { clear, h, toast } from './dom';
import { errorText, num, t, type Key } from './i18n';
import { ApiError } from './api';
import { PRESETS, classify, customTc, type TimeClass } from './timecontrol';
import { saveInvite, saveSeat } from './store';
import type { Level, NewGameRequest } from './types';
import { recentGames } from './games';
import { looksLikeFen, previewFen } from './preview';
import { setSetting, settings } from './settings';

interface Choices {
  opponent: 'robot' | 'hotseat' | 'invite';
  color: 'white' | 'black' | 'random';
  level: number;
  elo: string;        // custom Elo, '' for none
  tc: string;         // a preset, or 'custom'
  minutes: number; increment: number; mode: '' | 'd' | 'b'; periods: string;
  variant: 'standard' | 'chess960';
  chess960: string;
  start: string;      // FEN or PGN
  casual: boolean;
  touchMove: boolean; // R15 training: a piece picked up must be moved (enforced by the game screen)
  name: string;
  opponentName: string; // same device: Black's name (`name` is White's)
  adjournment: boolean; // R18/P19: a move may be sealed and the game adjourned
  robotInstant: boolean; // the robot moves as soon as it has found its move
}

const KEY = 'outpost.newgame';
const defaults: Choices = {
  opponent: 'robot', color: 'random', level: 3, elo: '', tc: '10+0', minutes: 10, increment: 0, mode: '',
  periods: '', variant: 'standard', chess960: '', start: '', casual: true, touchMove: false, name: '', opponentName: '', adjournment: false,
  robotInstant: false,
};

function loadChoices(): Choices {
  try { return { ...defaults, ...JSON.parse(localStorage.getItem(KEY) ?? '{}') }; } catch { return { ...defaults }; }
}
function saveChoices(c: Choices) {
  try { localStorage.setItem(KEY, JSON.stringify(c)); } catch { /* ignore */ }
}

let levelsCache: Level[] | null = null;
// The custom Elo range: from /api/v1/levels (src/engine/skill.h ELO_MIN/ELO_MAX), else these.
let eloRange = { min: 400, max: 2850 };

// A level's tooltip, in words of the UI language (the server's `label` is English).
function levelTitle(l: Level): string {
  return l.measured && l.error !== undefined && l.games !== undefined
    ? t('levelMeasured', { level: l.level, elo: l.elo, error: l.error, games: l.games })
    : t('levelEstimated', { level: l.level, elo: l.elo });
}

// A preset's button text: correspondence presets ("3d") in words of the UI language.
function presetLabel(tc: string): string {
  const days = /^(\d+)d$/.exec(tc);
  if (days) return t('daysN', { n: Number(days[1]) });
  return PRESETS.find((p) => p.tc === tc)?.label ?? tc;
}

export function timeControlOf(c: Choices): string {
  return c.tc === 'custom' ? customTc(c) : c.tc;
}

// A selector that finds an element of the panel again after a redraw.
function focusSelector(el: HTMLElement): string | null {
  const field = el.closest('[data-field]')?.getAttribute('data-field');
  const value = el.getAttribute('data-value');
  if (field && value !== null) return `[data-field="${field}"] [data-value="${value}"]`;
  const custom = el.getAttribute('data-custom');
  if (custom) return `[data-custom="${custom}"]`;
  const own = el.getAttribute('data-field');
  return own ? `[data-field="${own}"]:not(fieldset)` : null;
}

export class HomeView {
  private board: Board;
  private c = loadChoices();
  private panel: HTMLElement;
  private levels: Level[] = levelsCache ?? [];
  private drawnShape = '';
  private moreOpen = this.c.variant !== 'standard' || !!this.c.start || this.c.touchMove; // the fold stays as the player left it

  constructor(mount: HTMLElement) {
    const boardEl = h('div.board', { 'aria-label': t('board') });
    this.panel = h('div.newgame');
    const playBtn = h('button.play-big', { type: 'button', 'data-action': 'play', onclick: () => this.start(playBtn) }, t('play'));
    clear(mount, h('main.home-screen',
      h('section.board-col', h('div.board-wrap', boardEl)),
      h('aside.side.home-side',
        h('h1.tagline', t('tagline')), // the page's heading (axe: a page has an h1)
        // Screen-reader mode (P16) where a blind player lands first, as well as in Settings.
        h('button.sr-toggle', { type: 'button', 'data-action': 'screen-reader', 'aria-pressed': String(settings.screenReader),
          onclick: (e: Event) => {
            setSetting('screenReader', !settings.screenReader);
            (e.currentTarget as HTMLElement).setAttribute('aria-pressed', String(settings.screenReader));
          } }, t('srMode')),
        playBtn,
        h('a.home-puzzles', { href: '#/puzzles', 'data-action': 'puzzles' }, t('pzHomeLink')),
        this.panel,
        h('div.recent', { id: 'recent' }))));
    this.board = new Board(boardEl, { viewOnly: true, coordinates: true });
    this.render();
    if (!levelsCache) {
      fetchLevels().then((r) => {
        levelsCache = r.levels; this.levels = r.levels;
        if (r.eloMin !== undefined && r.eloMax !== undefined && r.eloMin <= r.eloMax) eloRange = { min: r.eloMin, max: r.eloMax };
        this.render();
      }).catch(() => { /* levels without Elo */ });
    }
    recentGames(document.getElementById('recent')!, 5);
  }

  destroy() { this.board.destroy(); }

  // A choice made: the panel is redrawn only when its shape changes (another
  // opponent, the custom time fields, a variant); otherwise the elements stay and are
  // brought up to date in place, so that a field being typed in, the next click and
  // Tab are never lost to a redraw.
  private set<K extends keyof Choices>(k: K, v: Choices[K]) {
    this.c[k] = v;
    saveChoices(this.c);
    if (this.shape() !== this.drawnShape) this.render();
    else this.sync();
  }

  private shape(): string {
    const c = this.c;
    return [c.opponent, c.tc === 'custom', c.variant, classify(timeControlOf(c)) === 'correspondence', this.levels.length, !!account()].join('|');
  }

  // Brings the drawn panel up to the choices: pressed buttons, the time class, the
  // custom time control's text, the days, the board's preview.
  private sync() {
    const c = this.c;
    for (const b of this.panel.querySelectorAll<HTMLElement>('[data-field] button[data-value]')) {
      const field = b.closest('[data-field]')?.getAttribute('data-field') ?? '';
      const v = b.dataset.value ?? '';
      const pressed = field === 'level' ? !c.elo && String(c.level) === v
        : field in c ? String(c[field as keyof Choices]) === v : b.getAttribute('aria-pressed') === 'true';
      b.setAttribute('aria-pressed', String(pressed));
    }
    const tc = timeControlOf(c);
    const cls = classify(tc);
    const clsEl = this.panel.querySelector<HTMLElement>('.tc-class');
    if (clsEl) { clsEl.dataset.class = cls ?? 'invalid'; clsEl.textContent = cls ? t(`class_${cls}`) : t('invalidTc'); }
    const pre = this.panel.querySelector<HTMLElement>('.tc-preview');
    if (pre) pre.textContent = tc;
    const days = this.panel.querySelector<HTMLSelectElement>('select.days');
    if (days) days.value = /^(\d+)d$/.exec(c.tc)?.[1] ?? '';
    const elo = this.panel.querySelector<HTMLInputElement>('input.elo-input');
    if (elo && document.activeElement !== elo && elo.value !== c.elo) elo.value = c.elo;
    this.preview();
  }

  private seg<K extends keyof Choices>(label: string, key: K, options: Array<[Choices[K], string]>) {
    return h('fieldset.seg', { 'data-field': String(key) },
      h('legend', label),
      h('div.seg-buttons', options.map(([v, text]) => h('button', {
        type: 'button', 'aria-pressed': String(this.c[key] === v), 'data-value': String(v),
        onclick: () => this.set(key, v),
      }, text))));
  }

  private render() {
    const c = this.c;
    const parts: HTMLElement[] = [];
    parts.push(this.seg(t('opponent'), 'opponent', [['robot', t('opp_robot')], ['hotseat', t('opp_hotseat')], ['invite', t('opp_invite')]]));
    if (c.opponent !== 'hotseat') parts.push(this.seg(t('color'), 'color', [['white', t('white')], ['random', t('random')], ['black', t('black')]]));
    else parts.push(this.sameDevice());
    if (c.opponent === 'robot') {
      const levelNums = this.levels.length ? this.levels.map((l) => l.level) : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
      parts.push(h('fieldset.levels', { 'data-field': 'level' },
        h('legend', t('level')),
        h('div.level-grid', levelNums.map((n) => {
          const info = this.levels.find((l) => l.level === n);
          return h('button.level', {
            type: 'button', 'aria-pressed': String(!c.elo && c.level === n), 'data-value': String(n),
            title: info ? levelTitle(info) : '',
            onclick: () => { this.c.elo = ''; this.set('level', n); },
          }, // the name in words for screen readers; the digits for the eye (an aria-label would hide them from voice control)
          h('span.sr-only', `${t('levelN', { level: n })}${info?.elo ? ', ' + t('approxElo', { elo: info.elo }) : ''}`),
          h('span.n', { 'aria-hidden': 'true' }, num(n)), info?.elo ? h('span.elo', { 'aria-hidden': 'true' }, info.measured ? num(info.elo) : `~${num(info.elo)}?`) : null);
        })),
        h('label.inline', t('customElo'), h('input.elo-input', {
          type: 'number', min: String(eloRange.min), max: String(eloRange.max), step: '50', value: c.elo, placeholder: '1500', title: t('customEloHint', { min: eloRange.min, max: eloRange.max }),
          'data-field': 'elo', oninput: (e: Event) => { const el = e.target as HTMLInputElement; el.removeAttribute('aria-invalid'); this.set('elo', el.value); },
        }))));
    }
    // Time control presets, grouped by their C4 class.
    const groups = new Map<TimeClass, string[]>();
    for (const p of PRESETS) {
      const cls = classify(p.tc)!;
      groups.set(cls, [...(groups.get(cls) ?? []), p.tc]);
    }
    const tc = timeControlOf(c);
    const cls = classify(tc);
    parts.push(h('fieldset.tcs', { 'data-field': 'tc' },
      h('legend', t('timeControl'), ' ', h('span.tc-class', { 'data-class': cls ?? 'invalid' }, cls ? t(`class_${cls}`) : t('invalidTc'))),
      h('div.tc-groups', [...groups].map(([gcls, tcs]) => h('div.tc-row',
        h('span.tc-label', t(`class_${gcls}` as Key)),
        h('div.tc-buttons', tcs.map((v) => h('button.tc', {
          type: 'button', 'aria-pressed': String(c.tc === v), 'data-value': v,
          'aria-label': `${presetLabel(v)}, ${t(`class_${gcls}` as Key)}`, title: v,
          onclick: () => this.set('tc', v),
        }, presetLabel(v))),
        gcls === 'unlimited' ? h('button.tc', { type: 'button', 'aria-pressed': String(c.tc === 'custom'), 'data-value': 'custom',
          onclick: () => this.set('tc', 'custom') }, t('custom')) : null,
        gcls === 'correspondence' ? this.daysSelect(c) : null)))),
      c.tc === 'custom' ? h('div.custom-tc',
        h('label', t('minutes'), h('input', { type: 'number', min: '0', max: '600', step: '0.5', value: String(c.minutes), 'data-custom': 'minutes',
          oninput: (e: Event) => this.set('minutes', Number((e.target as HTMLInputElement).value)) })),
        h('label', t('increment'), h('input', { type: 'number', min: '0', max: '180', value: String(c.increment), 'data-custom': 'increment',
          oninput: (e: Event) => this.set('increment', Number((e.target as HTMLInputElement).value)) })),
        h('label', t('incrementMode'), (() => {
          const sel = h('select', { 'data-custom': 'mode', onchange: (e: Event) => this.set('mode', (e.target as HTMLSelectElement).value as Choices['mode']) },
            h('option', { value: '' }, t('mode_fischer')), h('option', { value: 'd' }, t('mode_delay')), h('option', { value: 'b' }, t('mode_bronstein'))) as HTMLSelectElement;
          sel.value = c.mode;
          return sel;
        })()),
        h('label.wide', t('periods'), h('input', { type: 'text', value: c.periods, placeholder: t('periodsHint'), 'data-custom': 'periods',
          oninput: (e: Event) => this.set('periods', (e.target as HTMLInputElement).value) })),
        h('div.tc-preview', tc)) : null));
    // Less common choices, folded.
    const more = h('details.more', { open: this.moreOpen || undefined },
      h('summary', t('moreOptions')),
      this.seg(t('variant'), 'variant', [['standard', t('standard')], ['chess960', t('chess960')]]),
      c.variant === 'chess960' ? h('label.block', t('chess960Number'), h('input', {
        type: 'number', min: '0', max: '959', value: c.chess960, 'data-field': 'chess960',
        oninput: (e: Event) => this.set('chess960', (e.target as HTMLInputElement).value),
      })) : null,
      h('label.block', t('startPosition'), h('textarea', {
        rows: '2', placeholder: t('startPositionHint'), 'data-field': 'start', value: c.start,
        oninput: (e: Event) => this.set('start', (e.target as HTMLTextAreaElement).value),
      })),
      h('label.check', h('input', { type: 'checkbox', checked: c.casual, 'data-field': 'casual',
        onchange: (e: Event) => this.set('casual', (e.target as HTMLInputElement).checked) }),
        h('span', t('casual'), h('small', ` — ${t('casualHint')}`))),
      cls !== 'correspondence' ? h('label.check', h('input', { type: 'checkbox', checked: c.adjournment, 'data-field': 'adjournment',
        onchange: (e: Event) => this.set('adjournment', (e.target as HTMLInputElement).checked) }),
        h('span', t('adjournOption'), h('small', ` — ${t('adjournOptionHint')}`))) : null,
      c.opponent === 'robot' ? h('label.check', h('input', { type: 'checkbox', checked: c.robotInstant, 'data-field': 'robotInstant',
        onchange: (e: Event) => this.set('robotInstant', (e.target as HTMLInputElement).checked) }),
        h('span', t('robotInstant'), h('small', ` — ${t('robotInstantHint')}`))) : null,
      h('label.check', h('input', { type: 'checkbox', checked: c.touchMove, 'data-field': 'touchMove',
        onchange: (e: Event) => this.set('touchMove', (e.target as HTMLInputElement).checked) }),
        h('span', t('touchMove'), h('small', ` — ${t('touchMoveHint')}`))),
      c.opponent !== 'hotseat' && !account() ? this.nameInput(t('yourName'), 'name') : null);
    more.addEventListener('toggle', () => { this.moreOpen = (more as HTMLDetailsElement).open; });
    parts.push(more);
    // The element with the focus is found again in the new panel (by its field and value).
    const focused = document.activeElement as HTMLElement | null;
    const where = focused && this.panel.contains(focused) ? focusSelector(focused) : null;
    clear(this.panel, parts);
    this.drawnShape = this.shape();
    if (where) {
      const again = this.panel.querySelector<HTMLElement>(where);
      again?.focus();
      // The caret stays where it was in a text field.
      if (focused instanceof HTMLInputElement && again instanceof HTMLInputElement && focused.type === 'text' && again.type === 'text') {
        again.setSelectionRange(focused.selectionStart, focused.selectionEnd);
      }
    }
    this.preview();
  }

  // The home board shows where the game would start: a pasted FEN or PGN, or the
  // chosen Chess960 position (P13, R16); from Black's side when Black is chosen.
  private preview() {
    const c = this.c;
    this.board.set({
      fen: previewFen(c.start, c.variant, c.chess960),
      orientation: c.opponent !== 'hotseat' && c.color === 'black' ? 'black' : 'white',
      lastMove: undefined,
    });
  }

  // C3: days per move, 1 to 14, beside the correspondence presets.
  private daysSelect(c: Choices) {
    const days = /^(\d+)d$/.exec(c.tc);
    const sel = h('select.days', { 'data-field': 'days', 'aria-label': t('daysPerMove'), title: t('daysPerMove'),
      onchange: (e: Event) => this.set('tc', `${(e.target as HTMLSelectElement).value}d`) },
      h('option', { value: '', disabled: true }, t('daysPerMove')),
      Array.from({ length: 14 }, (_, i) => h('option', { value: String(i + 1) }, t('daysN', { n: i + 1 })))) as HTMLSelectElement;
    sel.value = days ? days[1] : '';
    return sel;
  }

  private nameInput(label: string, key: 'name' | 'opponentName') {
    return h('label.block', label, h('input', { type: 'text', maxlength: '40', value: this.c[key], 'data-field': key,
      oninput: (e: Event) => this.set(key, (e.target as HTMLInputElement).value) }));
  }

  // Same device: both players' names, and the board turning to the side to move
  // (the setting of the same name, offered where such a game is set up).
  private sameDevice() {
    return h('fieldset.same-device', { 'data-field': 'same-device' },
      h('legend', t('opp_hotseat')),
      this.nameInput(t('whiteName'), 'name'),
      this.nameInput(t('blackName'), 'opponentName'),
      h('label.check', h('input', { type: 'checkbox', checked: settings.autoFlip, 'data-field': 'autoFlip',
        onchange: (e: Event) => setSetting('autoFlip', (e.target as HTMLInputElement).checked) }),
      h('span', t('autoFlipSetup'))));
  }

  private request(): NewGameRequest | null {
    const c = this.c;
    const tc = timeControlOf(c);
    if (!classify(tc)) { toast(t('invalidTc')); return null; }
    const req: NewGameRequest = { v: 1, opponent: c.opponent, color: c.opponent === 'hotseat' ? 'white' : c.color, time_control: tc, variant: c.variant, casual: c.casual };
    if (c.opponent === 'robot') {
      const text = c.elo.trim();
      const elo = Number(text);
      if (!text) req.level = c.level;
      else if (Number.isInteger(elo) && elo >= eloRange.min && elo <= eloRange.max) req.elo = elo;
      else {
        // Said, not quietly replaced by the level.
        const input = this.panel.querySelector<HTMLInputElement>('input.elo-input');
        input?.setAttribute('aria-invalid', 'true');
        input?.focus();
        toast(t('eloOutOfRange', { min: eloRange.min, max: eloRange.max }));
        return null;
      }
    }
    if (c.variant === 'chess960' && c.chess960 !== '') {
      const n = parseInt(c.chess960, 10);
      if (n >= 0 && n <= 959) req.chess960 = n;
    }
    const start = c.start.trim();
    if (start) {
      // A FEN has a placement of eight ranks; anything else is taken for a PGN.
      if (looksLikeFen(start)) req.fen = start; else req.pgn = start;
    }
    if (c.name.trim()) req.name = c.name.trim();
    if (c.adjournment && classify(tc) !== 'correspondence') req.adjournment = true;
    if (c.opponent === 'robot' && c.robotInstant) req.robot_instant = true;
    // Same device: an empty Black name is Black's own "Anonymous" (the server would
    // otherwise give Black White's name).
    if (c.opponent === 'hotseat') req.opponent_name = c.opponentName.trim() || (req.name ? 'Anonymous' : undefined);
    return req;
  }

  private async start(btn: HTMLElement) {
    const req = this.request();
    if (!req) return;
    btn.setAttribute('disabled', '');
    btn.textContent = t('starting');
    try {
      const r = await createGame(req);
      const mine = r.you === 'both' ? (r.seats.white ?? r.seats.black)! : r.seats[r.you]!;
      saveSeat({ game: r.game, token: mine, color: r.you, created: Date.now(), opponent: req.opponent, ...(this.c.touchMove ? { touchMove: true } : {}) });
      if (req.opponent === 'invite' && r.you !== 'both') {
        const other = r.seats[r.you === 'white' ? 'black' : 'white'];
        if (other) saveInvite(r.game, other);
      }
      location.hash = `#/game/${r.game}?seat=${encodeURIComponent(mine)}`;
    } catch (e) {
      toast(e instanceof ApiError ? errorText(e.code, e.message) : t('err_http'));
      btn.removeAttribute('disabled');
      btn.textContent = t('play');
    }
  }
}
