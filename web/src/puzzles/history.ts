// The puzzle rating and the last attempts (issue 29), on one's own profile page:
// GET /api/v1/puzzles/history (the server answers the signed-in account only).
import { clear, h } from '../dom';
import { dateTime, num, t } from '../i18n';
import { fetchHistory } from './api';

export function puzzleHistorySection(): HTMLElement {
  const list = h('ol.puzzle-history', { 'data-puzzle': 'history' });
  const rating = h('p.puzzle-rating');
  const section = h('section.profile-puzzles', { 'aria-labelledby': 'profile-puzzles-title' },
    h('h2', { id: 'profile-puzzles-title' }, t('pzHistory')), rating, list);
  fetchHistory().then((r) => {
    rating.textContent = r.rating ? t('pzRating', { rating: `${num(r.rating.rating)}${r.rating.provisional ? '?' : ''}` }) : '';
    clear(list, r.history.length ? r.history.map((a) => {
      const diff = a.rating_after - a.rating_before;
      return h('li', { 'data-solved': String(a.solved) },
        h('a', { href: `#/puzzles/${encodeURIComponent(a.puzzle)}` }, a.puzzle), ' · ',
        a.solved ? t('pzHistorySolved') : t('pzHistoryFailed'), ' · ',
        a.rated ? `${num(a.rating_after)} (${diff > 0 ? '+' : diff < 0 ? '−' : ''}${num(Math.abs(diff))})` : t('pzHistoryUnrated'), ' · ',
        dateTime(new Date(a.at)));
    }) : h('li.empty', t('pzHistoryEmpty')));
  }).catch(() => { section.hidden = true; });
  return section;
}
