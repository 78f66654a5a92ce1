// A player's profile (P21): results per time-control class and the games, with
// filters (result, time control, colour). GET /api/v1/players/NAME and …/games.
// The ratings (P23): per rating class (provisional ones marked "1500?") and the
// rating-history chart (uPlot, loaded with the chart when there is a history).
// GET /api/v1/players/NAME/ratings.
import { ApiError } from './api';
import { clear, h } from './dom';
import { dateTime, errorText, playerName, t } from './i18n';
import { fullMoves } from './games';
import type { Key } from './i18n/en';
import { ratingText } from './lobby';
import type { RatingPoint } from './ratingchart';
import { reportBox } from './report';
import { account } from './account';
import { puzzleHistorySection } from './puzzles/history';

interface ClassResults { games: number; wins: number; draws: number; losses: number }
interface Profile {
  player: { name: string; created_ms: number; disabled: boolean };
  results: Record<string, ClassResults>;
  finished: number;
  games: number;
  ratings: Record<string, ClassRating> | null;
}
interface ClassRating { rating: number; rd: number; provisional: boolean; games: number; last: number | null }
interface Ratings { ratings: Record<string, ClassRating>; history: RatingPoint[] }
const RATING_CLASSES = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'chess960'] as const;
interface PlayerGame {
  id: string; white: string; black: string; color: 'white' | 'black'; opponent: string; status: string; result: string;
  outcome: 'win' | 'draw' | 'loss' | 'none'; time_control: string; class: string; updated: number; plies: number;
}

const CLASSES = ['bullet', 'blitz', 'rapid', 'standard', 'correspondence', 'unlimited'] as const;
const PAGE = 50;

async function get<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin' });
  let body: { code?: string; message?: string };
  try { body = await res.json(); } catch { throw new ApiError('bad_response', `${res.status}`); }
  if (!res.ok) throw new ApiError(body.code ?? 'http', body.message ?? `${res.status}`);
  return body as T;
}

function select(label: string, name: string, options: Array<[string, string]>, onchange: () => void) {
  const id = `profile-${name}`;
  return h('label.block', { for: id }, label,
    h('select', { id, name, onchange }, options.map(([value, text]) => h('option', { value }, text))));
}

function outcomeText(g: PlayerGame): string {
  return g.outcome === 'win' ? t('profileWon') : g.outcome === 'draw' ? t('profileDrawn')
    : g.outcome === 'loss' ? t('profileLost') : g.status === 'ongoing' ? t('profileOngoing') : g.result;
}

function gameRow(g: PlayerGame): HTMLElement {
  const href = `#/game/${encodeURIComponent(g.id)}`;
  return h('li.game-row', { 'data-game': g.id, 'data-outcome': g.outcome },
    h('a.game-link', { href },
      h('span.players', `${playerName(g.white)} ${t('vs')} ${playerName(g.black)}`),
      h('span.game-meta', [t(`class_${g.class}` as Key), g.time_control === '-' ? '' : g.time_control, g.plies >= 0 ? t('movesN', { n: fullMoves(g.plies) }) : '',
        dateTime(new Date(g.updated))].filter(Boolean).join(' · ')),
      h('span.result', outcomeText(g))));
}

function resultsTable(p: Profile): HTMLElement | null {
  const rows = CLASSES.filter((c) => p.results[c]);
  if (!rows.length) return null;
  return h('table.profile-results',
    h('caption', t('profileResults')),
    h('thead', h('tr', h('th', { scope: 'col' }, t('profileFilterClass')), h('th', { scope: 'col' }, t('profileGames')),
      h('th', { scope: 'col' }, t('profileWins')), h('th', { scope: 'col' }, t('profileDraws')), h('th', { scope: 'col' }, t('profileLosses')))),
    h('tbody', rows.map((c) => {
      const r = p.results[c];
      return h('tr', { 'data-class': c }, h('th', { scope: 'row' }, t(`class_${c}` as Key)), h('td', String(r.games)), h('td', String(r.wins)), h('td', String(r.draws)), h('td', String(r.losses)));
    })));
}

// The ratings section: a table of the classes played rated (each with its games), and
// the chart of the history.
function fillRatings(section: HTMLElement, r: Ratings) {
  const played = RATING_CLASSES.filter((c) => r.ratings[c]?.games);
  if (!played.length) {
    section.append(h('p.muted', { 'data-ratings': 'none' }, t('profileNoRatedGames')));
    return;
  }
  section.append(h('table.profile-rating-table',
    h('thead', h('tr', h('th', { scope: 'col' }, t('profileFilterClass')), h('th', { scope: 'col' }, t('profileRating')),
      h('th', { scope: 'col' }, t('profileGames')))),
    h('tbody', played.map((c) => {
      const x = r.ratings[c];
      return h('tr', { 'data-class': c, 'data-rating': String(x.rating), 'data-provisional': String(x.provisional) },
        h('th', { scope: 'row' }, t(`class_${c}` as Key)),
        h('td', x.provisional ? { title: t('profileProvisional') } : {}, ratingText(x.rating, x.provisional)),
        h('td', String(x.games)));
    }))));
  if (!r.history.length) return;
  const chart = h('figure.rating-chart', { 'data-chart': 'ratings', 'aria-label': t('profileRatingChart') },
    h('figcaption', t('profileRatingChart')));
  section.append(chart);
  void import('./ratingchart').then(({ ratingChart }) => { ratingChart(chart, r.history); chart.dataset.drawn = 'true'; });
}

export function profileView(mount: HTMLElement, name: string) {
  const page = h('main.page.profile-page', h('p', t('loading')));
  clear(mount, page);
  const path = `/api/v1/players/${encodeURIComponent(name)}`;
  get<Profile>(path).then((p) => {
    const list = h('ul.game-list', { 'aria-live': 'polite' });
    const more = h('button.small-btn', { type: 'button', hidden: true }, t('profileMore'));
    let offset = 0;
    const filters = h('form.profile-filters', { 'aria-label': t('profileGames'), onsubmit: (e: Event) => e.preventDefault() });
    const load = async (append: boolean) => {
      const q = new URLSearchParams(new FormData(filters as HTMLFormElement) as unknown as Record<string, string>);
      for (const [k, v] of [...q.entries()]) if (!v) q.delete(k);
      if (!append) offset = 0;
      q.set('limit', String(PAGE));
      q.set('offset', String(offset));
      try {
        const r = await get<{ games: PlayerGame[]; total: number }>(`${path}/games?${q}`);
        offset += r.games.length;
        const rows = r.games.map(gameRow);
        if (append) list.append(...rows);
        else clear(list, rows.length ? rows : h('li.empty', t('profileNoGames')));
        more.hidden = offset >= r.total;
      } catch (e) {
        clear(list, h('li.empty', e instanceof ApiError ? errorText(e.code, e.message) : t('err_http')));
      }
    };
    more.onclick = () => void load(true);
    const change = () => void load(false);
    clear(filters,
      select(t('profileFilterResult'), 'result', [['', t('profileAll')], ['win', t('profileWon')], ['draw', t('profileDrawn')], ['loss', t('profileLost')], ['none', t('profileOngoing')]], change),
      select(t('profileFilterClass'), 'class', [['', t('profileAll')], ...CLASSES.map((c): [string, string] => [c, t(`class_${c}` as Key)])], change),
      select(t('profileFilterColor'), 'color', [['', t('profileAll')], ['white', t('white')], ['black', t('black')]], change));
    // The ratings (P23): shown when the server sends them; the section is the place
    // for the current ratings and the rating-history chart.
    const ratings = h('section.profile-ratings', { 'aria-labelledby': 'profile-ratings-title', hidden: p.ratings == null },
      h('h2', { id: 'profile-ratings-title' }, t('profileRatings')));
    if (p.ratings) get<Ratings>(`${path}/ratings`).then((r) => fillRatings(ratings, r)).catch(() => { ratings.hidden = true; });
    clear(page,
      h('h1', t('profileTitle', { name: p.player.name })),
      h('p.muted', t('profileSince', { date: dateTime(new Date(p.player.created_ms)) })),
      ratings,
      resultsTable(p),
      account()?.name.toLowerCase() === p.player.name.toLowerCase() ? puzzleHistorySection() : null,
      h('section', { 'aria-labelledby': 'profile-games-title' },
        h('h2', { id: 'profile-games-title' }, t('profileGames')), filters, list, more),
      reportBox('player', p.player.name));
    void load(false);
  }).catch((e) => {
    clear(page, h('h1', playerName(name)), h('p', e instanceof ApiError && e.code === 'not_found' ? t('profileNotFound') : t('err_http')));
  });
}
