// A live game, played or watched: the server owns it. The page learns who it is from the seat
// token this browser keeps (or is a spectator without one), follows the game over its WebSocket
// (live-socket.js), draws the board the server describes with the points each piece can reach
// (board.js), lists the moves as the board page does (movelist.js), shows the players, clocks
// and offers (live-panel.js), and sends the seat's moves and offers (/api/live/games/ID/act).
// Anyone may review the game on the page, during it and after: the positions before the last
// come from /api/duck/position, kept once fetched. No rule is decided here.

import { $, api, confirming, download, moveSound, soundSwitch, stepKeys } from './common.js';
import { createBoard } from './board.js';
import { Lines } from './lines.js';
import { createMoveList, notationSwitch } from './movelist.js';
import { createPositions } from './positions.js';
import { createPanel } from './live-panel.js';
import { follow } from './live-socket.js';

const id = location.pathname.split('/').pop();
const tokenKey = `arbiter.live.${id}`;
const NAME_KEY = 'arbiter.live.name';
const STYLE_KEY = 'arbiter.duck.style';

const state = {
  token: null,
  seat: 'spectator',
  /** The ply the board shows while the game is reviewed; null follows the game. */
  review: null,
  /** The position the board shows (the game's own, or one reviewed). */
  position: null,
  flipped: false,
  style: localStorage.getItem(STYLE_KEY) === 'western' ? 'western' : 'chinese',
  /** Whether this page has asked to take its seat, so that it asks once. */
  joining: false,
};

const lines = new Lines();
const positions = createPositions((commands) => api('/api/duck/position', { commands, at: commands.length }));
const panel = createPanel(id, { seat: () => state.seat });
const moveList = createMoveList($('#moves'), { lines, onShow: (ply) => review(ply) });
const board = createBoard($('#board'), {
  style: state.style,
  onMove: (from, to) => act({ action: 'move', command: `${from[0]} ${from[1]} ${to[0]} ${to[1]}` }),
  onPoint: point,
});
let live = null;
const game = () => live?.game;

// ---------------------------------------------------------------------------------------------
// The seat

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
  state.flipped = state.seat === 'blue';
}

// ---------------------------------------------------------------------------------------------
// Drawing

/** The ply the board shows. */
const shownPly = () => state.review ?? game().commands.length;

/** Takes a new view of the game: the lists, the board, a sound for the other side's move. */
function received(view, previous) {
  const moved = previous && view.commands.length > previous.commands.length;
  const mover = view.commands.length % 2 === 1 ? 'red' : 'blue';
  if (moved && mover !== state.seat) moveSound();
  lines.reset(view.entries);
  positions.keep(view.commands, view.position);
  // A review past the moves left (after a takeback) ends.
  if (state.review !== null && state.review >= view.commands.length) state.review = null;
  if (state.review === null) state.position = view.position;
  // A rematch agreed while the page is open: the players go on to it, their tokens with them.
  if (view.rematch && previous && !previous.rematch && state.seat !== 'spectator') {
    localStorage.setItem(`arbiter.live.${view.rematch}`, state.token);
    location.assign(`/duck/game/${view.rematch}`);
  }
  joinIfNamed(view);
  render();
}

/** The moves the seat may make now: on its turn, in a game going on, at its last position. */
function dests() {
  const view = game();
  if (!view || view.status !== 'ongoing' || state.seat !== view.turn || state.review !== null) return [];
  return view.position.moves;
}

function render() {
  const view = game();
  if (!view) return;
  const shown = shownPly();
  board.set({ position: state.position, dests: dests(), flipped: state.flipped, style: state.style });
  board.element.dataset.shownPly = String(shown);
  moveList.render({ line: 'main', at: shown, style: state.style, note: took });
  panel.render(view, { shown, reviewing: state.review !== null, flipped: state.flipped });
  $('[data-fen]').value = state.position?.fen ?? view.fen;
  const total = view.commands.length;
  $('[data-review="first"]').disabled = shown === 0;
  $('[data-review="prev"]').disabled = shown === 0;
  $('[data-review="next"]').disabled = shown === total;
  $('[data-review="last"]').disabled = shown === total;
  document.body.dataset.reviewing = String(state.review !== null);
  // Only a page that reviews asks for the positions around the one it shows: watching costs the
  // server nothing but the changes it sends.
  if (state.review !== null) positions.prefetch(shown, total, (n) => view.commands.slice(0, n));
}

/** The time a move took, beside it in the list. */
function took(entry, ply) {
  const move = game()?.moves[ply - 1];
  return move ? `${(move.took_ms / 1000).toFixed(1)} s` : '';
}

/** Shows the position after `ply` moves; the last one follows the game again. */
let reviewing = 0;
async function review(ply) {
  const view = game();
  if (!view) return;
  const total = view.commands.length;
  const target = Math.max(0, Math.min(total, ply));
  const ticket = ++reviewing;
  if (target === total) {
    state.review = null;
    state.position = view.position;
  } else {
    state.review = target;
    try {
      const position = await positions.after(view.commands.slice(0, target));
      if (ticket !== reviewing) return;
      state.position = position;
    } catch (error) {
      panel.say(error.message);
    }
  }
  render();
}

// ---------------------------------------------------------------------------------------------
// Acting

/** Sends an action of the seat; the page says why it was refused, or that the server is away. */
async function act(body) {
  panel.say('');
  try {
    const reply = await api(`/api/live/games/${id}/act`, { token: state.token ?? '', ...body });
    live.take(reply);
    return true;
  } catch (error) {
    panel.say(error.message);
    render();
    return false;
  }
}

/** A click on a point that neither selects nor moves a piece: the page says why. */
function point(at) {
  const view = game();
  if (!view) return;
  const piece = state.position?.pieces.find((p) => p.point.join() === at.join());
  if (!piece) return;
  if (state.seat === 'spectator') panel.say('You are watching: only the players move.');
  else if (view.status !== 'ongoing') panel.say('The game is over.');
  else if (state.review !== null) panel.say('An earlier position is shown: End returns to the game.');
  else if (view.turn !== state.seat) panel.say(`It is ${view.turn}'s turn.`);
  else if (piece.color !== state.seat) panel.say(`The ${piece.piece} is not yours: you play ${state.seat}.`);
  else {
    panel.say(`The ${piece.piece} on (${at.join()}) has no valid move.`);
    board.refuse(at);
  }
}

/** A seat without a name takes it at once when this browser keeps one. */
function joinIfNamed(view) {
  const name = localStorage.getItem(NAME_KEY) ?? '';
  if (state.seat === 'spectator' || view[state.seat] !== null || !name.trim() || state.joining) return;
  state.joining = true;
  act({ action: 'join', name });
}

/** Steps the review `where` (`first`, `prev`, `next`, `last`: the game as it stands). */
function step(where) {
  if (!game()) return;
  review({ first: 0, prev: shownPly() - 1, next: shownPly() + 1, last: game().commands.length }[where]);
}

function flip() {
  state.flipped = !state.flipped;
  render();
}

async function start() {
  adoptToken();
  await findSeat();
  panel.showSeat();
  const acts = {
    '[data-offer-draw]': 'offer-draw',
    '[data-accept-draw]': 'accept-draw',
    '[data-decline-draw]': 'decline-draw',
    '[data-takeback]': 'request-takeback',
    '[data-accept-takeback]': 'accept-takeback',
    '[data-decline-takeback]': 'decline-takeback',
    '#rematch': 'offer-rematch',
    '[data-decline-rematch]': 'decline-rematch',
  };
  for (const [selector, action] of Object.entries(acts)) $(selector).addEventListener('click', () => act({ action }));
  confirming($('[data-resign]'), 'Really resign?', () => act({ action: 'resign' }));
  $('#join').addEventListener('submit', (event) => {
    event.preventDefault();
    const name = $('[data-join-name]').value;
    localStorage.setItem(NAME_KEY, name);
    state.joining = true;
    act({ action: 'join', name });
  });
  $('[data-join-name]').value = localStorage.getItem(NAME_KEY) ?? '';
  $('[data-export]').addEventListener('click', async () => {
    const exported = await api(`/api/live/games/${id}/export`);
    download(`duck-${id}.in`, exported.official);
  });
  for (const button of document.querySelectorAll('[data-review]')) {
    button.addEventListener('click', () => step(button.dataset.review));
  }
  $('[data-flip]').addEventListener('click', flip);
  notationSwitch($('[data-notation]'), $('#moves'));
  soundSwitch($('[data-sound]'));
  stepKeys({
    step,
    flip,
    escape: () => board.select(null),
  });

  let first;
  try {
    first = await api(`/api/live/games/${id}`);
  } catch (error) {
    const missing = error.status === 404 || error.status === 400;
    panel.say(missing ? 'There is no such game.' : error.message);
    $('#error').textContent = missing ? 'There is no such game.' : error.message;
    $('#error').classList.remove('hidden');
    // No game to follow: the page does not knock on the server again and again.
    if (missing) {
      document.body.dataset.ready = 'true';
      return;
    }
  }
  live = follow(id, {
    hello: state.token,
    onGame: received,
    onSpectators: panel.spectators,
    onConnection: panel.connection,
  });
  if (first) live.take(first);
  document.body.dataset.ready = 'true';
}

start();
