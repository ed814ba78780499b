// The lobby: one WebSocket tells the page everyone's seeks and whether this player waits for a
// quick pairing, and carries the player's requests (post, cancel, accept or decline a seek,
// pair, challenge). When a game of this player's starts, the server hands over the seat's token
// and the page goes to the game with it, as an invitation link would.

import { $, h, show } from './common.js';
import { refresh, signedIn } from './account.js';

const state = { socket: null, retry: 500 };

/** Sends a request to the lobby. */
function send(request) {
  if (state.socket?.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify(request));
  } else {
    show($('[data-lobby-error]'), 'not connected to the lobby: wait a moment');
  }
}

function drawPools(pools, waiting) {
  const grid = $('[data-pairings]');
  if (grid.children.length === 0) {
    for (const time of pools) {
      grid.append(h('button', {
        type: 'button',
        'data-pairing': time,
        'aria-pressed': 'false',
        onclick: () => send(grid.dataset.waiting === time ? { type: 'unpair' } : { type: 'pair', time }),
      }, time, h('small', {}, 'waiting…')));
    }
  }
  grid.dataset.waiting = waiting ?? '';
  for (const button of grid.querySelectorAll('[data-pairing]')) {
    const pressed = button.dataset.pairing === waiting;
    button.setAttribute('aria-pressed', String(pressed));
    button.querySelector('small').classList.toggle('hidden', !pressed);
  }
}

function drawSeeks(seeks) {
  const rows = seeks.map((seek) => {
    const player = seek.rating === null
      ? seek.name
      : h('a', { href: `/@/${encodeURIComponent(seek.name)}` }, seek.name);
    const actions = [];
    if (seek.mine) {
      actions.push(h('button', { type: 'button', 'data-seek-cancel': seek.id, onclick: () => send({ type: 'cancel', seek: seek.id }) }, 'Cancel'));
    } else {
      actions.push(h('button', { type: 'button', class: 'primary', 'data-seek-accept': seek.id, onclick: () => send({ type: 'accept', seek: seek.id }) }, 'Play'));
      if (seek.to) actions.push(h('button', { type: 'button', 'data-seek-decline': seek.id, onclick: () => send({ type: 'decline', seek: seek.id }) }, 'Decline'));
    }
    const what = seek.to
      ? (seek.mine ? `challenge to ${seek.to}` : 'challenges you')
      : '';
    return h('tr', {
      'data-seek': seek.id,
      'data-seek-rated': String(seek.rated),
      class: [seek.mine ? 'mine' : '', seek.to && !seek.mine ? 'challenge' : ''].join(' ').trim() || null,
    },
    h('td', {}, player, what ? h('span', { class: 'hint' }, ` ${what}`) : null),
    h('td', {}, seek.rating === null ? '' : `${seek.rating}${seek.provisional ? '?' : ''}`),
    h('td', {}, seek.time),
    h('td', {}, `${seek.rated ? 'rated' : 'casual'} ${seek.category}`),
    h('td', {}, seek.color),
    h('td', { class: 'actions' }, actions));
  });
  $('[data-seeks]').replaceChildren(...rows);
  $('[data-no-seeks]').classList.toggle('hidden', seeks.length > 0);
}

function received(message) {
  switch (message.type) {
    case 'hello':
      drawPools(message.pools, null);
      break;
    case 'lobby':
      // Ready once the lobby as it stands is drawn.
      document.body.dataset.ready = 'true';
      drawPools([], message.pairing);
      drawSeeks(message.seeks);
      $('[data-players]').textContent = `${message.players} in the lobby`;
      break;
    case 'start': {
      const { path, token } = message.game;
      location.assign(`${path}#seat=${encodeURIComponent(token)}`);
      break;
    }
    case 'declined':
      show($('[data-lobby-error]'), `${message.by} declined your challenge`);
      break;
    case 'error':
      show($('[data-lobby-error]'), message.error);
      break;
    default:
      break;
  }
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}/api/lobby/socket`);
  state.socket = socket;
  socket.addEventListener('open', () => {
    state.retry = 500;
    $('[data-lobby-status]').textContent = signedIn() ? `You play as ${signedIn()}.` : 'You play as Anonymous.';
    show($('[data-lobby-error]'), '');
  });
  socket.addEventListener('message', (event) => received(JSON.parse(event.data)));
  socket.addEventListener('close', () => {
    $('[data-lobby-status]').textContent = 'Reconnecting…';
    // Seeks go with the socket; the page shows them again from the server once back.
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  });
}

/** Wires a form whose fields make a request of `type`. */
function requestForm(form, type, extra) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    show($('[data-lobby-error]'), '');
    send({ type, time: data.get('time'), color: data.get('color'), rated: data.get('rated') === 'on', ...extra(data) });
  });
}

async function start() {
  await refresh();
  const anonymous = !signedIn();
  for (const box of document.querySelectorAll('[data-rated]')) {
    box.disabled = anonymous;
    box.checked = !anonymous;
  }
  $('[data-challenge-form] button').disabled = anonymous;
  $('[data-challenge-hint]').classList.toggle('hidden', !anonymous);
  // Signed out here: the lobby's socket still speaks for the account, so it starts again.
  document.addEventListener('account', () => location.reload());
  requestForm($('[data-seek-form]'), 'seek', () => ({}));
  requestForm($('[data-challenge-form]'), 'challenge', (data) => ({ name: data.get('name') }));
  connect();
}

start();
