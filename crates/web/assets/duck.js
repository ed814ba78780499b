// The Duck Chess page. The game is its list of commands; every position, reachable point,
// result and reason comes from the server (/api/duck/...), and so do the engine's searches. The
// page draws them and sends back the command the player (or the engine) chose.

import { $, api, apiLines, download, h, readFile, s, show, typing } from './common.js';

const CELL = 100;
const MARGIN = 105;
const ROWS = 10;
const COLS = 9;
/** Letters of the Western style: the FEN letters of the pieces, upper case. */
const LETTERS = { car: 'R', horse: 'H', elephant: 'E', guard: 'G', captain: 'C', duck: 'D', soldier: 'S' };
const STYLE_KEY = 'arbiter.duck.style';

const board = $('#board');
const movesList = $('#moves');
const slider = $('#slider');
const explainBox = $('#explain');
const errorBox = $('#error');

const state = {
  /** Every command of the game with its result: {command, result, valid, reason}. */
  entries: [],
  /** How many commands the shown position follows. */
  at: 0,
  /** The server's description of the shown position. */
  position: null,
  /** Commands taken back by undo, the last one on top. */
  redo: [],
  /** The point of the selected piece, [x, y]. */
  selected: null,
  /** The point a refused move went to, flashed once. */
  refused: null,
  flipped: false,
  style: localStorage.getItem(STYLE_KEY) === 'western' ? 'western' : 'chinese',
};

const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
const commandsUpTo = (n) => state.entries.slice(0, n).map((entry) => entry.command);
/** The whole game, as one string: what a search was asked about. */
const gameKey = () => commandsUpTo(state.entries.length).join(',');

// Requests run one after the other, so that replies arrive in the order they were asked for.
let queue = Promise.resolve();
function serial(task) {
  queue = queue.then(task).catch((error) => show(errorBox, error.message));
  return queue;
}

// ---------------------------------------------------------------------------------------------
// Talking to the server

/** Replaces the game by `commands` and shows the position after `at` of them. */
async function loadGame(commands, at) {
  const reply = await api('/api/duck/game', { commands, at });
  state.entries = reply.entries;
  state.at = reply.position.ply;
  state.position = reply.position;
  state.selected = null;
  show(errorBox, '');
  return reply;
}

let wantedAt = 0;
/** Which way the grid drawn faces (null before it is drawn). */
let gridFlipped = null;
/** The entries the move list shows. */
let renderedEntries = null;
/** Shows the position after `n` commands. */
function goTo(n) {
  wantedAt = Math.max(0, Math.min(n, state.entries.length));
  if (wantedAt === state.at && state.position) return;
  serial(async () => {
    if (wantedAt === state.at) return;
    const target = wantedAt;
    const position = await api('/api/duck/position', { commands: commandsUpTo(target), at: target });
    state.at = target;
    state.position = position;
    state.selected = null;
    explainBox.textContent = '';
    render();
  });
}

/**
 * Asks the server to judge `from` → `to` after the shown position and plays it when valid (the
 * commands after the shown position are dropped); resolves to whether it was valid.
 */
async function play(from, to) {
  const command = `${from[0]} ${from[1]} ${to[0]} ${to[1]}`;
  const reply = await api('/api/duck/move', { commands: commandsUpTo(state.at), command });
  if (reply.entry.valid) {
    state.entries = [...state.entries.slice(0, state.at), reply.entry];
    state.at += 1;
    wantedAt = state.at;
    state.position = reply.position;
    state.redo = [];
    state.selected = null;
    explainBox.textContent = '';
  } else {
    explainBox.textContent = reply.entry.reason;
    state.refused = to;
  }
  render();
  return reply.entry.valid;
}

/** The player's move `from` → `to`. */
function attempt(from, to) {
  serial(() => play(from, to));
}

/** Asks the server why the piece on `point` cannot be moved (not the side to move, game over). */
function whyNot(point) {
  serial(async () => {
    const command = `${point[0]} ${point[1]} ${point[0]} ${point[1]}`;
    const reply = await api('/api/duck/move', { commands: commandsUpTo(state.at), command });
    explainBox.textContent = reply.entry.valid ? '' : reply.entry.reason;
    state.refused = point;
    render();
  });
}

function newGame() {
  serial(async () => {
    await loadGame([], 0);
    state.redo = [];
    wantedAt = 0;
    explainBox.textContent = '';
    render();
  });
}

/** Whether the engine's side is to move in the position `state` shows (game over or not). */
const engineSideToMove = () => engine.side !== 'none' && state.position?.winner === null
  && state.position.turn === engine.side;

/**
 * Takes back the last command; against the engine, also the commands before it until the player
 * is to move (the engine's reply and the player's move), so that the engine does not at once
 * play again what was taken back.
 */
function undo() {
  serial(async () => {
    do {
      const n = state.entries.length;
      if (n === 0) break;
      const last = state.entries[n - 1].command;
      await loadGame(commandsUpTo(n - 1), n - 1);
      state.redo.push(last);
    } while (state.entries.length > 0 && engineSideToMove());
    wantedAt = state.at;
    explainBox.textContent = '';
    render();
  });
}

/** Plays again the commands taken back, as many as undo took (up to the player's turn). */
function redo() {
  serial(async () => {
    do {
      const command = state.redo.pop();
      if (command === undefined) break;
      const commands = [...commandsUpTo(state.entries.length), command];
      await loadGame(commands, commands.length);
    } while (state.redo.length > 0 && engineSideToMove());
    wantedAt = state.at;
    explainBox.textContent = '';
    render();
  });
}

function importText(text) {
  serial(async () => {
    const importError = $('#import-error');
    const importWarning = $('#import-warning');
    show(importWarning, '');
    try {
      const reply = await api('/api/duck/import', { text });
      state.entries = reply.entries;
      state.at = reply.position.ply;
      state.position = reply.position;
      state.selected = null;
      state.redo = [];
      wantedAt = state.at;
      show(importError, '');
      show(importWarning, reply.warning);
      explainBox.textContent = '';
    } catch (error) {
      show(importError, error.message);
    }
    render();
  });
}

async function exported() {
  const reply = await api('/api/duck/game', { commands: commandsUpTo(state.entries.length) });
  return reply.input;
}

// ---------------------------------------------------------------------------------------------
// The board

/** Where point [x, y] is drawn. */
function place([x, y]) {
  const col = state.flipped ? COLS - 1 - y : y;
  const row = state.flipped ? x : ROWS - 1 - x;
  return [MARGIN + col * CELL, MARGIN + row * CELL];
}

/** The point nearest to a place on the board, if on it. */
function pointAt(sx, sy) {
  const col = Math.round((sx - MARGIN) / CELL);
  const row = Math.round((sy - MARGIN) / CELL);
  if (col < 0 || col >= COLS || row < 0 || row >= ROWS) return null;
  return state.flipped ? [row, COLS - 1 - col] : [ROWS - 1 - row, col];
}

function drawGrid() {
  const left = MARGIN;
  const right = MARGIN + (COLS - 1) * CELL;
  const top = MARGIN;
  const bottom = MARGIN + (ROWS - 1) * CELL;
  const river = MARGIN + 4 * CELL;
  const parts = [
    s('defs', {},
      s('radialGradient', { id: 'ivory', cx: '40%', cy: '35%', r: '70%' },
        s('stop', { offset: '0%', 'stop-color': '#fffaf0' }),
        s('stop', { offset: '100%', 'stop-color': '#ecd9b0' })),
      s('radialGradient', { id: 'danger' },
        s('stop', { offset: '0%', 'stop-color': 'rgb(230 40 20 / 75%)' }),
        s('stop', { offset: '100%', 'stop-color': 'rgb(230 40 20 / 0%)' })),
      s('linearGradient', { id: 'wood', x1: '0', y1: '0', x2: '1', y2: '1' },
        s('stop', { offset: '0%', 'stop-color': '#efd29e' }),
        s('stop', { offset: '100%', 'stop-color': '#e0b877' }))),
    s('rect', { x: 4, y: 4, width: 1002, height: 1102, rx: 22, fill: 'url(#wood)', stroke: '#a67c45', 'stroke-width': 3 }),
    s('rect', { x: left - 10, y: top - 10, width: right - left + 20, height: bottom - top + 20, fill: 'none', stroke: '#6b4a2b', 'stroke-width': 4 }),
  ];
  const lines = [];
  for (let r = 0; r < ROWS; r++) {
    const y = top + r * CELL;
    lines.push(`M${left} ${y}H${right}`);
  }
  for (let c = 0; c < COLS; c++) {
    const x = left + c * CELL;
    if (c === 0 || c === COLS - 1) {
      lines.push(`M${x} ${top}V${bottom}`);
    } else {
      lines.push(`M${x} ${top}V${river}`, `M${x} ${river + CELL}V${bottom}`);
    }
  }
  parts.push(s('path', { d: lines.join(''), stroke: '#6b4a2b', 'stroke-width': 2.5, fill: 'none' }));
  parts.push(s('text', { class: 'river', x: (left + right) / 2 + 12, y: river + CELL / 2 }, '鸭棋'));
  for (let x = 0; x < ROWS; x++) {
    const [, py] = place([x, 0]);
    parts.push(s('text', { class: 'coord', x: 30, y: py }, x));
  }
  for (let y = 0; y < COLS; y++) {
    const [px] = place([0, y]);
    parts.push(s('text', { class: 'coord', x: px, y: bottom + MARGIN - 24 }, y));
  }
  return parts;
}

/** Four corner brackets around a point, like the official toy's marks. */
function brackets(cx, cy, cls) {
  const a = 40;
  const l = 15;
  const d = [
    [-1, -1], [1, -1], [1, 1], [-1, 1],
  ].map(([sx, sy]) => {
    const x = cx + sx * a;
    const y = cy + sy * a;
    return `M${x} ${y - sy * l}V${y}H${x - sx * l}`;
  }).join('');
  return s('path', { class: cls, d });
}

function pieceNode(piece, cx, cy) {
  const western = state.style === 'western';
  const [x, y] = piece.point;
  return s('g', {
    class: `piece ${piece.color}`,
    'data-piece': piece.piece,
    role: 'img',
    'aria-label': `${piece.piece} on (${x},${y})`,
    transform: `translate(${cx} ${cy})`,
  },
  s('title', {}, piece.piece),
  s('g', { class: 'lift' },
    s('circle', { class: 'piece-disc', r: 44 }),
    s('circle', { class: 'piece-ring', r: 36 }),
    s('text', { class: western ? 'glyph western' : 'glyph', y: western ? 3 : 1 },
      western ? LETTERS[piece.role] : piece.glyph)));
}

function render() {
  const position = state.position;
  if (!position) return;
  const pieces = new Map(position.pieces.map((piece) => [piece.point.join(), piece]));
  const movable = new Map(playableMoves().map((m) => [m.from.join(), m.to]));
  const reachable = new Set((state.selected && movable.get(state.selected.join()) || []).map((p) => p.join()));
  const attackers = new Set(position.checks.flatMap((c) => c.attackers.map((p) => p.join())));
  const captains = new Set(position.checks.map((c) => c.captain.join()));

  const under = [];
  if (position.last) {
    for (const point of [position.last.from, position.last.to]) {
      under.push(brackets(...place(point), 'last'));
    }
  }
  for (const key of captains) {
    const [cx, cy] = place(key.split(',').map(Number));
    under.push(s('circle', { class: 'check-glow', cx, cy, r: 62 }));
  }

  const points = [];
  for (let x = ROWS - 1; x >= 0; x--) {
    for (let y = 0; y < COLS; y++) {
      const point = [x, y];
      const key = point.join();
      const [cx, cy] = place(point);
      const piece = pieces.get(key);
      const classes = ['point'];
      if (movable.has(key)) classes.push('movable');
      if (same(state.selected, point)) classes.push('selected');
      const children = [s('rect', { class: 'hit', x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL })];
      if (same(state.selected, point)) children.push(s('circle', { class: 'sel', cx, cy, r: 50 }));
      if (attackers.has(key)) children.push(s('circle', { class: 'attacker', cx, cy, r: 50 }));
      if (piece) children.push(pieceNode(piece, cx, cy));
      if (reachable.has(key)) {
        children.push(piece
          ? s('circle', { class: 'capture', cx, cy, r: 47 })
          : s('circle', { class: 'dot', cx, cy, r: 15 }));
      }
      if (same(state.refused, point)) children.push(s('circle', { class: 'refused', cx, cy, r: 48 }));
      points.push(s('g', {
        class: classes.join(' '),
        'data-point': key,
        'data-x': x,
        'data-y': y,
        'data-reachable': reachable.has(key),
      }, children));
    }
  }
  state.refused = null;

  const arrows = [];
  for (const check of position.checks) {
    const [tx, ty] = place(check.captain);
    for (const attacker of check.attackers) {
      const [fx, fy] = place(attacker);
      const length = Math.hypot(tx - fx, ty - fy);
      const ux = (tx - fx) / length;
      const uy = (ty - fy) / length;
      const [ex, ey] = [tx - ux * 52, ty - uy * 52];
      arrows.push(s('path', { class: 'arrow', d: `M${fx + ux * 46} ${fy + uy * 46}L${ex - ux * 18} ${ey - uy * 18}` }));
      arrows.push(s('path', {
        class: 'arrowhead',
        d: `M${ex} ${ey}L${ex - ux * 30 - uy * 16} ${ey - uy * 30 + ux * 16}L${ex - ux * 30 + uy * 16} ${ey - uy * 30 - ux * 16}Z`,
      }));
    }
  }

  // The grid is drawn again only when the board turns; the layers above it every time.
  if (gridFlipped !== state.flipped) {
    gridFlipped = state.flipped;
    board.replaceChildren(
      s('g', { class: 'grid' }, drawGrid()),
      s('g', { class: 'under' }),
      s('g', { class: 'points' }),
      s('g', { class: 'arrows', 'pointer-events': 'none' }),
      s('g', { class: 'guess', 'pointer-events': 'none' }),
    );
  }
  board.querySelector('.under').replaceChildren(...under);
  board.querySelector('.points').replaceChildren(...points);
  board.querySelector('.arrows').replaceChildren(...arrows);
  renderGuess();
  board.setAttribute('aria-label', `board, ${state.flipped ? 'blue' : 'red'} at the bottom`);
  renderSide(pieces);
}

// ---------------------------------------------------------------------------------------------
// The side panel

function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function renderSide(pieces) {
  const position = state.position;
  const turn = $('#turn');
  const banner = $('#banner');
  const over = position.winner !== null;
  turn.dataset.turn = over ? 'over' : position.turn;
  turn.querySelector('.disc').className = `disc ${over ? position.winner : position.turn}`;
  const total = state.entries.length;
  const viewing = state.at < total ? ` · viewing ${state.at} of ${total}` : '';
  $('#turn-text').textContent = over
    ? `Game over · ${capitalised(position.winner)} wins${viewing}`
    : `${capitalised(position.turn)} to move${viewing}`;
  if (over) {
    const loser = position.winner === 'red' ? 'blue' : 'red';
    banner.className = `banner ${position.winner}`;
    banner.textContent = `${capitalised(position.winner)} wins: the ${loser} captain is captured`;
  } else {
    banner.className = 'banner hidden';
    banner.textContent = '';
  }
  const notes = position.checks.map((check) => {
    const names = check.attackers.map((p) => `${pieces.get(p.join())?.piece} (${p.join(',')})`);
    return `Check: the ${check.color} captain (${check.captain.join(',')}) is attacked by ${names.join(', ')}`;
  });
  show($('#check-note'), notes.join('\n'));

  // The list is rebuilt only when the game changed; stepping through it moves the marker.
  if (renderedEntries !== state.entries) {
    renderedEntries = state.entries;
    const items = [h('li', { class: 'start', tabindex: -1, onclick: () => goTo(0) },
      h('span', { class: 'n' }, '0'), h('span', {}, 'Start position'))];
    state.entries.forEach((entry, i) => {
      const side = entry.valid ? entry.result.split(' ', 1)[0] : 'invalid';
      items.push(h('li', {
        'data-command': entry.command,
        'data-result': entry.result,
        tabindex: -1,
        onclick: () => goTo(i + 1),
      },
      h('span', { class: 'n' }, i + 1),
      h('span', { class: 'cmd' }, entry.command),
      h('span', { class: `res ${side}` }, entry.result, entry.reason && h('span', { class: 'why' }, entry.reason))));
    });
    movesList.replaceChildren(...items);
  }
  movesList.querySelector('[aria-current="true"]')?.setAttribute('aria-current', 'false');
  const current = movesList.children[state.at];
  current?.setAttribute('aria-current', 'true');
  current?.scrollIntoView({ block: 'nearest' });
  $('#ply-count').textContent = `${total} command${total === 1 ? '' : 's'}`;
  $('[data-fen]').value = position.fen;

  slider.max = String(total);
  slider.value = String(state.at);
  $('[data-nav="first"]').disabled = state.at === 0;
  $('[data-nav="prev"]').disabled = state.at === 0;
  $('[data-nav="next"]').disabled = state.at === total;
  $('[data-nav="last"]').disabled = state.at === total;
  $('[data-undo]').disabled = total === 0;
  $('[data-redo]').disabled = state.redo.length === 0;
  syncUrl();
  syncEngine();
}

// ---------------------------------------------------------------------------------------------
// The engine. It plays its side whenever that side is to move in the last position of the game:
// after the player's move, at once when it is given the side to move, after a new game, an
// import, undo or redo that leave it to move. It does not move while an earlier position is shown
// (stepping back stops its search; returning to the end starts it again) nor once the game is
// over. The search runs on the server, which streams each iteration (/api/duck/engine); the
// page draws them and plays the move answered like a click (/api/duck/move). "Move now" asks the
// server to stop the search, which then answers its best move so far.

const engine = {
  /** `none`, `red` or `blue`. */
  side: 'none',
  /** Time per move, in milliseconds. */
  time: 1000,
  /** The search under way: {key, side, controller, id, stopping}. */
  search: null,
  /** The last iteration or answer received (kept after the search, until the next one). */
  info: null,
  /** The game whose search failed, not tried again by itself. */
  failed: null,
  /** Why the engine is not playing, when something went wrong. */
  note: '',
};

/** Whether the engine is to move now: its side to move in the last position. */
function engineToMove() {
  return engineSideToMove() && state.at === state.entries.length;
}

/** The moves the player may make in the position shown: none while the engine is to move. */
function playableMoves() {
  return engineToMove() ? [] : state.position.moves;
}

/** Starts a search when the engine is to move, and drops one that no longer fits the game. */
function syncEngine() {
  const key = gameKey();
  const due = engineToMove();
  const search = engine.search;
  if (search && (!due || search.key !== key || search.side !== engine.side)) {
    search.controller.abort();
    engine.search = null;
  }
  if (!engine.search && due && engine.failed !== key) think(key);
  renderGuess();
  renderEngine();
}

/** Searches the last position of the game `key`, drawing each iteration, and plays the answer. */
async function think(key) {
  const search = { key, side: engine.side, controller: new AbortController(), id: null, stopping: false };
  engine.search = search;
  engine.info = null;
  engine.note = '';
  const request = { commands: commandsUpTo(state.entries.length), movetime: engine.time };
  try {
    for await (const line of apiLines('/api/duck/engine', request, search.controller.signal)) {
      if (engine.search !== search) return;
      if (line.event === 'start') {
        search.id = line.id;
        renderEngine();
      } else if (line.event === 'info') {
        engine.info = line;
        renderGuess();
        renderEngine();
      } else if (line.event === 'best') {
        answer(search, line);
        return;
      } else if (line.event === 'error') {
        throw new Error(line.error);
      }
    }
    throw new Error('the search ended without an answer');
  } catch (error) {
    // A search dropped by syncEngine was aborted on purpose.
    if (engine.search !== search) return;
    engine.search = null;
    engine.failed = key;
    if (error.status === 429) {
      // The server's engines are all busy: try again shortly, while it is still our turn.
      engine.note = 'The server\'s engine is busy; trying again in a moment…';
      setTimeout(() => {
        if (engine.failed !== key) return;
        engine.failed = null;
        render();
      }, 1500);
    } else {
      engine.note = `The engine failed: ${error.message}`;
    }
    render();
  }
}

/** Plays the engine's answer, unless the game has changed meanwhile. */
function answer(search, line) {
  if (!line.move) {
    engine.search = null;
    engine.failed = search.key;
    engine.note = capitalised(line.reason ?? 'the engine has no move');
    render();
    return;
  }
  engine.info = line;
  serial(async () => {
    if (engine.search !== search) return;
    engine.search = null;
    if (gameKey() !== search.key || state.at !== state.entries.length) {
      render();
      return;
    }
    if (!(await play(line.move.from, line.move.to))) {
      engine.failed = search.key;
      engine.note = 'The engine\'s move was refused.';
      render();
    }
  });
}

/** "Move now": the search stops and answers its best move so far. */
async function moveNow() {
  const search = engine.search;
  if (!search || search.id === null || search.stopping) return;
  search.stopping = true;
  renderEngine();
  try {
    await api('/api/duck/engine/stop', { id: search.id });
  } catch (error) {
    show(errorBox, error.message);
  }
}

/** A score seen by red: `+0.35` (soldiers), `#3` (red captures the captain in 3 moves), `#-3`. */
function scoreText(score) {
  if (!score) return ['–', ''];
  if (score.mate !== undefined) return [`#${score.mate}`, score.mate > 0 ? 'red' : 'blue'];
  const cp = score.cp;
  const sign = cp > 0 ? '+' : cp < 0 ? '−' : '';
  return [`${sign}${(Math.abs(cp) / 100).toFixed(2)}`, cp > 0 ? 'red' : cp < 0 ? 'blue' : ''];
}

/** A count in a few digits: 950, 12.3 k, 4.56 M. */
function count(n) {
  if (n < 1e3) return String(n);
  if (n < 1e6) return `${(n / 1e3).toPrecision(3)} k`;
  return `${(n / 1e6).toPrecision(3)} M`;
}

/** The engine's best move so far, as an arrow on the board, while it thinks. */
function renderGuess() {
  const layer = board.querySelector('.guess');
  const guess = engine.search && engine.info?.pv?.[0];
  if (!layer || !guess) {
    layer?.replaceChildren();
    return;
  }
  const [fx, fy] = place(guess.from);
  const [tx, ty] = place(guess.to);
  const length = Math.hypot(tx - fx, ty - fy);
  const ux = (tx - fx) / length;
  const uy = (ty - fy) / length;
  const [ex, ey] = [tx - ux * 30, ty - uy * 30];
  const side = engine.search.side;
  layer.replaceChildren(
    s('path', { class: `engine-arrow ${side}`, d: `M${fx + ux * 30} ${fy + uy * 30}L${ex - ux * 14} ${ey - uy * 14}` }),
    s('path', {
      class: `engine-arrowhead ${side}`,
      d: `M${ex} ${ey}L${ex - ux * 26 - uy * 15} ${ey - uy * 26 + ux * 15}L${ex - ux * 26 + uy * 15} ${ey - uy * 26 - ux * 15}Z`,
    }),
  );
}

function renderEngine() {
  const box = $('#engine');
  const search = engine.search;
  const total = state.entries.length;
  box.dataset.engineState = engine.side === 'none' ? 'off' : search ? 'thinking' : 'waiting';
  let status;
  if (engine.side === 'none') {
    status = 'Choose a side for the engine to play against it.';
  } else if (search) {
    status = `${capitalised(search.side)} is thinking${search.stopping ? ': moving now' : '…'}`;
  } else if (engine.note) {
    status = engine.note;
  } else if (state.position?.winner) {
    status = 'The game is over.';
  } else if (state.at < total) {
    status = 'An earlier position is shown: the engine plays again at the end of the game (End).';
  } else {
    status = `Your move; the engine plays ${engine.side}.`;
  }
  $('#engine-status').textContent = status;
  $('[data-engine-stop]').disabled = !search || search.id === null || search.stopping;

  const info = engine.info;
  box.classList.toggle('has-info', info !== null);
  const depth = $('[data-engine-depth]');
  depth.textContent = info?.depth ? String(info.depth) : '–';
  depth.title = info?.seldepth ? `selective depth ${info.seldepth}` : '';
  const [score, side] = scoreText(info?.score);
  const scoreBox = $('[data-engine-score]');
  scoreBox.textContent = score;
  scoreBox.className = side;
  $('[data-engine-nodes]').textContent = info?.nodes !== undefined
    ? `${count(info.nodes)}${info.nps ? ` · ${count(info.nps)}/s` : ''}` : '–';
  $('[data-engine-elapsed]').textContent = info?.time !== undefined ? `${(info.time / 1000).toFixed(1)} s` : '–';
  const pv = $('[data-engine-pv]');
  const moves = info?.pv ?? [];
  pv.replaceChildren(...moves.map((mv, i) => h('span', { class: i === 0 ? 'first' : '', title: mv.command }, mv.uci)));
  pv.dataset.commands = moves.map((mv) => mv.command).join(',');
  pv.title = moves.length > 0 ? `As commands: ${moves.map((mv) => mv.command).join(' · ')}` : '';
}

// ---------------------------------------------------------------------------------------------
// The address: `?moves=0314,9484&at=1` (four digits per command, or four integers joined by
// dots when one is not a single digit); `at` is left out at the end of the game.

function encode(command) {
  const parts = command.split(' ');
  return parts.every((part) => /^\d$/.test(part)) ? parts.join('') : parts.join('.');
}

function decode(token) {
  if (/^\d{4}$/.test(token)) return token.split('').join(' ');
  return token.split('.').join(' ');
}

function syncUrl() {
  const params = new URLSearchParams();
  const total = state.entries.length;
  if (total > 0) params.set('moves', state.entries.map((e) => encode(e.command)).join(','));
  if (state.at < total) params.set('at', String(state.at));
  const query = params.toString().replaceAll('%2C', ',');
  const url = query ? `${location.pathname}?${query}` : location.pathname;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, '', url);
}

function fromUrl() {
  const params = new URLSearchParams(location.search);
  const moves = params.get('moves');
  const commands = moves ? moves.split(',').filter(Boolean).map(decode) : [];
  const at = params.has('at') ? Number.parseInt(params.get('at'), 10) : commands.length;
  return { commands, at: Number.isFinite(at) ? at : commands.length };
}

// ---------------------------------------------------------------------------------------------
// Input: clicks, drags, keys, buttons

function clickPoint(point) {
  const position = state.position;
  if (!position) return;
  if (engineToMove()) {
    explainBox.textContent = 'The engine is to move: wait for it, or press Move now.';
    return;
  }
  const key = point.join();
  const isMovable = position.moves.some((m) => m.from.join() === key);
  if (isMovable) {
    state.selected = same(state.selected, point) ? null : point;
    explainBox.textContent = '';
    render();
  } else if (state.selected) {
    attempt(state.selected, point);
  } else {
    const piece = position.pieces.find((p) => p.point.join() === key);
    if (piece && position.winner === null && piece.color === position.turn) {
      // The server lists every piece of the side to move that has a move: this one has none.
      explainBox.textContent = `The ${piece.piece} on (${key}) has no valid move.`;
      state.refused = point;
      render();
    } else if (piece) {
      whyNot(point);
    }
  }
}

function svgPoint(event) {
  const matrix = board.getScreenCTM();
  if (!matrix) return null;
  const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  return [p.x, p.y];
}

let press = null;

board.addEventListener('pointerdown', (event) => {
  if (event.button !== 0) return;
  const element = event.target.closest('[data-point]');
  if (!element) return;
  const point = [Number(element.dataset.x), Number(element.dataset.y)];
  press = { point, x: event.clientX, y: event.clientY, dragging: false, floating: null, element };
  board.setPointerCapture(event.pointerId);
  event.preventDefault();
});

board.addEventListener('pointermove', (event) => {
  if (!press) return;
  const movable = state.position && playableMoves().some((m) => same(m.from, press.point));
  if (!press.dragging) {
    if (!movable || Math.hypot(event.clientX - press.x, event.clientY - press.y) < 6) return;
    press.dragging = true;
    state.selected = press.point;
    explainBox.textContent = '';
    render();
    const piece = state.position.pieces.find((p) => same(p.point, press.point));
    board.querySelector(`[data-point="${press.point.join()}"]`)?.classList.add('dragging-from');
    press.floating = pieceNode(piece, 0, 0);
    press.floating.classList.add('floating');
    press.floating.removeAttribute('data-piece');
    board.append(press.floating);
  }
  const at = svgPoint(event);
  if (at) press.floating.setAttribute('transform', `translate(${at[0]} ${at[1]})`);
});

function endPress(event, cancelled) {
  if (!press) return;
  const { point, dragging, floating } = press;
  press = null;
  floating?.remove();
  if (cancelled) {
    render();
    return;
  }
  if (!dragging) {
    clickPoint(point);
    return;
  }
  const at = svgPoint(event);
  const target = at && pointAt(...at);
  if (!target || same(target, point)) {
    render();
  } else {
    attempt(point, target);
  }
}

board.addEventListener('pointerup', (event) => endPress(event, false));
board.addEventListener('pointercancel', (event) => endPress(event, true));

function flip() {
  state.flipped = !state.flipped;
  render();
}

document.addEventListener('keydown', (event) => {
  if (typing(event) || event.altKey || event.ctrlKey || event.metaKey) return;
  const keys = {
    ArrowLeft: () => goTo(wantedAt - 1),
    ArrowRight: () => goTo(wantedAt + 1),
    Home: () => goTo(0),
    End: () => goTo(state.entries.length),
    f: flip,
    F: flip,
    Escape: () => {
      state.selected = null;
      render();
    },
  };
  const action = keys[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
});

for (const button of document.querySelectorAll('[data-nav]')) {
  button.addEventListener('click', () => {
    const total = state.entries.length;
    const targets = { first: 0, prev: wantedAt - 1, next: wantedAt + 1, last: total };
    goTo(targets[button.dataset.nav]);
  });
}
slider.addEventListener('input', () => goTo(Number(slider.value)));
$('[data-flip]').addEventListener('click', flip);
$('[data-new-game]').addEventListener('click', newGame);
$('[data-undo]').addEventListener('click', undo);
$('[data-redo]').addEventListener('click', redo);
$('[data-import-go]').addEventListener('click', () => importText($('[data-import]').value));
$('#upload').addEventListener('change', async (event) => {
  const text = await readFile(event.target);
  if (text === null) return;
  $('[data-import]').value = text;
  importText(text);
  event.target.value = '';
});
$('[data-example]').addEventListener('click', async (event) => {
  const response = await fetch(event.currentTarget.dataset.example);
  const text = await response.text();
  $('[data-import]').value = text;
  importText(text);
});
$('[data-export]').addEventListener('click', () => serial(async () => {
  download('duck-game.in', await exported());
}));
/** Puts `text` on the clipboard and says so. */
async function copy(text, refused) {
  const copied = $('#copied');
  try {
    await navigator.clipboard.writeText(text);
    copied.textContent = 'Copied.';
  } catch {
    copied.textContent = refused;
  }
  setTimeout(() => { copied.textContent = ''; }, 2500);
}
$('[data-copy]').addEventListener('click', () => serial(async () => {
  await copy(await exported(), 'The browser refused the clipboard; use Download.');
}));
$('[data-copy-fen]').addEventListener('click', () => serial(async () => {
  if (state.position) await copy(state.position.fen, 'The browser refused the clipboard; select the FEN below.');
}));
const sideSelect = $('[data-engine-side]');
sideSelect.addEventListener('change', () => {
  engine.side = ['red', 'blue'].includes(sideSelect.value) ? sideSelect.value : 'none';
  engine.failed = null;
  engine.note = '';
  // The player's side at the bottom.
  if (engine.side !== 'none') state.flipped = engine.side === 'red';
  render();
});
const timeSelect = $('[data-engine-time]');
timeSelect.addEventListener('change', () => {
  engine.time = Number(timeSelect.value) || 1000;
});
$('[data-engine-stop]').addEventListener('click', moveNow);
// What the browser may have kept in the fields from before a reload is not what the page does.
sideSelect.value = engine.side;
timeSelect.value = String(engine.time);
const styleSelect = $('[data-style]');
styleSelect.value = state.style;
styleSelect.addEventListener('change', () => {
  state.style = styleSelect.value === 'western' ? 'western' : 'chinese';
  localStorage.setItem(STYLE_KEY, state.style);
  render();
});

// ---------------------------------------------------------------------------------------------
// Start: the game in the address, or a new one.

serial(async () => {
  const { commands, at } = fromUrl();
  try {
    await loadGame(commands, at);
  } catch (error) {
    await loadGame([], 0);
    throw new Error(`The game in the address could not be loaded: ${error.message}`);
  } finally {
    wantedAt = state.at;
    render();
    document.body.dataset.ready = 'true';
  }
});
