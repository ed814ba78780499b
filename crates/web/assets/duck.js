// The Duck Chess page. The game is its list of commands; every position, reachable point,
// result and reason comes from the server (/api/duck/...), and so do the engine's searches. The
// page draws them and sends back the command the player (or the engine) chose.

import { $, api, apiLines, download, h, moveSound, readFile, s, show, soundSwitch, typing } from './common.js';

const CELL = 100;
const MARGIN = 105;
const ROWS = 10;
const COLS = 9;
/** Letters of the Western style: the FEN letters of the pieces, upper case. */
const LETTERS = { car: 'R', horse: 'H', elephant: 'E', guard: 'G', captain: 'C', duck: 'D', soldier: 'S' };
const STYLE_KEY = 'arbiter.duck.style';
const ENGINE_KEY = 'arbiter.duck.engine';

const board = $('#board');
const movesList = $('#moves');
const slider = $('#slider');
const explainBox = $('#explain');
const errorBox = $('#error');

const state = {
  /**
   * The game's lines: `main`, the game's own, and each variation, a line that leaves another
   * (`parent`) after `start` commands. A line's commands are its parent's first `start` ones and
   * then its own `entries`, each {command, result, valid, reason} as the server judged it.
   */
  lines: [{ id: 'main', parent: null, start: 0, entries: [] }],
  /** The line shown, and how many of its commands the shown position follows. */
  line: 'main',
  at: 0,
  /** The server's description of the shown position. */
  position: null,
  /** Commands taken back by undo from the end of the line shown, the last one on top. */
  redo: [],
  /** The number given to the next variation. */
  nextVariation: 1,
  /** Bumped at each change of the lines, so that the move list is rebuilt only then. */
  version: 0,
  /** The point of the selected piece, [x, y]. */
  selected: null,
  /** The point a refused move went to, flashed once. */
  refused: null,
  /** The point that has the keyboard's focus ring (the one board point in the tab order). */
  focus: [0, 4],
  flipped: false,
  /** The FEN the game starts from, set up in the editor; null for the official start. */
  fen: null,
  style: localStorage.getItem(STYLE_KEY) === 'western' ? 'western' : 'chinese',
};

const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
const lineOf = (id) => state.lines.find((line) => line.id === id) ?? state.lines[0];
const shownLine = () => lineOf(state.line);
const lineEnd = (line) => line.start + line.entries.length;
/** The first `n` commands along `line`. */
function commandsOf(line, n) {
  if (!line.parent || n > line.start) {
    const own = line.entries.slice(0, Math.max(0, n - line.start)).map((entry) => entry.command);
    return line.parent ? [...commandsOf(lineOf(line.parent), line.start), ...own] : own;
  }
  return commandsOf(lineOf(line.parent), n);
}
/** The line that holds the `ply`-th command (1-based) along `line`. */
function ownerOf(line, ply) {
  let owner = line;
  while (owner.parent && ply <= owner.start) owner = lineOf(owner.parent);
  return owner;
}
const commandsUpTo = (n) => commandsOf(shownLine(), n);
/** The line played, as one string: what a search was asked about. */
const gameKey = () => `${state.fen ?? ''}|${state.line}:${commandsUpTo(lineEnd(shownLine())).join(',')}`;

/** A request about the game, which starts from `state.fen` when one is set up. */
const withFen = (body) => (state.fen ? { ...body, fen: state.fen } : body);
const duckApi = (path, body) => api(path, withFen(body));
const duckLines = (path, body, signal) => apiLines(path, withFen(body), signal);

// Requests run one after the other, so that replies arrive in the order they were asked for.
let queue = Promise.resolve();
function serial(task) {
  queue = queue.then(task).catch((error) => show(errorBox, error.message));
  return queue;
}

// ---------------------------------------------------------------------------------------------
// Positions: every position the server described is kept, by the commands that reach it, so that
// stepping through a game asks the server nothing once its positions have been fetched.

const positions = new Map();
const POSITIONS_KEPT = 4000;
function keep(commands, position) {
  if (positions.size >= POSITIONS_KEPT) positions.delete(positions.keys().next().value);
  positions.set(commands.join(','), position);
}
/** The position after `commands`, from the cache or the server. */
async function positionAfter(commands) {
  const known = positions.get(commands.join(','));
  if (known) return known;
  const position = await duckApi('/api/duck/position', { commands, at: commands.length });
  keep(commands, position);
  return position;
}

/** Fetches, one at a time, the positions near the shown one that are not kept yet. */
let prefetching = null;
const PREFETCH = 60;
function prefetch() {
  const line = shownLine();
  const end = lineEnd(line);
  const wanted = [];
  for (let n = Math.max(0, state.at - PREFETCH); n <= Math.min(end, state.at + PREFETCH); n++) {
    const commands = commandsOf(line, n);
    if (!positions.has(commands.join(','))) wanted.push(commands);
  }
  const run = { cancelled: false };
  if (prefetching) prefetching.cancelled = true;
  prefetching = run;
  document.body.dataset.prefetch = wanted.length ? 'busy' : 'done';
  if (!wanted.length) return;
  (async () => {
    for (const commands of wanted) {
      if (run.cancelled) return;
      await positionAfter(commands).catch(() => {});
    }
    if (!run.cancelled) document.body.dataset.prefetch = 'done';
  })();
}

/** Replaces the game by the main line `commands` and shows the position after `at` of them. */
async function loadGame(commands, at) {
  const reply = await duckApi('/api/duck/game', { commands, at });
  state.lines = [{ id: 'main', parent: null, start: 0, entries: reply.entries }];
  state.line = 'main';
  state.nextVariation = 1;
  state.version += 1;
  state.at = reply.position.ply;
  state.position = reply.position;
  keep(commands.slice(0, state.at), reply.position);
  state.selected = null;
  show(errorBox, '');
  return reply;
}

/** Adds a variation leaving the main line after `start` commands with `commands`, and shows it. */
async function loadVariation(start, commands, at) {
  const main = lineOf('main');
  const whole = [...commandsOf(main, start), ...commands];
  const reply = await duckApi('/api/duck/game', { commands: whole, at: Math.min(at, whole.length) });
  const line = { id: `v${state.nextVariation++}`, parent: 'main', start, entries: reply.entries.slice(start) };
  state.lines.push(line);
  state.version += 1;
  state.line = line.id;
  state.at = reply.position.ply;
  state.position = reply.position;
  keep(whole.slice(0, state.at), reply.position);
}

let wanted = { line: 'main', at: 0 };
/** Which way the grid drawn faces (null before it is drawn). */
let gridFlipped = null;
/** The version of the lines the move list shows. */
let renderedVersion = -1;
/** Shows the position after `n` commands of the line `id` (the line shown by default). */
function goTo(n, id = state.line) {
  const line = lineOf(id);
  wanted = { line: line.id, at: Math.max(0, Math.min(n, lineEnd(line))) };
  if (wanted.at === state.at && wanted.line === state.line && state.position) return;
  serial(async () => {
    const target = wanted;
    if (target.at === state.at && target.line === state.line) return;
    const position = await positionAfter(commandsOf(lineOf(target.line), target.at));
    state.line = target.line;
    state.at = target.at;
    state.position = position;
    state.selected = null;
    explainBox.textContent = '';
    render();
  });
}

/**
 * Puts the valid `entry`, played after `at` commands of the line shown, in the game: at the end
 * of the line it extends it; where the line (or another) already goes on with the same command
 * it follows that; anywhere else it starts a variation. The game's own continuation is kept.
 */
function placeMove(at, entry) {
  const line = shownLine();
  state.redo = [];
  if (at === lineEnd(line)) {
    line.entries.push(entry);
    state.version += 1;
    return { line: line.id, at: at + 1 };
  }
  const key = [...commandsOf(line, at), entry.command].join(',');
  const candidates = [line, ...state.lines.filter((other) => other !== line)];
  const known = candidates.find((other) => lineEnd(other) > at && commandsOf(other, at + 1).join(',') === key);
  if (known) return { line: known.id, at: at + 1 };
  const variation = { id: `v${state.nextVariation++}`, parent: ownerOf(line, at + 1).id, start: at, entries: [entry] };
  state.lines.push(variation);
  state.version += 1;
  return { line: variation.id, at: at + 1 };
}

/**
 * Asks the server to judge `from` → `to` after the shown position and plays it when valid (the
 * reply carries the position after it); an invalid one is explained and clears the selection.
 * Resolves to whether it was played.
 */
async function play(from, to) {
  const command = `${from[0]} ${from[1]} ${to[0]} ${to[1]}`;
  const before = commandsUpTo(state.at);
  const reply = await duckApi('/api/duck/move', { commands: before, command });
  state.selected = null;
  if (reply.entry.valid) {
    keep([...before, command], reply.position);
    const shown = placeMove(state.at, reply.entry);
    state.line = shown.line;
    state.at = shown.at;
    wanted = shown;
    state.position = reply.position;
    explainBox.textContent = '';
    moveSound();
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
    const reply = await duckApi('/api/duck/move', { commands: commandsUpTo(state.at), command });
    explainBox.textContent = reply.entry.valid ? '' : reply.entry.reason;
    state.refused = point;
    render();
  });
}

function newGame() {
  serial(async () => {
    resetClock();
    setFen(null);
    await loadGame([], 0);
    state.redo = [];
    wanted = { line: state.line, at: 0 };
    explainBox.textContent = '';
    render();
  });
}

/** Whether the engine's side is to move in the position `state` shows (game over or not). */
const engineSideToMove = () => engine.side !== 'none' && state.position?.winner === null
  && state.position.turn === engine.side;

/** Removes `line`'s variations that leave it after more than `n` commands, with theirs. */
function prune(line, n) {
  const gone = new Set();
  const drop = (parent, from) => {
    for (const other of state.lines) {
      if (other.parent === parent && other.start > from && !gone.has(other.id)) {
        gone.add(other.id);
        drop(other.id, -1);
      }
    }
  };
  drop(line.id, n);
  state.lines = state.lines.filter((other) => !gone.has(other.id));
}

/**
 * Takes back the last command of the line shown; against the engine, also the commands before
 * it until the player is to move (the engine's reply and the player's move), so that the engine
 * does not at once play again what was taken back. A variation left empty is closed.
 */
function undo() {
  if (clock.over) return;
  serial(async () => {
    do {
      const line = shownLine();
      if (line.entries.length === 0) break;
      state.redo.push(line.entries.pop().command);
      prune(line, lineEnd(line));
      state.version += 1;
      if (line.entries.length === 0 && line.parent) {
        state.lines = state.lines.filter((other) => other !== line);
        prune(line, -1);
        state.line = line.parent;
        state.redo = [];
        state.at = line.start;
      } else {
        state.at = lineEnd(line);
      }
      state.position = await positionAfter(commandsUpTo(state.at));
    } while (state.at === lineEnd(shownLine()) && shownLine().entries.length > 0 && engineSideToMove());
    state.selected = null;
    wanted = { line: state.line, at: state.at };
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
      const line = shownLine();
      const before = commandsOf(line, lineEnd(line));
      const reply = await duckApi('/api/duck/move', { commands: before, command });
      line.entries.push(reply.entry);
      state.version += 1;
      state.at = lineEnd(line);
      state.position = reply.position ?? await positionAfter([...before, command]);
      if (reply.position) keep([...before, command], reply.position);
    } while (state.redo.length > 0 && engineSideToMove());
    state.selected = null;
    wanted = { line: state.line, at: state.at };
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
      // An official input starts from the official start, a new game.
      setFen(null);
      resetClock();
      state.lines = [{ id: 'main', parent: null, start: 0, entries: reply.entries }];
      state.line = 'main';
      state.version += 1;
      state.at = reply.position.ply;
      state.position = reply.position;
      keep(reply.entries.map((entry) => entry.command), reply.position);
      state.selected = null;
      state.redo = [];
      wanted = { line: state.line, at: state.at };
      show(importError, '');
      show(importWarning, reply.warning);
      explainBox.textContent = '';
      render();
      // An imported game is evaluated at once, for the graph.
      evaluateGame();
    } catch (error) {
      show(importError, error.message);
    }
    render();
  });
}

async function exported() {
  const reply = await duckApi('/api/duck/game', { commands: commandsUpTo(lineEnd(shownLine())) });
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
  // The points are drawn anew: the focused one takes the focus back, without scrolling.
  const hadFocus = board.contains(document.activeElement);
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
      const what = piece ? piece.piece : 'empty';
      const marks = [movable.has(key) && 'can move', same(state.selected, point) && 'selected', reachable.has(key) && 'reachable'].filter(Boolean);
      points.push(s('g', {
        class: classes.join(' '),
        'data-point': key,
        'data-x': x,
        'data-y': y,
        'data-reachable': reachable.has(key),
        tabindex: same(state.focus, point) ? 0 : -1,
        role: 'button',
        'aria-label': `(${key}) ${what}${marks.length ? `, ${marks.join(', ')}` : ''}`,
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
      s('g', { class: 'threat', 'pointer-events': 'none' }),
    );
  }
  board.querySelector('.under').replaceChildren(...under);
  board.querySelector('.points').replaceChildren(...points);
  if (hadFocus) board.querySelector(`[data-point="${state.focus.join()}"]`)?.focus({ preventScroll: true });
  board.querySelector('.arrows').replaceChildren(...arrows);
  renderGuess();
  renderThreat();
  renderEditor();
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
  const total = lineEnd(shownLine());
  syncClock();
  // The game ends on the board (a captain captured) or off it, at its end: on time, by resigning.
  const ended = clock.over && state.at === total ? clock.over : null;
  const winner = position.winner ?? ended?.winner ?? null;
  const over = winner !== null;
  turn.dataset.turn = over ? 'over' : position.turn;
  turn.querySelector('.disc').className = `disc ${over ? winner : position.turn}`;
  const viewing = state.at < total ? ` · viewing ${state.at} of ${total}` : '';
  $('#turn-text').textContent = over
    ? `Game over · ${capitalised(winner)} wins${viewing}`
    : `${capitalised(position.turn)} to move${viewing}`;
  if (over && state.at === total) evaluateGame();
  if (over) {
    const loser = winner === 'red' ? 'blue' : 'red';
    banner.className = `banner ${winner}`;
    banner.dataset.reason = position.winner ? 'captain' : ended.reason;
    banner.textContent = position.winner
      ? `${capitalised(winner)} wins: the ${loser} captain is captured`
      : ended.reason === 'time'
        ? `${capitalised(winner)} wins: ${loser} ran out of time`
        : `${capitalised(winner)} wins: ${loser} resigned`;
  } else {
    banner.className = 'banner hidden';
    banner.textContent = '';
  }
  const notes = position.checks.map((check) => {
    const names = check.attackers.map((p) => `${pieces.get(p.join())?.piece} (${p.join(',')})`);
    return `Check: the ${check.color} captain (${check.captain.join(',')}) is attacked by ${names.join(', ')}`;
  });
  show($('#check-note'), notes.join('\n'));

  renderMoves();
  $('#ply-count').textContent = `${total} command${total === 1 ? '' : 's'}`;
  $('[data-fen]').value = position.fen;

  slider.max = String(total);
  slider.value = String(state.at);
  $('[data-nav="first"]').disabled = state.at === 0;
  $('[data-nav="prev"]').disabled = state.at === 0;
  $('[data-nav="next"]').disabled = state.at === total;
  $('[data-nav="last"]').disabled = state.at === total;
  // A game lost on time or resigned is over: its moves stay.
  $('[data-undo]').disabled = shownLine().entries.length === 0 || clock.over !== null;
  $('[data-redo]').disabled = state.redo.length === 0 || clock.over !== null;
  syncUrl();
  syncEngine();
  syncAnalysis();
  prefetch();
}

/** A move in the readable notation the server wrote, with the piece drawn as the board draws it. */
function written(notation) {
  return state.style === 'western' ? notation.letter : notation.glyph;
}

/** One entry of the move list: the `ply`-th command of `line`. */
function moveItem(line, ply, entry) {
  const side = entry.valid ? entry.result.split(' ', 1)[0] : 'invalid';
  return h('li', {
    'data-command': entry.command,
    'data-result': entry.result,
    'data-ply': ply,
    'data-line': line.id,
    class: line.parent ? 'in-variation' : null,
    tabindex: -1,
  },
  h('span', { class: 'n' }, ply),
  h('span', { class: 'cmd', title: `${entry.command} · ${entry.result}` },
    h('span', { class: 'readable' }, entry.notation ? written(entry.notation) : entry.command),
    h('span', { class: 'official' }, entry.command)),
  h('span', { class: `res ${side}` }, entry.result, entry.reason && h('span', { class: 'why' }, entry.reason)));
}

/** The items of `line` from its first own command, each followed by the variations leaving it there. */
function lineItems(line, depth) {
  const items = [];
  const variations = (after) => state.lines
    .filter((other) => other.parent === line.id && other.start === after)
    .map((other) => h('li', { class: 'variation', 'data-variation': other.id, style: `--depth:${depth + 1}` },
      h('ol', { class: 'variation-moves', 'aria-label': `variation after command ${other.start}` }, lineItems(other, depth + 1))));
  line.entries.forEach((entry, i) => {
    const ply = line.start + i + 1;
    items.push(moveItem(line, ply, entry));
    items.push(...variations(ply - 1));
  });
  // A variation leaving the line at its end.
  if (line.entries.length > 0 || line.parent === null) items.push(...variations(lineEnd(line)));
  return items;
}

/** The move list: rebuilt when the game changed; stepping through it moves the marker. */
function renderMoves() {
  if (renderedVersion !== state.version) {
    renderedVersion = state.version;
    const hadFocus = movesList.contains(document.activeElement);
    movesList.replaceChildren(
      h('li', { class: 'start', 'data-ply': 0, 'data-line': 'main', tabindex: -1 },
        h('span', { class: 'n' }, '0'), h('span', {}, 'Start position')),
      ...lineItems(lineOf('main'), 0));
    if (hadFocus) currentItem()?.focus({ preventScroll: true });
  }
  for (const item of movesList.querySelectorAll('[aria-current="true"]')) item.setAttribute('aria-current', 'false');
  const current = currentItem();
  current?.setAttribute('aria-current', 'true');
  // One item of the list is in the tab order: the current one.
  for (const item of movesList.querySelectorAll('li[tabindex="0"]')) item.tabIndex = -1;
  if (current) {
    current.tabIndex = 0;
    scrollInside(movesList, current);
  }
}

/** The list item of the position shown. */
function currentItem() {
  if (state.at === 0) return movesList.querySelector('li.start');
  const owner = ownerOf(shownLine(), state.at);
  return movesList.querySelector(`li[data-line="${owner.id}"][data-ply="${state.at}"]`);
}

/** Scrolls `list` itself so that `item` is seen; the page does not move. */
function scrollInside(list, item) {
  const outer = list.getBoundingClientRect();
  const inner = item.getBoundingClientRect();
  if (inner.top < outer.top) list.scrollTop -= outer.top - inner.top;
  else if (inner.bottom > outer.bottom) list.scrollTop += inner.bottom - outer.bottom;
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

/** Whether the engine is to move now: its side to move at the end of the line played. */
function engineToMove() {
  return engineSideToMove() && state.at === lineEnd(shownLine()) && !clock.over;
}

/** The moves the player may make in the position shown: none where the engine's side is to move. */
function playableMoves() {
  return engineSideToMove() || editor.open || clock.over ? [] : state.position.moves;
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
  // On a clock, the engine keeps to its time per move but never spends more than a twentieth of
  // what it has left.
  const movetime = clockOn() ? Math.max(100, Math.min(engine.time, Math.floor(remaining(engine.side) / 20))) : engine.time;
  const request = { commands: commandsUpTo(lineEnd(shownLine())), movetime };
  try {
    for await (const line of duckLines('/api/duck/engine', request, search.controller.signal)) {
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
    if (gameKey() !== search.key || state.at !== lineEnd(shownLine())) {
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
  layer.replaceChildren(...engineArrow(guess, engine.search.side));
}

/** An arrow of the engine's from `mv.from` to `mv.to`, in the colour of `side`. */
function engineArrow(mv, side) {
  const [fx, fy] = place(mv.from);
  const [tx, ty] = place(mv.to);
  const length = Math.hypot(tx - fx, ty - fy);
  const ux = (tx - fx) / length;
  const uy = (ty - fy) / length;
  const [ex, ey] = [tx - ux * 30, ty - uy * 30];
  return [
    s('path', { class: `engine-arrow ${side}`, d: `M${fx + ux * 30} ${fy + uy * 30}L${ex - ux * 14} ${ey - uy * 14}` }),
    s('path', {
      class: `engine-arrowhead ${side}`,
      d: `M${ex} ${ey}L${ex - ux * 26 - uy * 15} ${ey - uy * 26 + ux * 15}L${ex - ux * 26 + uy * 15} ${ey - uy * 26 - ux * 15}Z`,
    }),
  ];
}

function renderEngine() {
  const box = $('#engine');
  const search = engine.search;
  const total = lineEnd(shownLine());
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
    status = 'An earlier position is shown: the engine plays again at the end of the line (End).';
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
  pv.replaceChildren(...pvNodes(moves));
  pv.dataset.commands = moves.map((mv) => mv.command).join(',');
  pv.title = moves.length > 0 ? `As commands: ${moves.map((mv) => mv.command).join(' · ')}` : '';
}

// ---------------------------------------------------------------------------------------------
// Clocks against the engine. With a time control (`5+3`: five minutes, three seconds added after
// each move) and a side for the engine, each side has a clock; the side to move at the end of the
// game has its clock running (stepping back through the game does not stop it). A move adds the
// increment to the clock of the side that made it. A clock that reaches zero loses the game, and
// the player may resign; the banner says why the game ended. The clocks are the page's: the
// server keeps no game.

const clock = {
  /** {base, increment} in milliseconds, or null for no clock. */
  control: null,
  /** What each side had when its clock last stopped. */
  ms: { red: 0, blue: 0 },
  /** The side whose clock runs, and since when (performance.now()). */
  turn: null,
  since: null,
  /** How the game ended off the board: {winner, reason: 'time' | 'resign'}. */
  over: null,
  timer: null,
};

const clockOn = () => clock.control !== null && engine.side !== 'none';

/** What `side` has left now, in milliseconds. */
function remaining(side) {
  const running = clock.turn === side && clock.since !== null ? performance.now() - clock.since : 0;
  return Math.max(0, clock.ms[side] - running);
}

/** Sets both clocks to the control's time, stopped, and forgets how the last game ended. */
function resetClock() {
  const base = clock.control?.base ?? 0;
  clock.ms = { red: base, blue: base };
  clock.turn = null;
  clock.since = null;
  clock.over = null;
}

/** Stops the running clock, keeping what its side has left. */
function stopClock() {
  if (clock.turn) clock.ms[clock.turn] = remaining(clock.turn);
  clock.since = null;
}

/** Runs the clock of the side to move at the end of the game, when the end is shown. */
function syncClock() {
  if (!clockOn() || clock.over) {
    stopClock();
  } else if (state.position && state.at === lineEnd(shownLine())) {
    const turn = state.position.turn;
    if (state.position.winner !== null) {
      stopClock();
    } else if (clock.turn !== turn) {
      // A move was made: its side gets the increment, the other's clock starts.
      if (clock.turn) clock.ms[clock.turn] = remaining(clock.turn) + clock.control.increment;
      clock.turn = turn;
      clock.since = performance.now();
    } else if (clock.since === null) {
      clock.since = performance.now();
    }
  }
  if (clock.since !== null && !clock.timer) clock.timer = setInterval(tick, 100);
  if (clock.since === null && clock.timer) {
    clearInterval(clock.timer);
    clock.timer = null;
  }
  renderClocks();
}

/** The running clock's second hand; a flag that falls ends the game. */
function tick() {
  if (clock.turn && clock.since !== null && remaining(clock.turn) <= 0) {
    stopClock();
    clock.over = { winner: clock.turn === 'red' ? 'blue' : 'red', reason: 'time' };
    render();
    return;
  }
  renderClocks();
}

/** A time on a clock: 4:59, and tenths under ten seconds (0:09.4). */
function clockText(ms) {
  const seconds = Math.ceil(ms / 100) / 10;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds - minutes * 60;
  return seconds < 10 ? `0:0${rest.toFixed(1)}` : `${minutes}:${String(Math.floor(rest)).padStart(2, '0')}`;
}

function renderClocks() {
  const box = $('#clocks');
  box.classList.toggle('hidden', !clockOn());
  for (const side of ['red', 'blue']) {
    const face = box.querySelector(`[data-clock="${side}"]`);
    const ms = Math.round(remaining(side));
    face.dataset.ms = String(ms);
    face.querySelector('.time').textContent = clockText(ms);
    face.classList.toggle('running', clock.turn === side && clock.since !== null);
    face.classList.toggle('flagged', clock.over?.reason === 'time' && clock.over.winner !== side);
    face.querySelector('.who').textContent = side === engine.side ? `${capitalised(side)} · engine` : `${capitalised(side)} · you`;
  }
  const resign = $('[data-resign]');
  resign.disabled = engine.side === 'none' || clock.over !== null || state.position?.winner !== null;
}

const controlSelect = $('[data-clock-control]');
controlSelect.addEventListener('change', () => {
  const [minutes, seconds] = controlSelect.value.split('+').map(Number);
  clock.control = Number.isFinite(minutes) && Number.isFinite(seconds)
    ? { base: minutes * 60000, increment: seconds * 1000 } : null;
  resetClock();
  render();
});
$('[data-resign]').addEventListener('click', () => {
  if (engine.side === 'none' || clock.over || state.position?.winner) return;
  stopClock();
  clock.over = { winner: engine.side, reason: 'resign' };
  render();
});

// ---------------------------------------------------------------------------------------------
// The analysis board. Switched on, the server's engine searches the position shown, whatever it
// is (played, imported, stepped to), for its best lines (MultiPV), up to the server's time cap,
// and starts again on each position shown; the evaluation bar beside the board shows the best
// line's score. While the engine thinks for its side, the analysis waits: the server's cores are
// few. "Show threat" asks what the other side would play if it were its move (the server passes
// the turn). The evaluation graph is a short search of every position of the line shown
// (/api/duck/engine/evaluate), the commands that lost their side more than a soldier and a half
// marked; a click on a point shows that position.

const ANALYSIS_LINES = 3;
/** The server's time cap per search, in milliseconds: the longest an analysis runs. */
const ANALYSIS_TIME = 10000;
const THREAT_TIME = 1000;

const analysis = {
  on: false,
  /** The position (`shownKey`) the lines are of, and the search under way: {key, controller}. */
  key: null,
  search: null,
  /** The last iteration of each line, best first. */
  lines: [],
  note: '',
  threat: { on: false, key: null, search: null, line: null, side: null },
  /** The evaluated game: {line, commands, points, complete}; `graphing` while it is evaluated. */
  graph: null,
  graphing: null,
};

/** The position shown, as the key of what the analysis searched. */
const shownKey = () => `${state.fen ?? ''}|${commandsUpTo(state.at).join(',')}`;

/** Starts or drops the analysis and the threat to fit the position shown. */
function syncAnalysis() {
  const key = shownKey();
  const waiting = engine.search !== null;
  const search = analysis.search;
  if (search && (!analysis.on || search.key !== key || waiting)) {
    search.controller.abort();
    analysis.search = null;
    if (search.key === key) analysis.key = null;
  }
  if (analysis.on && !waiting && !analysis.search && analysis.key !== key) analyse(key);
  const threat = analysis.threat;
  if (threat.search && (!threat.on || threat.search.key !== key)) {
    threat.search.controller.abort();
    threat.search = null;
  }
  if (threat.on && !threat.search && threat.key !== key) findThreat(key);
  renderAnalysis();
}

/** Runs `request` on the engine, calling `each` with every line; resolves when it ends. */
async function stream(request, search, each) {
  for await (const line of duckLines('/api/duck/engine', request, search.controller.signal)) {
    if (line.event === 'error') throw new Error(line.error);
    each(line);
  }
}

/** Searches the position `key` shown for its best lines, drawing each iteration. */
async function analyse(key) {
  const search = { key, controller: new AbortController() };
  analysis.search = search;
  analysis.key = key;
  analysis.lines = [];
  analysis.note = '';
  const request = { commands: commandsUpTo(state.at), movetime: ANALYSIS_TIME, multipv: ANALYSIS_LINES };
  try {
    await stream(request, search, (line) => {
      if (analysis.search !== search) return;
      if (line.event === 'info' && line.pv?.length) {
        analysis.lines[(line.multipv ?? 1) - 1] = line;
        renderAnalysis();
      } else if (line.event === 'best' && !line.move) {
        analysis.note = capitalised(line.reason ?? 'the engine has no move');
      }
    });
  } catch (error) {
    if (analysis.search !== search) return;
    analysis.note = error.status === 429
      ? 'The server\'s engine is busy; trying again in a moment…'
      : `The analysis failed: ${error.message}`;
    if (error.status === 429) {
      setTimeout(() => {
        if (analysis.key !== key || analysis.search) return;
        analysis.key = null;
        syncAnalysis();
      }, 1500);
    }
  }
  if (analysis.search !== search) return;
  analysis.search = null;
  renderAnalysis();
}

/** Asks what the side not to move would play in the position `key` if it were its move. */
async function findThreat(key) {
  const threat = analysis.threat;
  const search = { key, controller: new AbortController() };
  threat.search = search;
  threat.key = key;
  threat.line = null;
  threat.side = state.position.turn === 'red' ? 'blue' : 'red';
  const request = { commands: commandsUpTo(state.at), movetime: THREAT_TIME, threat: true };
  try {
    await stream(request, search, (line) => {
      if (threat.search === search && (line.event === 'best' || line.event === 'info')) threat.line = line;
    });
  } catch (error) {
    if (threat.search !== search) return;
    threat.line = { reason: error.status === 429 ? 'the server\'s engine is busy' : error.message };
    threat.key = null;
  }
  if (threat.search !== search) return;
  threat.search = null;
  renderAnalysis();
  renderThreat();
}

/** The threat as an arrow on the board. */
function renderThreat() {
  const layer = board.querySelector('.threat');
  const threat = analysis.threat;
  const mv = threat.on && threat.key === shownKey() && !threat.search && (threat.line?.move ?? threat.line?.pv?.[0]);
  layer?.replaceChildren(...(layer && mv ? engineArrow(mv, `${threat.side} threat`) : []));
}

/** A score's share of the evaluation bar that is red's, 0 to 1. */
function redShare(score) {
  if (!score) return 0.5;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-score.cp / 250));
}

/** A principal variation as text: each move in the engine's notation, the commands on hover. */
function pvNodes(moves) {
  return moves.map((mv, i) => h('span', { class: i === 0 ? 'first' : '', title: `${mv.command} · ${mv.uci}` },
    mv.notation ? written(mv.notation) : mv.uci));
}

function renderAnalysis() {
  const box = $('#analysis');
  const toggle = $('[data-analysis]');
  toggle.setAttribute('aria-pressed', String(analysis.on));
  toggle.textContent = analysis.on ? 'Analysis: on' : 'Analysis: off';
  box.dataset.analysisState = !analysis.on ? 'off' : analysis.search ? 'thinking' : 'done';
  const current = analysis.key === shownKey();
  const lines = analysis.on && current ? analysis.lines.filter(Boolean) : [];
  $('[data-analysis-lines]').replaceChildren(...lines.map((line) => {
    const [score, side] = scoreText(line.score);
    return h('li', {
      'data-analysis-line': String(line.multipv ?? 1),
      'data-score': score,
      'data-commands': line.pv.map((mv) => mv.command).join(','),
    }, h('span', { class: `score ${side}` }, score), h('span', { class: 'depth' }, `d${line.depth}`),
    h('span', { class: 'pv' }, ...pvNodes(line.pv)));
  }));
  let status = '';
  if (analysis.on) {
    if (engine.search) status = 'Waiting for the engine to move…';
    else if (analysis.note && current) status = analysis.note;
    else if (analysis.search) status = `Analysing${lines[0] ? ` · depth ${lines[0].depth}` : '…'}`;
    else if (current) status = 'Analysed to the server\'s time limit.';
  }
  $('#analysis-status').textContent = status;

  const bar = $('[data-eval-bar]');
  const best = lines[0]?.score;
  bar.classList.toggle('hidden', !analysis.on);
  bar.dataset.score = best ? scoreText(best)[0] : '';
  const share = redShare(best);
  bar.style.setProperty('--red-share', String(share));
  bar.title = best ? `Score for red: ${scoreText(best)[0]}` : 'No score yet';
  // The bar's red part stands at the red side of the board.
  bar.classList.toggle('flipped', state.flipped);

  const threat = analysis.threat;
  const threatToggle = $('[data-threat]');
  threatToggle.setAttribute('aria-pressed', String(threat.on));
  const threatBox = $('[data-threat-line]');
  // The threat is shown once its search has answered.
  const line = threat.on && threat.key === shownKey() && !threat.search ? threat.line : null;
  const moves = line?.pv ?? (line?.move ? [line.move] : []);
  threatBox.dataset.commands = moves.map((mv) => mv.command).join(',');
  threatBox.dataset.score = line?.score ? scoreText(line.score)[0] : '';
  if (!threat.on) threatBox.replaceChildren();
  else if (threat.search) threatBox.replaceChildren('Looking for the threat…');
  else if (moves.length) {
    threatBox.replaceChildren(`${capitalised(threat.side)} threatens `, ...pvNodes(moves.slice(0, 1)),
      line.score ? ` (${scoreText(line.score)[0]})` : '');
  } else threatBox.replaceChildren(line?.reason ? capitalised(line.reason) : '');
  renderGraph();
}

/** Evaluates every position of the line shown, for the graph. */
function evaluateGame() {
  const line = shownLine();
  const commands = commandsUpTo(lineEnd(line));
  const key = `${line.id}:${commands.join(',')}`;
  if (analysis.graphing === key || (analysis.graph && analysis.graph.key === key)) return;
  analysis.graphing = key;
  renderGraph();
  duckApi('/api/duck/engine/evaluate', { commands })
    .then((reply) => {
      if (analysis.graphing !== key) return;
      analysis.graph = { key, line: line.id, commands, points: reply.points, complete: reply.complete };
    })
    .catch((error) => {
      if (analysis.graphing === key) show(errorBox, `The evaluation failed: ${error.message}`);
    })
    .finally(() => {
      if (analysis.graphing === key) analysis.graphing = null;
      renderGraph();
    });
}

/** A point's height in the graph, 0 (blue wins) to 1 (red wins). */
function pointShare(point) {
  if (point.winner) return point.winner === 'red' ? 1 : 0;
  return redShare(point.score);
}

const GRAPH_WIDTH = 300;
const GRAPH_HEIGHT = 70;

function renderGraph() {
  const box = $('#graph');
  const graph = analysis.graph;
  const svg = $('[data-eval-graph]');
  box.dataset.state = analysis.graphing ? 'busy' : graph ? 'done' : 'none';
  $('[data-eval-go]').disabled = analysis.graphing !== null;
  if (!graph) {
    svg.replaceChildren();
    svg.classList.add('hidden');
    return;
  }
  svg.classList.remove('hidden');
  const last = Math.max(1, graph.points.length - 1);
  const at = ({ ply }, share) => [ply / last * GRAPH_WIDTH, (1 - share) * GRAPH_HEIGHT];
  const coords = graph.points.map((point) => at(point, pointShare(point)));
  const shown = graph.line === state.line ? state.at : -1;
  svg.replaceChildren(
    s('line', { class: 'middle', x1: 0, x2: GRAPH_WIDTH, y1: GRAPH_HEIGHT / 2, y2: GRAPH_HEIGHT / 2 }),
    s('path', { class: 'red-area', d: `M0 ${GRAPH_HEIGHT}${coords.map(([x, y]) => `L${x} ${y}`).join('')}L${coords.at(-1)[0]} ${GRAPH_HEIGHT}Z` }),
    s('polyline', { class: 'curve', points: coords.map(([x, y]) => `${x},${y}`).join(' ') }),
    ...graph.points.map((point, i) => {
      const [cx, cy] = coords[i];
      const [score] = point.winner ? [`${point.winner} wins`] : scoreText(point.score);
      const classes = ['point', point.mistake && 'mistake', point.ply === shown && 'shown'].filter(Boolean);
      return s('g', {
        class: classes.join(' '),
        'data-eval-point': score,
        'data-ply': point.ply,
        'data-mistake': String(point.mistake),
        role: 'button',
        tabindex: -1,
        'aria-label': `after ${point.ply} commands: ${score}${point.mistake ? ', a mistake' : ''}`,
      }, s('title', {}, `After ${point.ply}: ${score}${point.mistake ? ' · mistake' : ''}`),
      s('rect', { class: 'hit', x: cx - GRAPH_WIDTH / last / 2, y: 0, width: GRAPH_WIDTH / last, height: GRAPH_HEIGHT }),
      s('circle', { cx, cy, r: point.mistake ? 3.6 : 2.2 }));
    }),
  );
}

$('#graph').addEventListener('click', (event) => {
  const point = event.target.closest?.('[data-eval-point]');
  const graph = analysis.graph;
  if (!point || !graph) return;
  goTo(Number(point.dataset.ply), graph.line);
});
$('[data-eval-go]').addEventListener('click', evaluateGame);
$('[data-notation]').addEventListener('click', (event) => {
  const official = movesList.dataset.notation !== 'official';
  movesList.dataset.notation = official ? 'official' : 'readable';
  event.currentTarget.setAttribute('aria-pressed', String(official));
});
$('[data-analysis]').addEventListener('click', () => {
  analysis.on = !analysis.on;
  if (!analysis.on) analysis.key = null;
  syncAnalysis();
});
$('[data-threat]').addEventListener('click', () => {
  analysis.threat.on = !analysis.threat.on;
  analysis.threat.key = null;
  syncAnalysis();
  renderThreat();
});

// ---------------------------------------------------------------------------------------------
// The position editor. Pieces of either colour are placed, moved and removed on the board, the
// side to move chosen, or a FEN pasted; each change is sent to the server, which says whether it
// is a position of the game (and why not: `arbiter_duck::Position::from_fen`). A position it
// takes becomes the start of a new game, carried by the address (`fen=`), played and analysed
// like any other.

/** The letters of the FEN, as `arbiter_duck::fen` reads them (upper case for red). */
const FEN_LETTERS = { car: 'r', horse: 'h', elephant: 'e', guard: 'g', captain: 'c', duck: 'd', soldier: 's' };

const editor = {
  open: false,
  /** `move`, `remove`, or a piece to place (`red car`). */
  tool: 'move',
  /** The point of the piece picked up by the move tool. */
  held: null,
};

/** Starts the game from `fen` (null: the official start); what was kept of the other is dropped. */
function setFen(fen) {
  if (fen === state.fen) return;
  state.fen = fen;
  positions.clear();
  analysis.graph = null;
}

/** The FEN of `pieces` with `turn` to move. */
function fenOf(pieces, turn) {
  const at = new Map(pieces.map((piece) => [piece.point.join(), piece]));
  const ranks = [];
  for (let x = ROWS - 1; x >= 0; x--) {
    let rank = '';
    let empty = 0;
    for (let y = 0; y < COLS; y++) {
      const piece = at.get(`${x},${y}`);
      if (!piece) {
        empty += 1;
        continue;
      }
      if (empty) rank += empty;
      empty = 0;
      const letter = FEN_LETTERS[piece.role];
      rank += piece.color === 'red' ? letter.toUpperCase() : letter;
    }
    if (empty) rank += empty;
    ranks.push(rank);
  }
  return `${ranks.join('/')} ${turn === 'red' ? 'w' : 'b'}`;
}

/** Asks the server for the position `fen` and, if it is one, starts a new game from it. */
function trySetup(fen) {
  serial(async () => {
    try {
      const position = await api('/api/duck/position', { commands: [], fen });
      setFen(position.fen === INITIAL_FEN ? null : position.fen);
      resetClock();
      state.lines = [{ id: 'main', parent: null, start: 0, entries: [] }];
      state.line = 'main';
      state.nextVariation = 1;
      state.version += 1;
      state.at = 0;
      state.position = position;
      state.redo = [];
      state.selected = null;
      keep([], position);
      wanted = { line: 'main', at: 0 };
      explainBox.textContent = '';
    } catch (error) {
      explainBox.textContent = error.message;
    }
    render();
  });
}

/** What a click on `point` does in the editor, with the tool chosen. */
function editPoint(point) {
  const position = state.position;
  const key = point.join();
  const pieces = position.pieces.filter((piece) => piece.point.join() !== key);
  const here = position.pieces.find((piece) => piece.point.join() === key);
  if (editor.tool === 'move') {
    if (!editor.held) {
      if (here) editor.held = point;
      renderEditor();
      return;
    }
    const held = editor.held;
    editor.held = null;
    if (same(held, point)) {
      renderEditor();
      return;
    }
    const moving = position.pieces.find((piece) => same(piece.point, held));
    const rest = pieces.filter((piece) => !same(piece.point, held));
    trySetup(fenOf([...rest, { ...moving, point }], position.turn));
    return;
  }
  if (editor.tool === 'remove') {
    if (here) trySetup(fenOf(pieces, position.turn));
    return;
  }
  const [color, role] = editor.tool.split(' ');
  // The same piece again takes it away.
  const placed = here && here.color === color && here.role === role ? [] : [{ point, color, role }];
  trySetup(fenOf([...pieces, ...placed], position.turn));
}

function renderEditor() {
  const box = $('#editor');
  $('[data-editor]').setAttribute('aria-pressed', String(editor.open));
  box.classList.toggle('hidden', !editor.open);
  for (const button of box.querySelectorAll('[data-editor-tool]')) {
    button.setAttribute('aria-pressed', String(button.dataset.editorTool === editor.tool));
  }
  if (state.position) $('[data-editor-turn]').value = state.position.turn;
  board.querySelectorAll('.held').forEach((element) => element.classList.remove('held'));
  if (editor.held) board.querySelector(`[data-point="${editor.held.join()}"]`)?.classList.add('held');
  document.body.dataset.editing = String(editor.open);
}

/** The palette: the two tools, then every piece of both colours. */
function buildPalette() {
  const palette = $('#editor-palette');
  const tools = [['move', 'Move'], ['remove', 'Remove']];
  for (const color of ['red', 'blue']) {
    for (const role of Object.keys(FEN_LETTERS)) tools.push([`${color} ${role}`, LETTERS[role]]);
  }
  palette.replaceChildren(...tools.map(([tool, label]) => {
    const [color] = tool.split(' ');
    return h('button', {
      type: 'button',
      'data-editor-tool': tool,
      class: ['red', 'blue'].includes(color) ? `piece-tool ${color}` : '',
      title: ['move', 'remove'].includes(tool) ? `${label} a piece` : `Place a ${tool}`,
      'aria-label': ['move', 'remove'].includes(tool) ? label : `place a ${tool}`,
      'aria-pressed': 'false',
    }, label);
  }));
  palette.addEventListener('click', (event) => {
    const button = event.target.closest('[data-editor-tool]');
    if (!button) return;
    editor.tool = button.dataset.editorTool;
    editor.held = null;
    renderEditor();
  });
}
buildPalette();
$('[data-editor]').addEventListener('click', () => {
  editor.open = !editor.open;
  editor.held = null;
  if (editor.open) $('[data-fen-input]').value = state.position?.fen ?? '';
  render();
  renderEditor();
});
$('[data-editor-turn]').addEventListener('change', (event) => {
  if (state.position) trySetup(fenOf(state.position.pieces, event.target.value === 'blue' ? 'blue' : 'red'));
});
$('[data-fen-go]').addEventListener('click', () => {
  const fen = $('[data-fen-input]').value.trim();
  if (fen) trySetup(fen);
});
$('[data-fen-input]').addEventListener('keydown', (event) => {
  if (event.key === 'Enter') $('[data-fen-go]').click();
});
$('[data-editor-start]').addEventListener('click', () => trySetup(INITIAL_FEN));
$('[data-editor-clear]').addEventListener('click', () => trySetup(CAPTAINS_ONLY));
$('[data-editor-done]').addEventListener('click', () => {
  editor.open = false;
  editor.held = null;
  render();
  renderEditor();
});
/** The official start, and a board with the two captains alone (the least a position holds). */
const INITIAL_FEN = 'rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR w - - 0 1';
const CAPTAINS_ONLY = '4c4/9/9/9/9/9/9/9/9/4C4 w - - 0 1';

// ---------------------------------------------------------------------------------------------
// The address: `?moves=0314,9484&at=1` (four digits per command, or four integers joined by
// dots when one is not a single digit); `at` is left out at the end of the line shown. A
// variation shown adds `branch=N&variation=...`: the commands that follow the first N of the main
// line in it (a variation of a variation is carried whole, from where it leaves the main line).

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
  const main = lineOf('main');
  if (main.entries.length > 0) params.set('moves', main.entries.map((e) => encode(e.command)).join(','));
  const line = shownLine();
  if (line.parent) {
    let top = line;
    while (top.parent !== 'main') top = lineOf(top.parent);
    params.set('branch', String(top.start));
    params.set('variation', commandsOf(line, lineEnd(line)).slice(top.start).map(encode).join(','));
  }
  if (state.at < lineEnd(line)) params.set('at', String(state.at));
  if (state.fen) params.set('fen', state.fen);
  const query = params.toString().replaceAll('%2C', ',');
  const url = query ? `${location.pathname}?${query}` : location.pathname;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, '', url);
}

function fromUrl() {
  const params = new URLSearchParams(location.search);
  const moves = params.get('moves');
  const commands = moves ? moves.split(',').filter(Boolean).map(decode) : [];
  const variation = params.get('variation')?.split(',').filter(Boolean).map(decode) ?? [];
  const branch = Math.min(Number.parseInt(params.get('branch') ?? '', 10), commands.length);
  const end = variation.length && Number.isFinite(branch) ? branch + variation.length : commands.length;
  const at = params.has('at') ? Number.parseInt(params.get('at'), 10) : end;
  return {
    fen: params.get('fen') || null,
    commands,
    variation: variation.length && Number.isFinite(branch) ? { branch, commands: variation } : null,
    at: Number.isFinite(at) ? at : end,
  };
}

// ---------------------------------------------------------------------------------------------
// Input: clicks, drags, keys, buttons

function clickPoint(point) {
  const position = state.position;
  if (!position) return;
  if (editor.open) {
    editPoint(point);
    return;
  }
  if (engineSideToMove()) {
    explainBox.textContent = engineToMove()
      ? 'The engine is to move: wait for it, or press Move now.'
      : `The engine plays ${engine.side}: its moves are its own, at the end of the line played.`;
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

// The board from the keyboard: one point is in the tab order; the arrows move the focus ring as
// they point on the screen, Enter or Space does what a click does.
board.addEventListener('keydown', (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const element = event.target.closest?.('[data-point]');
  if (!element) return;
  const point = [Number(element.dataset.x), Number(element.dataset.y)];
  const steps = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (steps[event.key]) {
    // On the screen: column and row from the top left.
    const [col, row] = state.flipped ? [COLS - 1 - point[1], point[0]] : [point[1], ROWS - 1 - point[0]];
    const c = Math.max(0, Math.min(COLS - 1, col + steps[event.key][0]));
    const r = Math.max(0, Math.min(ROWS - 1, row + steps[event.key][1]));
    focusPoint(state.flipped ? [r, COLS - 1 - c] : [ROWS - 1 - r, c]);
  } else if (event.key === 'Enter' || event.key === ' ') {
    state.focus = point;
    clickPoint(point);
  } else {
    return;
  }
  event.preventDefault();
  event.stopPropagation();
});

/** Moves the board's focus ring to `point`. */
function focusPoint(point) {
  state.focus = point;
  for (const node of board.querySelectorAll('[data-point][tabindex="0"]')) node.tabIndex = -1;
  const node = board.querySelector(`[data-point="${point.join()}"]`);
  if (node) {
    node.tabIndex = 0;
    node.focus({ preventScroll: true });
  }
}

// The move list: a click, or Enter or Space on the focused item, shows its position; the up and
// down arrows move the focus along the list.
function showItem(item) {
  const ply = Number(item.dataset.ply);
  const id = item.dataset.line;
  // An item on the path of the line shown keeps that line, so that → goes on along it.
  const line = ownerOf(shownLine(), Math.max(ply, 1)).id === id || ply === 0 ? state.line : id;
  goTo(ply, line);
}
movesList.addEventListener('click', (event) => {
  const item = event.target.closest('li[data-ply]');
  if (item) showItem(item);
});
movesList.addEventListener('keydown', (event) => {
  const item = event.target.closest('li[data-ply]');
  if (!item || event.altKey || event.ctrlKey || event.metaKey) return;
  const items = [...movesList.querySelectorAll('li[data-ply]')];
  const index = items.indexOf(item);
  const next = { ArrowDown: index + 1, ArrowUp: index - 1, PageDown: index + 10, PageUp: index - 10 }[event.key];
  if (next !== undefined) {
    const target = items[Math.max(0, Math.min(items.length - 1, next))];
    item.tabIndex = -1;
    target.tabIndex = 0;
    target.focus({ preventScroll: true });
    scrollInside(movesList, target);
  } else if (event.key === 'Enter' || event.key === ' ') {
    showItem(item);
  } else {
    return;
  }
  event.preventDefault();
  event.stopPropagation();
});

soundSwitch($('[data-sound]'));

document.addEventListener('keydown', (event) => {
  if (typing(event) || event.altKey || event.ctrlKey || event.metaKey) return;
  const keys = {
    ArrowLeft: () => goTo(wanted.at - 1, wanted.line),
    ArrowRight: () => goTo(wanted.at + 1, wanted.line),
    Home: () => goTo(0),
    End: () => goTo(lineEnd(lineOf(wanted.line)), wanted.line),
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
    const total = lineEnd(lineOf(wanted.line));
    const targets = { first: 0, prev: wanted.at - 1, next: wanted.at + 1, last: total };
    goTo(targets[button.dataset.nav], wanted.line);
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
  resetClock();
  engine.failed = null;
  engine.note = '';
  // The player's side at the bottom.
  if (engine.side !== 'none') state.flipped = engine.side === 'red';
  saveEngine();
  render();
});
const timeSelect = $('[data-engine-time]');
timeSelect.addEventListener('change', () => {
  engine.time = Number(timeSelect.value) || 1000;
  saveEngine();
});
$('[data-engine-stop]').addEventListener('click', moveNow);
/** The engine's side and time are kept across reloads. */
function saveEngine() {
  localStorage.setItem(ENGINE_KEY, JSON.stringify({ side: engine.side, time: engine.time }));
}
try {
  const saved = JSON.parse(localStorage.getItem(ENGINE_KEY) ?? '{}');
  if (['red', 'blue'].includes(saved.side)) {
    engine.side = saved.side;
    state.flipped = engine.side === 'red';
  }
  if ([...timeSelect.options].some((option) => option.value === String(saved.time))) engine.time = saved.time;
} catch {
  // A setting that cannot be read is not kept.
}
// What the browser may have kept in the fields from before a reload is not what the page does.
sideSelect.value = engine.side;
timeSelect.value = String(engine.time);
const styleSelect = $('[data-style]');
styleSelect.value = state.style;
styleSelect.addEventListener('change', () => {
  state.style = styleSelect.value === 'western' ? 'western' : 'chinese';
  localStorage.setItem(STYLE_KEY, state.style);
  // The move list writes the pieces as the board draws them.
  renderedVersion = -1;
  render();
});

// ---------------------------------------------------------------------------------------------
// Start: the game in the address, or a new one.

serial(async () => {
  const { fen, commands, variation, at } = fromUrl();
  try {
    setFen(fen);
    await loadGame(commands, variation ? commands.length : at);
    if (variation) await loadVariation(variation.branch, variation.commands, at);
  } catch (error) {
    setFen(null);
    await loadGame([], 0);
    throw new Error(`The game in the address could not be loaded: ${error.message}`);
  } finally {
    wanted = { line: state.line, at: state.at };
    render();
    document.body.dataset.ready = 'true';
  }
});
