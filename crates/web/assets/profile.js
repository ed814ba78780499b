// A player's profile: ratings per category (`data-rating`, the number as text), the history of
// one category as an SVG graph (`data-rating-graph`), the win/draw/loss counts, and the games with
// filters and pages. On one's own profile, the password change and the account's deletion.

import { $, api, h, s, show } from './common.js';
import { act, adopt, refresh, signedIn } from './account.js';

const name = decodeURIComponent(location.pathname.replace(/^\/@\//, ''));
const state = { profile: null, page: 1, pages: 1 };
const CATEGORIES = ['bullet', 'blitz', 'rapid', 'classical'];

const date = (ms) => new Date(ms).toISOString().slice(0, 10);

function drawRatings(ratings) {
  $('[data-ratings]').replaceChildren(...CATEGORIES.map((category) => {
    const rating = ratings[category];
    return h('div', { class: 'rating-card' },
      h('h3', {}, category),
      h('div', { class: 'number' },
        h('span', { 'data-rating': category }, Math.round(rating.rating)),
        rating.provisional ? h('span', { class: 'provisional', title: 'provisional: too few games yet' }, '?') : null),
      h('div', { class: 'hint', title: 'rating deviation' }, `± ${Math.round(rating.deviation)} · ${rating.games} rated game${rating.games === 1 ? '' : 's'}`));
  }));
}

/** The rating after each rated game of `points`, as a line; the y axis fits the ratings. */
function drawGraph(points) {
  const svg = $('[data-rating-graph]');
  $('[data-graph-empty]').classList.toggle('hidden', points.length > 0);
  svg.classList.toggle('hidden', points.length === 0);
  if (points.length === 0) {
    svg.replaceChildren();
    return;
  }
  const [width, height, left, top, bottom] = [600, 220, 48, 14, 24];
  const ratings = [1500, ...points.map((p) => p.rating)];
  const low = Math.floor(Math.min(...ratings) / 50) * 50 - 50;
  const high = Math.ceil(Math.max(...ratings) / 50) * 50 + 50;
  const x = (i) => left + (i * (width - left - 10)) / Math.max(points.length, 1);
  const y = (rating) => top + ((high - rating) * (height - top - bottom)) / (high - low);
  // The line starts from the rating before the first game.
  const start = points[0].rating - points[0].change;
  const line = [[x(0), y(start)], ...points.map((p, i) => [x(i + 1), y(p.rating)])];
  svg.replaceChildren(
    s('line', { class: 'axis', x1: left, y1: top, x2: left, y2: height - bottom }),
    s('line', { class: 'axis', x1: left, y1: height - bottom, x2: width - 10, y2: height - bottom }),
    s('text', { x: 4, y: top + 10 }, high),
    s('text', { x: 4, y: height - bottom }, low),
    s('text', { x: left, y: height - 6 }, date(points[0].at)),
    s('text', { x: width - 80, y: height - 6 }, date(points.at(-1).at)),
    s('polyline', { class: 'line', points: line.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ') }),
    ...points.map((p, i) => s('circle', { class: 'dot', cx: x(i + 1).toFixed(1), cy: y(p.rating).toFixed(1), r: 3, 'data-point': Math.round(p.rating) },
      s('title', {}, `${Math.round(p.rating)} (${p.change >= 0 ? '+' : ''}${Math.round(p.change)}) ${date(p.at)}`))),
  );
}

function drawCounts(counts) {
  for (const key of ['win', 'draw', 'loss']) $(`[data-count="${key}"]`).textContent = counts[key];
}

async function loadProfile() {
  try {
    state.profile = await api(`/api/users/${encodeURIComponent(name)}`);
  } catch (error) {
    show($('[data-profile-error]'), error.status === 404 ? `No player is named ${name}.` : error.message);
    $('[data-profile]').classList.add('hidden');
    return false;
  }
  const profile = state.profile;
  document.title = `${profile.name} · arbiter`;
  $('[data-profile-name]').textContent = profile.name;
  $('[data-profile-since]').textContent = `Playing since ${date(profile.created_at)}.`;
  drawRatings(profile.ratings);
  drawCounts(profile.counts);
  // The graph shows the category played most, unless the reader chose.
  const most = CATEGORIES.reduce((best, c) => (profile.ratings[c].games > profile.ratings[best].games ? c : best), 'blitz');
  $('[data-graph-category]').value = most;
  drawGraph(profile.history[most]);
  return true;
}

function result(game) {
  if (game.status === 'ongoing') return 'ongoing';
  if (!game.result) return game.reason ?? 'over';
  return { win: 'won', draw: 'drawn', loss: 'lost' }[game.result];
}

async function loadGames() {
  const query = new URLSearchParams({ page: String(state.page) });
  for (const [key, selector] of [['result', '[data-filter-result]'], ['category', '[data-filter-category]'], ['opponent', '[data-filter-opponent]']]) {
    const value = $(selector).value.trim();
    if (value) query.set(key, value);
  }
  try {
    const reply = await api(`/api/users/${encodeURIComponent(name)}/games?${query}`);
    state.pages = reply.pages;
    $('[data-profile-games]').replaceChildren(...reply.games.map((game) => {
      const change = game.change === null
        ? ''
        : h('span', { class: `change ${game.change >= 0 ? 'up' : 'down'}` }, `${game.change >= 0 ? '+' : ''}${Math.round(game.change)}`);
      return h('tr', { 'data-profile-game': game.id, 'data-result': game.result ?? '' },
        h('td', {}, game.opponent ?? '…'),
        h('td', {}, h('a', { href: `/duck/game/${game.id}` }, result(game))),
        h('td', {}, game.rating === null ? '' : `${Math.round(game.rating)} `, change),
        h('td', {}, game.time ?? ''),
        h('td', {}, `${game.rated ? 'rated' : 'casual'} ${game.category}`),
        h('td', {}, date(game.created_at)));
    }));
    $('[data-page-info]').textContent = `${reply.total} game${reply.total === 1 ? '' : 's'} · page ${reply.page} of ${reply.pages}`;
    $('[data-page="prev"]').disabled = state.page <= 1;
    $('[data-page="next"]').disabled = state.page >= state.pages;
  } catch (error) {
    show($('[data-profile-error]'), error.message);
  }
}

function ownForms() {
  $('[data-own]').classList.remove('hidden');
  $('[data-password-form]').addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    try {
      adopt(await act('/api/account/password', { password: data.get('password'), new_password: data.get('new_password') }));
      event.target.reset();
      $('[data-password-done]').classList.remove('hidden');
    } catch (error) {
      show($('[data-profile-error]'), error.message);
    }
  });
  $('[data-delete-form]').addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    try {
      await act('/api/account/delete', { password: data.get('password') });
      location.assign('/');
    } catch (error) {
      show($('[data-profile-error]'), error.message);
    }
  });
}

async function start() {
  await refresh();
  if (!(await loadProfile())) return;
  if (signedIn()?.toLowerCase() === state.profile.name.toLowerCase()) ownForms();
  $('[data-graph-category]').addEventListener('change', (event) => drawGraph(state.profile.history[event.target.value]));
  for (const selector of ['[data-filter-result]', '[data-filter-category]']) {
    $(selector).addEventListener('change', () => { state.page = 1; loadGames(); });
  }
  $('[data-filter-opponent]').addEventListener('change', () => { state.page = 1; loadGames(); });
  $('[data-page="prev"]').addEventListener('click', () => { state.page = Math.max(1, state.page - 1); loadGames(); });
  $('[data-page="next"]').addEventListener('click', () => { state.page = Math.min(state.pages, state.page + 1); loadGames(); });
  document.addEventListener('account', () => location.reload());
  await loadGames();
}

start().finally(() => { document.body.dataset.ready = 'true'; });
