// The live games' page: "Play a friend" creates a game on the server and shows the links that
// give the other seat and the spectators' view; the archive lists every game kept, newest
// first, with a filter and pages, and shows the board of the game under the pointer (or
// focused; the newest at first) with the board every page uses. The seat tokens live in this
// browser's localStorage only.

import { $, api, h, show } from './common.js';
import { createBoard } from './board.js';

const NAME_KEY = 'arbiter.live.name';

/** Where this browser keeps its token for the game `id` (and the invitation's, for its creator). */
const tokenKey = (id) => `arbiter.live.${id}`;
const inviteKey = (id) => `arbiter.live.${id}.invite`;

const state = { page: 1, pages: 1 };

const preview = createBoard($('#preview-board'), {
  coordinates: false,
  still: true,
  style: localStorage.getItem('arbiter.duck.style') === 'western' ? 'western' : 'chinese',
});
/** The game previewed, and the views fetched (a finished game's never changes). */
let previewed = null;
const views = new Map();

/** Shows the board of the game `id`, as it stands. */
async function showPreview(id) {
  if (previewed === id) return;
  previewed = id;
  try {
    const view = views.get(id) ?? await api(`/api/live/games/${id}`);
    if (view.status === 'over') views.set(id, view);
    if (previewed !== id) return;
    preview.set({ position: view.position });
    preview.element.dataset.previewGame = id;
    const players = `${view.red || 'Anonymous'} – ${view.blue === null ? '…' : view.blue || 'Anonymous'}`;
    $('#preview-text').textContent = `${players} · ${view.end?.text ?? `${view.commands.length} moves, going on`}`;
    $('#preview').classList.remove('hidden');
  } catch {
    $('#preview').classList.add('hidden');
  }
}

async function create() {
  const name = $('[data-player-name]').value;
  localStorage.setItem(NAME_KEY, name);
  const time = $('[data-time]').value;
  show($('#create-error'), '');
  try {
    const created = await api('/api/live/games', { name, color: $('[data-color]').value, time });
    localStorage.setItem(tokenKey(created.id), created.token);
    localStorage.setItem(inviteKey(created.id), created.invite);
    const address = `${location.origin}${created.path}`;
    $('[data-invite-link]').value = `${address}#seat=${created.invite}`;
    $('[data-spectate-link]').value = address;
    $('[data-open-game]').href = created.path;
    $('#created').classList.remove('hidden');
    await list();
  } catch (error) {
    show($('#create-error'), error.message);
  }
}

const date = (ms) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

function result(game) {
  if (game.status === 'ongoing') return 'ongoing';
  const who = game.winner ? `${game.winner} wins` : 'draw';
  return `${who} (${game.reason})`;
}

async function list() {
  const query = new URLSearchParams({ page: String(state.page) });
  const status = $('[data-filter-status]').value;
  const player = $('[data-filter-player]').value.trim();
  if (status) query.set('status', status);
  if (player) query.set('player', player);
  try {
    const reply = await api(`/api/live/archive?${query}`);
    state.pages = reply.pages;
    const rows = reply.games.map((game) => {
      const link = (text) => h('a', { href: `/duck/game/${game.id}`, 'data-archived-game': game.id }, text);
      const look = () => showPreview(game.id);
      return h('tr', { 'data-status': game.status, onmouseenter: look, onfocusin: look },
        h('td', {}, link(game.red ?? '…')),
        h('td', {}, game.blue ?? '…'),
        h('td', {}, result(game)),
        h('td', {}, game.moves),
        h('td', {}, game.time ?? 'none'),
        h('td', {}, date(game.created_at)));
    });
    $('#archive').replaceChildren(...rows);
    previewed = null;
    if (reply.games.length > 0) showPreview(reply.games[0].id);
    else $('#preview').classList.add('hidden');
    $('[data-page-info]').textContent = `${reply.total} game${reply.total === 1 ? '' : 's'} · page ${reply.page} of ${reply.pages}`;
    $('[data-page="prev"]').disabled = state.page <= 1;
    $('[data-page="next"]').disabled = state.page >= state.pages;
    show($('#archive-error'), '');
  } catch (error) {
    show($('#archive-error'), error.message);
  }
}

function start() {
  $('[data-player-name]').value = localStorage.getItem(NAME_KEY) ?? '';
  $('[data-play-friend]').addEventListener('click', create);
  $('[data-copy-invite]').addEventListener('click', async () => {
    await navigator.clipboard?.writeText($('[data-invite-link]').value).catch(() => {});
    $('#copied').textContent = 'copied';
  });
  let typing;
  $('[data-filter-player]').addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => { state.page = 1; list(); }, 250);
  });
  $('[data-filter-status]').addEventListener('change', () => { state.page = 1; list(); });
  $('[data-page="prev"]').addEventListener('click', () => { state.page = Math.max(1, state.page - 1); list(); });
  $('[data-page="next"]').addEventListener('click', () => { state.page = Math.min(state.pages, state.page + 1); list(); });
  list().then(() => { document.body.dataset.ready = 'true'; });
}

start();
