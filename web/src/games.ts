// P11: the games this browser holds seats in, asked of the server by their seat
// tokens; each can be continued or replayed, and downloaded as PGN.
import { lookupGames, pgnUrl } from './api';
import { clear, h } from './dom';
import { t, endText, dateTime, errorText, playerName } from './i18n';
import { ApiError } from './api';
import { savedSeats } from './store';
import type { GameState, GameSummary } from './types';
import { formatMs } from './clockview';

// C3: a game waiting for this browser's move (not adjourned).
export function yourTurn(g: GameSummary): boolean {
  return g.status === 'ongoing' && !g.adjourned && !!g.turn && (g.you === g.turn || g.you === 'both');
}

// "Your turn" games first, the nearest deadline first among them; then the others,
// most recently changed first.
export function byTurnThenRecent(a: GameSummary, b: GameSummary): number {
  const ta = yourTurn(a), tb = yourTurn(b);
  if (ta !== tb) return ta ? -1 : 1;
  if (ta && (a.deadline ?? 0) > 0 && (b.deadline ?? 0) > 0 && a.deadline !== b.deadline) return a.deadline! - b.deadline!;
  return String(b.updated).localeCompare(String(a.updated), undefined, { numeric: true });
}

// The number of plies of a summary: `plies` (the server's `moves` holds the same
// number; -1: not known). Null: not known.
export function pliesOf(g: { moves?: number; plies?: number }): number | null {
  const n = g.plies ?? g.moves;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null;
}

// Moves as players count them: a move is White's and Black's (fool's mate: 2 moves).
export const fullMoves = (plies: number) => Math.ceil(plies / 2);

export function movesOf(g: GameSummary): number | null {
  const n = pliesOf(g);
  return n === null ? null : fullMoves(n);
}

// The end of a summarised game in words: the summary has the status and the result.
function endOf(g: GameSummary): string {
  const winner = g.result === '1-0' ? 'white' : g.result === '0-1' ? 'black' : null;
  // A forfeit after both first moves is an abandonment (the server's words for it).
  const left = g.status === 'forfeit' && (pliesOf(g) ?? 0) >= 2;
  const ending: Pick<GameState, 'status' | 'winner' | 'end'> = { status: g.status, winner, end: left ? 'left the game' : '' };
  return endText(ending as GameState); // endText reads only these three fields
}

function row(g: GameSummary, token: string | undefined): HTMLElement {
  const over = g.status !== 'ongoing';
  const href = `#/game/${g.id}${token ? `?seat=${encodeURIComponent(token)}` : ''}`;
  const when = typeof g.updated === 'number' ? new Date(g.updated < 1e12 ? g.updated * 1000 : g.updated) : new Date(g.updated);
  const n = movesOf(g);
  const mine = yourTurn(g);
  const left = !over && (g.deadline ?? 0) > 0 ? formatMs(g.deadline! - Date.now(), /^\d+d/.test(g.time_control ?? '')) : '';
  return h('li.game-row', { 'data-game': g.id, 'data-your-turn': String(mine) },
    h('a.game-link', { href },
      h('span.players', `${playerName(g.white)} ${t('vs')} ${playerName(g.black)}`),
      h('span.game-meta', [over ? endOf(g) : mine ? t('yourTurn') : g.adjourned ? t('adjourned') : t('ongoing'), left,
        n === null ? '' : t('movesN', { n }),
        isNaN(when.getTime()) ? '' : dateTime(when)].filter(Boolean).join(' · ')),
      h('span.result', over ? g.result.replace(/1\/2/g, '½') : '●')),
    h('span.game-actions',
      h('a.small-btn', { href }, over ? t('replay') : t('continueGame')),
      over && (pliesOf(g) ?? 1) > 0 ? h('a.small-btn', { href: `${href}${token ? '&' : '?'}analyse=1`, 'data-action': 'analyse' }, t('analyse')) : null,
      h('a.small-btn', { href: pgnUrl(g.id), download: `outpost-${g.id}.pgn`, 'data-action': 'pgn' }, 'PGN')));
}

async function load(): Promise<Array<[GameSummary, string | undefined]>> {
  const seats = savedSeats();
  const games = await lookupGames([...new Set(seats.map((s) => s.token))]);
  return games.map((g) => [g, seats.find((s) => s.game === g.id)?.token]);
}

export async function recentGames(el: HTMLElement, limit: number) {
  if (!savedSeats().length) return;
  try {
    const list = (await load()).sort((a, b) => byTurnThenRecent(a[0], b[0])).slice(0, limit);
    if (!list.length) return;
    clear(el, h('h2', h('a', { href: '#/games' }, t('myGames'))), h('ul.game-list', list.map(([g, tok]) => row(g, tok))));
  } catch { /* the list is a convenience: stay quiet */ }
}

export function gamesView(mount: HTMLElement) {
  const list = h('ul.game-list');
  clear(mount, h('main.page', h('h1', t('myGames')), list));
  clear(list, h('li.empty', t('loading')));
  load().then((items) => {
    items.sort((a, b) => byTurnThenRecent(a[0], b[0]));
    clear(list, items.length ? items.map(([g, tok]) => row(g, tok)) : h('li.empty', t('noGames')));
  }).catch((e) => clear(list, h('li.empty', e instanceof ApiError ? errorText(e.code, e.message) : t('err_http'))));
}
