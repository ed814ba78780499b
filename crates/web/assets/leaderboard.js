// The leaderboard of one category: the players rated there in the last 30 days, best first.

import { $, api, h, show } from './common.js';
import { refresh } from './account.js';

async function load() {
  const category = $('[data-leaderboard-category]').value;
  try {
    const reply = await api(`/api/leaderboard/${category}`);
    $('[data-leaders]').replaceChildren(...reply.players.map((player, index) => h('tr', { 'data-leader': player.name },
      h('td', {}, index + 1),
      h('td', {}, h('a', { href: `/@/${encodeURIComponent(player.name)}` }, player.name)),
      h('td', {}, h('span', { 'data-leader-rating': category }, Math.round(player.rating)), player.provisional ? '?' : ''),
      h('td', {}, player.games))));
    $('[data-no-leaders]').classList.toggle('hidden', reply.players.length > 0);
  } catch (error) {
    show($('[data-leaderboard-error]'), error.message);
  }
}

const chosen = new URLSearchParams(location.search).get('category');
if (chosen) $('[data-leaderboard-category]').value = chosen;
$('[data-leaderboard-category]').addEventListener('change', load);
Promise.all([refresh(), load()]).finally(() => { document.body.dataset.ready = 'true'; });
