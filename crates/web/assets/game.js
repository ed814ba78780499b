// A live game, played or watched: the server owns it. This page learns who it is from the seat
// token this browser keeps (or a spectator without one), follows the game over a WebSocket that
// reconnects by itself, draws each position the server describes (/api/duck/game) and sends the
// seat's moves and offers (/api/live/games/ID/act). No rule is decided here.

import { $, api, download, h, moveSound, s, show } from './common.js';

const CELL = 100;
const MARGIN = 105;
const ROWS = 10;
const COLS = 9;

const id = location.pathname.split('/').pop();
const tokenKey = `arbiter.live.${id}`;
const inviteKey = `arbiter.live.${id}.invite`;
const board = $('#board');

const state = {
  token: null,
  seat: 'spectator',
  /** The newest view of the game the server sent, and when it arrived. */
  game: null,
  receivedAt: 0,
  /** The commands the position drawn was fetched for, and the server's description of it. */
  drawnFor: null,
  replay: null,
  selected: null,
  socket: null,
  retries: 0,
  fetching: 0,
};

// ---------------------------------------------------------------------------------------------
// Seat

/** Takes a token given in the address (`#seat=TOKEN`, the invitation) into localStorage, and
 *  takes it out of the address so that the address shown can be shared as it is. */
function adoptToken() {
  const given = new URLSearchParams(location.hash.slice(1)).get('seat');
  if (given) {
    localStorage.setItem(tokenKey, given);
    history.replaceState(null, '', location.pathname);
  }
  state.token = localStorage.getItem(tokenKey);
}

async function findSeat() {
  if (!state.token) return;
  try {
    const reply = await api(`/api/live/games/${id}/seat`, { token: state.token });
    state.seat = reply.seat;
  } catch (error) {
    if (error.status === 403) localStorage.removeItem(tokenKey);
    state.token = null;
  }
}

function showSeat() {
  const seat = $('#seat');
  seat.dataset.seat = state.seat;
  seat.textContent = state.seat === 'spectator' ? 'a spectator' : state.seat;
  board.setAttribute('aria-label', state.seat === 'blue' ? 'board, blue at the bottom' : 'board, red at the bottom');
}

// ---------------------------------------------------------------------------------------------
// Live updates

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}/api/live/games/${id}/socket`);
  state.socket = socket;
  const connection = document.querySelector('[data-connection]');
  socket.addEventListener('open', () => {
    state.retries = 0;
    connection.dataset.connection = 'open';
    connection.textContent = 'live';
    socket.send(JSON.stringify({ hello: state.token }));
  });
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    receive(message.game, message.spectators);
  });
  socket.addEventListener('close', () => {
    if (state.socket !== socket) return;
    connection.dataset.connection = 'closed';
    connection.textContent = 'reconnecting…';
    // Back off up to 4 s; the server sends the whole game again on reconnection.
    const wait = Math.min(4000, 250 * 2 ** state.retries);
    state.retries += 1;
    setTimeout(connect, wait);
  });
}

/** Takes `game` if it is not older than the one shown. */
function receive(game, spectators) {
  if (spectators !== undefined) {
    const count = document.querySelector('[data-spectators]');
    count.dataset.spectators = String(spectators);
    count.textContent = String(spectators);
  }
  if (!game || (state.game && game.version < state.game.version)) return;
  const moved = state.game && game.commands.length !== state.game.commands.length;
  state.game = game;
  state.receivedAt = performance.now();
  if (moved) moveSound();
  update();
}

// ---------------------------------------------------------------------------------------------
// Drawing

function update() {
  const game = state.game;
  renderPanel(game);
  const key = game.commands.join(',');
  if (state.drawnFor !== key) fetchPosition(game.commands, key);
  else render();
}

async function fetchPosition(commands, key) {
  const ticket = ++state.fetching;
  try {
    const replay = await api('/api/duck/game', { commands });
    if (ticket !== state.fetching) return;
    state.replay = replay;
    state.drawnFor = key;
    state.selected = null;
    render();
    renderMoves(replay.entries);
  } catch (error) {
    show($('#error'), error.message);
  }
}

const turnText = { red: 'Red to move', blue: 'Blue to move' };

function renderPanel(game) {
  const over = game.status === 'over';
  const turn = $('#turn');
  turn.dataset.turn = over ? 'over' : game.turn;
  turn.querySelector('.disc').className = `disc ${over ? 'over' : game.turn}`;
  $('#turn-text').textContent = over ? 'Game over' : turnText[game.turn];

  const banner = document.querySelector('[data-game-over]');
  banner.dataset.gameOver = over ? game.end.reason : '';
  banner.textContent = over ? game.end.text : '';
  banner.className = over ? `banner ${game.end.winner ?? ''}` : 'hidden';

  const playing = state.seat !== 'spectator' && !over;
  $('#controls').classList.toggle('hidden', !playing);
  const other = state.seat === 'red' ? 'blue' : 'red';
  const drawFromOther = playing && game.draw_offer === other;
  const takebackFromOther = playing && game.takeback === other;
  $('[data-offer-draw]').disabled = game.draw_offer === state.seat;
  $('[data-offer-draw]').textContent = game.draw_offer === state.seat ? 'Draw offered' : 'Offer a draw';
  $('[data-takeback]').disabled = game.takeback === state.seat;
  $('[data-accept-draw]').classList.toggle('hidden', !drawFromOther);
  $('[data-decline-draw]').classList.toggle('hidden', !drawFromOther);
  $('[data-accept-takeback]').classList.toggle('hidden', !takebackFromOther);
  $('[data-decline-takeback]').classList.toggle('hidden', !takebackFromOther);
  const offers = [];
  if (!over && game.draw_offer) offers.push(`${game.draw_offer} offers a draw`);
  if (!over && game.takeback) offers.push(`${game.takeback} asks to take back a move`);
  $('#offer-text').textContent = offers.join(' · ');
  $('#offers').classList.toggle('hidden', offers.length === 0);

  const mine = state.seat !== 'spectator' && game[state.seat] === null;
  $('#join').classList.toggle('hidden', !mine);

  const invite = localStorage.getItem(inviteKey);
  const waiting = state.seat !== 'spectator' && invite && game[other] === null;
  $('#invite').classList.toggle('hidden', !waiting);
  if (waiting) $('[data-invite-link]').value = `${location.origin}${location.pathname}#seat=${invite}`;
  $('[data-spectate-link]').value = `${location.origin}${location.pathname}`;

  const [top, bottom] = state.seat === 'blue' ? ['red', 'blue'] : ['blue', 'red'];
  for (const [where, side] of [['top', top], ['bottom', bottom]]) {
    const row = $(`[data-player="${where}"]`);
    row.dataset.side = side;
    row.querySelector('.live-name').textContent = `${side}: ${game[side] ?? 'waiting for a player…'}`;
    row.querySelector('[data-clock]').dataset.clock = side;
  }
  $('[data-fen]').value = game.fen;
  $('#ply-count').textContent = `${game.commands.length} moves${game.time ? ` · ${game.time}` : ''}`;
  $('#analyse').href = `/duck?moves=${game.commands.map((c) => c.split(' ').join('')).join(',')}`;
  tick();
}

const clockText = (ms) => {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 10) return seconds.toFixed(1);
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

/** Redraws the clocks from the last view and the time since it arrived. */
function tick() {
  const game = state.game;
  for (const clock of document.querySelectorAll('[data-clock]')) {
    const side = clock.dataset.clock;
    if (!game?.clocks || !side) {
      clock.textContent = '';
      continue;
    }
    let left = game.clocks[`${side}_ms`];
    const running = game.clocks.running === side;
    if (running) left -= performance.now() - state.receivedAt;
    clock.textContent = clockText(left);
    clock.classList.toggle('running', running);
  }
}

function renderMoves(entries) {
  const items = entries.map((entry, i) => h('li', {
    'data-command': entry.command,
    'data-result': entry.result,
    'data-ply': i + 1,
  },
  h('span', { class: 'n' }, `${i + 1}.`),
  h('span', { class: 'cmd' }, entry.command),
  h('span', { class: `res ${entry.result.split(' ')[0]}` }, entry.result),
  state.game?.moves[i] ? h('span', { class: 'hint' }, ` ${(state.game.moves[i].took_ms / 1000).toFixed(1)} s`) : null));
  const list = $('#moves');
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

/** Where point [x, y] is drawn: blue's player sees blue at the bottom. */
function place([x, y]) {
  const flipped = state.seat === 'blue';
  const col = flipped ? COLS - 1 - y : y;
  const row = flipped ? x : ROWS - 1 - x;
  return [MARGIN + col * CELL, MARGIN + row * CELL];
}

function grid() {
  const [left, right, top, bottom] = [MARGIN, MARGIN + (COLS - 1) * CELL, MARGIN, MARGIN + (ROWS - 1) * CELL];
  const river = MARGIN + 4 * CELL;
  const lines = [];
  for (let r = 0; r < ROWS; r++) lines.push(`M${left} ${top + r * CELL}H${right}`);
  for (let c = 0; c < COLS; c++) {
    const x = left + c * CELL;
    if (c === 0 || c === COLS - 1) lines.push(`M${x} ${top}V${bottom}`);
    else lines.push(`M${x} ${top}V${river}`, `M${x} ${river + CELL}V${bottom}`);
  }
  return [
    s('rect', { x: 4, y: 4, width: 1002, height: 1102, rx: 22, fill: '#e8c58c', stroke: '#a67c45', 'stroke-width': 3 }),
    s('path', { d: lines.join(''), stroke: '#6b4a2b', 'stroke-width': 2.5, fill: 'none' }),
    s('text', { class: 'river', x: (left + right) / 2 + 12, y: river + CELL / 2 }, '鸭棋'),
  ];
}

/** The moves the player may make now: the seat's, on its turn, in a game going on. */
function playable() {
  const game = state.game;
  const position = state.replay?.position;
  if (!game || !position || game.status !== 'ongoing' || state.seat !== game.turn) return new Map();
  return new Map(position.moves.map((m) => [m.from.join(), m.to]));
}

function render() {
  const position = state.replay?.position;
  if (!position) return;
  const pieces = new Map(position.pieces.map((piece) => [piece.point.join(), piece]));
  const movable = playable();
  const targets = state.selected ? (movable.get(state.selected.join()) ?? []) : [];
  const reachable = new Set(targets.map((p) => p.join()));
  const under = [];
  if (position.last) {
    for (const point of [position.last.from, position.last.to]) {
      const [cx, cy] = place(point);
      under.push(s('rect', { class: 'last', x: cx - 45, y: cy - 45, width: 90, height: 90, rx: 12, fill: 'none', stroke: '#2e7d32', 'stroke-width': 4 }));
    }
  }
  const points = [];
  for (let x = ROWS - 1; x >= 0; x--) {
    for (let y = 0; y < COLS; y++) {
      const key = `${x},${y}`;
      const [cx, cy] = place([x, y]);
      const piece = pieces.get(key);
      const selected = state.selected?.join() === key;
      const children = [s('rect', { class: 'hit', x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL })];
      if (selected) children.push(s('circle', { class: 'sel', cx, cy, r: 50 }));
      if (piece) {
        children.push(s('g', {
          class: `piece ${piece.color}`, 'data-piece': piece.piece, role: 'img',
          'aria-label': `${piece.piece} on (${key})`, transform: `translate(${cx} ${cy})`,
        },
        s('g', { class: 'lift' },
          s('circle', { class: 'piece-disc', r: 44 }),
          s('circle', { class: 'piece-ring', r: 36 }),
          s('text', { class: 'glyph', y: 1 }, piece.glyph))));
      }
      if (reachable.has(key)) {
        children.push(piece ? s('circle', { class: 'capture', cx, cy, r: 47 }) : s('circle', { class: 'dot', cx, cy, r: 15 }));
      }
      const classes = ['point'];
      if (movable.has(key)) classes.push('movable');
      if (selected) classes.push('selected');
      points.push(s('g', {
        class: classes.join(' '),
        'data-point': key,
        'data-x': x,
        'data-y': y,
        'data-reachable': reachable.has(key),
        role: 'button',
        tabindex: -1,
        'aria-label': `(${key}) ${piece ? piece.piece : 'empty'}`,
      }, children));
    }
  }
  board.replaceChildren(s('g', { class: 'grid' }, grid()), s('g', { class: 'under' }, under), s('g', { class: 'points' }, points));
}

// ---------------------------------------------------------------------------------------------
// Acting

async function act(body) {
  show($('#explain'), '');
  try {
    const game = await api(`/api/live/games/${id}/act`, { token: state.token ?? '', ...body });
    receive(game);
    return true;
  } catch (error) {
    $('#explain').textContent = error.message;
    return false;
  }
}

async function click(event) {
  const element = event.target.closest('[data-point]');
  if (!element) return;
  const point = element.dataset.point.split(',').map(Number);
  const movable = playable();
  const key = point.join();
  if (state.selected && (movable.get(state.selected.join()) ?? []).some((p) => p.join() === key)) {
    const command = `${state.selected[0]} ${state.selected[1]} ${point[0]} ${point[1]}`;
    state.selected = null;
    render();
    await act({ action: 'move', command });
    return;
  }
  if (state.seat === 'spectator') {
    $('#explain').textContent = 'you are watching: only the players move';
  } else if (state.game && state.game.turn !== state.seat && state.game.status === 'ongoing') {
    $('#explain').textContent = `it is ${state.game.turn}'s turn`;
  }
  state.selected = movable.has(key) && state.selected?.join() !== key ? point : null;
  render();
}

async function start() {
  adoptToken();
  await findSeat();
  showSeat();
  board.addEventListener('click', click);
  $('[data-resign]').addEventListener('click', () => {
    if (confirm('Resign this game?')) act({ action: 'resign' });
  });
  const acts = {
    '[data-offer-draw]': 'offer-draw',
    '[data-accept-draw]': 'accept-draw',
    '[data-decline-draw]': 'decline-draw',
    '[data-takeback]': 'request-takeback',
    '[data-accept-takeback]': 'accept-takeback',
    '[data-decline-takeback]': 'decline-takeback',
  };
  for (const [selector, action] of Object.entries(acts)) {
    $(selector).addEventListener('click', () => act({ action }));
  }
  $('#join').addEventListener('submit', (event) => {
    event.preventDefault();
    localStorage.setItem('arbiter.live.name', $('[data-join-name]').value);
    act({ action: 'join', name: $('[data-join-name]').value });
  });
  $('[data-join-name]').value = localStorage.getItem('arbiter.live.name') ?? '';
  $('[data-export]').addEventListener('click', async () => {
    const exported = await api(`/api/live/games/${id}/export`);
    download(`duck-${id}.in`, exported.official);
  });
  try {
    receive(await api(`/api/live/games/${id}`));
  } catch (error) {
    const missing = error.status === 404 || error.status === 400;
    show($('#error'), missing ? 'There is no such game.' : error.message);
    // No game to follow: the page does not knock on the server again and again.
    if (missing) {
      document.body.dataset.ready = 'true';
      return;
    }
  }
  connect();
  setInterval(tick, 200);
  document.body.dataset.ready = 'true';
}

start();
