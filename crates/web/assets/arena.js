// The skill arena viewer. The server judges the input and sends, for a window of rounds, every
// event and the state of every piece at the end of each round (/api/arena/...). The page draws
// those states and animates the events; it knows no rule of the game.

import { $, api, h, readFile, s, show, typing } from './common.js';
import { createZoom } from './arena-zoom.js';
import { eventItems, pieceRows } from './arena-events.js';

const CELL = 40;
const MARGIN = 26;
const DIRS = { up: 0, right: 90, down: 180, left: 270 };

const board = $('#board');
const errorBox = $('#error');
const tip = $('#tip');

const view = {
  /** The input and rules of the last run. */
  input: '',
  rules: 'official',
  games: [],
  /** The game shown (1-based), its start event, and what is loaded of it. */
  game: 0,
  start: null,
  states: new Map(),
  events: new Map(),
  round: 0,
  playing: false,
  timer: 0,
  /** The piece elements, by 1-based id, kept from round to round so that they can move. */
  pieceNodes: new Map(),
  /** The piece whose details are shown: under the pointer, or pinned by a tap or the keyboard. */
  hovered: 0,
  pinned: 0,
};

let switches = [];

// The input, the rules and the game shown are kept across reloads (localStorage).
const SETUP_KEY = 'arbiter.arena';
/** The game to open when the page starts again, until the first run. */
let restoring = null;
function saveSetUp() {
  try {
    localStorage.setItem(SETUP_KEY, JSON.stringify({ input: view.input, rules: view.rules, game: view.game }));
  } catch {
    // An input too large for the storage is not kept.
  }
}
function savedSetUp() {
  try {
    const saved = JSON.parse(localStorage.getItem(SETUP_KEY) ?? 'null');
    return saved && typeof saved.input === 'string' ? saved : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Rules: a preset and switches, composed into the `--rules` text the server reads.

function parseRules(text) {
  const items = text.split(',').map((item) => item.trim()).filter(Boolean);
  const preset = items[0] === 'statement' ? 'statement' : 'official';
  const on = new Set(switches.filter((sw) => preset === 'statement' && sw.statement).map((sw) => sw.name));
  for (const item of items) {
    if (item.startsWith('+')) on.add(item.slice(1));
    if (item.startsWith('-')) on.delete(item.slice(1));
  }
  return { preset, on };
}

function composeRules() {
  const preset = $('#preset').value;
  const parts = [preset];
  for (const sw of switches) {
    const box = document.getElementById(`switch-${sw.name}`);
    const byDefault = preset === 'statement' && sw.statement;
    if (box.checked !== byDefault) parts.push(`${box.checked ? '+' : '-'}${sw.name}`);
  }
  $('[data-arena-rules]').value = parts.join(',');
}

function showRules(text) {
  const { preset, on } = parseRules(text);
  $('#preset').value = preset;
  for (const sw of switches) {
    const box = document.getElementById(`switch-${sw.name}`);
    if (box) box.checked = on.has(sw.name);
  }
}

async function loadSwitches() {
  const reply = await api('/api/arena/rules');
  switches = reply.switches;
  $('#switches').replaceChildren(...switches.map((sw) => h('label', { title: sw.about },
    h('input', {
      type: 'checkbox',
      id: `switch-${sw.name}`,
      onchange: (event) => {
        const other = { 'tie-high': 'tie-low', 'tie-low': 'tie-high' }[sw.name];
        if (other && event.target.checked) document.getElementById(`switch-${other}`).checked = false;
        composeRules();
      },
    }),
    h('span', {}, h('code', {}, sw.name), h('br'), h('span', { class: 'hint' }, sw.about)))));
  showRules($('[data-arena-rules]').value);
}

// ---------------------------------------------------------------------------------------------
// Talking to the server

async function run() {
  stop();
  const input = $('[data-arena-input]').value;
  const rules = $('[data-arena-rules]').value.trim() || 'official';
  show(errorBox, '');
  show($('#warning'), '');
  $('[data-arena-run]').disabled = true;
  try {
    const reply = await api('/api/arena/judge', { input, rules });
    const sameInput = input === view.input;
    view.input = input;
    view.rules = rules;
    view.games = reply.games;
    $('[data-judge-output]').textContent = reply.output;
    show($('#warning'), reply.warning);
    const select = $('[data-arena-game]');
    select.replaceChildren(...reply.games.map((game) => h('option', { value: game.game },
      `Game ${game.game}`)));
    // The same input under other rules keeps its game; a new input starts at its first.
    const wanted = sameInput ? view.game : (restoring ?? 1);
    restoring = null;
    const keep = Math.min(Math.max(wanted, 1), reply.games.length);
    select.value = String(keep);
    $('#input-box').open = false;
    await openGame(keep);
  } catch (error) {
    show(errorBox, error.message);
  } finally {
    $('[data-arena-run]').disabled = false;
  }
}

/** Loads the rounds from `from` on into the caches. */
/** A piece's state sent as an array (the compact trace) as the object the page draws. */
function expand([row, col, dir, alive, a, b, respawn, cooldown, freeze, silence]) {
  return { pos: { row, col }, dir, alive, a, b, respawn_round: respawn, cooldown, freeze, silence };
}

async function fetchWindow(from) {
  const request = { input: view.input, rules: view.rules, game: view.game, from, compact: true };
  const reply = await api('/api/arena/trace', request);
  if (reply.game !== view.game) return;
  view.start = reply.start;
  view.states.set(Math.max(from, 1) - 1, reply.before.map(expand));
  for (const round of reply.rounds) {
    view.states.set(round.round, round.pieces.map(expand));
    view.events.set(round.round, round.events);
  }
}

async function openGame(number) {
  stop();
  // The details shown were of a piece of the game left.
  view.hovered = 0;
  view.pinned = 0;
  showTip();
  view.game = number;
  saveSetUp();
  view.states = new Map();
  view.events = new Map();
  view.pieceNodes = new Map();
  view.round = 0;
  await fetchWindow(0);
  // A later choice of game (or a new run) took over while this one was loading.
  if (view.game !== number) return;
  const summary = view.games.find((game) => game.game === number);
  $('[data-game-output]').textContent = summary?.output ?? '';
  $('#game-size').textContent = summary
    ? `${summary.rows} × ${summary.cols}, ${summary.pieces} pieces, ${summary.rounds} rounds`
    : '';
  drawStatic();
  await goTo(0);
}

const loaded = (round) => view.states.has(round) && (round === 0 || view.events.has(round));

async function goTo(round) {
  if (!view.start) return;
  const target = Math.max(0, Math.min(round, view.start.rounds));
  try {
    if (!loaded(target)) await fetchWindow(target);
    view.round = target;
    render();
    // Keep a few rounds ahead loaded while playing.
    const ahead = Math.min(target + 8, view.start.rounds);
    if (view.playing && !loaded(ahead)) fetchWindow(ahead).catch((error) => show(errorBox, error.message));
  } catch (error) {
    stop();
    show(errorBox, error.message);
  }
}

// ---------------------------------------------------------------------------------------------
// Drawing

const centre = (pos) => [MARGIN + (pos.col - 0.5) * CELL, MARGIN + (pos.row - 0.5) * CELL];

function drawStatic() {
  const { rows, cols, obstacles } = view.start;
  const width = MARGIN + cols * CELL + 6;
  const height = MARGIN + rows * CELL + 6;
  board.setAttribute('viewBox', `0 0 ${width} ${height}`);
  // The piece layer is drawn anew below, so the nodes of the last drawing are gone.
  view.pieceNodes = new Map();
  board.parentElement.style.setProperty('--aspect', String(width / height));
  board.parentElement.style.setProperty('--natural', `${Math.round(width * 1.5)}px`);
  const lines = [];
  for (let r = 0; r <= rows; r++) lines.push(`M${MARGIN} ${MARGIN + r * CELL}h${cols * CELL}`);
  for (let c = 0; c <= cols; c++) lines.push(`M${MARGIN + c * CELL} ${MARGIN}v${rows * CELL}`);
  const side = Math.max(rows, cols);
  const every = side > 30 ? 10 : side > 15 ? 5 : 1;
  // Labels keep a readable size on large boards, which are drawn smaller.
  const size = 12 * Math.max(1, side / 16);
  const labels = [];
  const coordinate = (x, y, text) => s('text', { class: 'fx-label', x, y, 'font-size': size, 'dominant-baseline': 'central' }, text);
  for (let r = 1; r <= rows; r++) {
    if (r % every === 0 || r === 1) labels.push(coordinate(MARGIN / 2, MARGIN + (r - 0.5) * CELL, r));
  }
  for (let c = 1; c <= cols; c++) {
    if (c % every === 0 || c === 1) labels.push(coordinate(MARGIN + (c - 0.5) * CELL, MARGIN / 2, c));
  }
  board.replaceChildren(
    s('defs', {},
      s('marker', { id: 'head', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' },
        s('path', { d: 'M0 0L10 5L0 10z', fill: '#d48806' }))),
    s('rect', { class: 'cell', x: MARGIN, y: MARGIN, width: cols * CELL, height: rows * CELL }),
    s('path', { d: lines.join(''), stroke: '#e1d9c9', 'stroke-width': 1, fill: 'none' }),
    s('g', {}, obstacles.map((pos) => s('rect', {
      class: 'obstacle', x: MARGIN + (pos.col - 1) * CELL, y: MARGIN + (pos.row - 1) * CELL, width: CELL, height: CELL,
    }))),
    s('g', {}, labels),
    s('g', { id: 'fx-under' }),
    s('g', { id: 'pieces' }),
    s('g', { id: 'fx-over', 'pointer-events': 'none' }),
  );
  // A new game is seen whole.
  zoom.reset(width, height);
}

function pieceNode(id) {
  const spec = view.start.pieces[id - 1];
  const node = s('g', { class: `piece ${spec.team}`, 'data-piece-id': id, 'data-team': spec.team },
    s('circle', { class: 'frozen-ring', r: 18.5, visibility: 'hidden' }),
    s('circle', { class: `token-body token-${spec.team}`, r: 15 }),
    s('g', { class: 'facing' }, s('path', { class: 'arrow-head', d: 'M0 -14L-5.5 -7.5L5.5 -7.5z' })),
    s('text', { class: 'piece-id', y: 1.5 }, id),
    s('circle', { class: 'silenced-mark', cx: 11, cy: -11, r: 4.5, visibility: 'hidden' }));
  node.setAttribute('tabindex', '0');
  node.setAttribute('role', 'button');
  node.setAttribute('aria-label', `piece ${id}, ${spec.team}`);
  node.addEventListener('pointerenter', (event) => {
    if (event.pointerType !== 'mouse') return;
    view.hovered = id;
    showTip();
  });
  node.addEventListener('pointerleave', (event) => {
    if (event.pointerType !== 'mouse') return;
    view.hovered = view.pinned;
    showTip();
    if (view.pinned) tipBeside(view.pieceNodes.get(view.pinned));
  });
  node.addEventListener('pointermove', (event) => { if (event.pointerType === 'mouse') placeTip(event); });
  // A tap (or a click, or Enter) pins the details of a piece; another tap on it lets them go.
  node.addEventListener('click', () => pin(view.pinned === id ? 0 : id));
  node.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      pin(view.pinned === id ? 0 : id);
    }
  });
  node.addEventListener('focus', () => { if (node.matches(':focus-visible')) pin(id); });
  node.addEventListener('blur', () => { if (view.pinned === id) pin(0); });
  return node;
}

function render() {
  const states = view.states.get(view.round);
  if (!states) return;
  const layer = board.querySelector('#pieces');
  const duration = view.playing ? Math.min(Number($('#speed').value) * 0.7, 450) : 180;
  // Pieces sharing a cell share it in a small grid, so that every one stays visible.
  const byCell = new Map();
  states.forEach((state, i) => {
    const key = `${state.pos.row},${state.pos.col}`;
    if (!byCell.has(key)) byCell.set(key, []);
    byCell.get(key).push(i + 1);
  });
  for (const ids of byCell.values()) {
    const per = Math.ceil(Math.sqrt(ids.length));
    const sub = CELL / per;
    ids.forEach((id, k) => {
      const state = states[id - 1];
      let node = view.pieceNodes.get(id);
      if (!node) {
        node = pieceNode(id);
        view.pieceNodes.set(id, node);
        layer.append(node);
      }
      const x = MARGIN + (state.pos.col - 1) * CELL + sub * (k % per + 0.5);
      const y = MARGIN + (state.pos.row - 1) * CELL + sub * (Math.floor(k / per) + 0.5);
      const scale = (sub * 0.42) / 15;
      node.style.transition = `transform ${duration}ms ease-in-out`;
      node.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
      node.classList.toggle('dead', !state.alive);
      node.querySelector('.facing').setAttribute('transform', `rotate(${DIRS[state.dir]})`);
      node.querySelector('.frozen-ring').setAttribute('visibility', state.freeze > 0 ? 'visible' : 'hidden');
      node.querySelector('.silenced-mark').setAttribute('visibility', state.silence > 0 ? 'visible' : 'hidden');
      node.dataset.scale = String(scale);
      node.dataset.row = state.pos.row;
      node.dataset.col = state.pos.col;
      node.setAttribute('aria-label', `piece ${id}, ${view.start.pieces[id - 1].team}, row ${state.pos.row}, column ${state.pos.col}${state.alive ? '' : ', dead'}`);
    });
  }
  drawEffects();
  renderControls();
  renderEvents();
  zoom.showLabels();
  showTip();
}

// Zoom and pan (arena-zoom.js): a piece's number is drawn only once the piece is large enough
// on the screen to be read.
const zoom = createZoom(board, {
  active: () => Boolean(view.start),
  pieces: () => view.pieceNodes.values(),
  moved: () => {
    if (view.pinned) tipBeside(view.pieceNodes.get(view.pinned));
  },
});

function drawEffects() {
  const under = board.querySelector('#fx-under');
  const over = board.querySelector('#fx-over');
  const below = [];
  const above = [];
  const events = view.round > 0 ? view.events.get(view.round) ?? [] : [];
  const cellRect = (pos, cls) => s('rect', {
    class: cls, x: MARGIN + (pos.col - 1) * CELL + 1, y: MARGIN + (pos.row - 1) * CELL + 1, width: CELL - 2, height: CELL - 2,
  });
  const label = (pos, text, dy = -CELL * 0.55) => {
    const [x, y] = centre(pos);
    return s('text', { class: 'fx-label', x, y: y + dy }, text);
  };
  const states = view.states.get(view.round);
  const at = (piece) => states[piece - 1].pos;
  for (const event of events) {
    switch (event.kind) {
      case 'move': {
        const [x1, y1] = centre(event.from);
        const [x2, y2] = centre(event.to);
        below.push(s('line', { class: 'fx-move', x1, y1, x2, y2 }));
        break;
      }
      case 'sector':
        for (const pos of event.cells) below.push(cellRect(pos, 'fx-sector'));
        break;
      case 'knockback': {
        const [x1, y1] = centre(event.from);
        const [x2, y2] = centre(event.to);
        above.push(s('line', { class: 'fx-knock', x1, y1, x2, y2, 'marker-end': 'url(#head)' }));
        break;
      }
      case 'wave':
        above.push(s('polyline', { class: 'fx-wave', points: event.path.map((pos) => centre(pos).join(',')).join(' ') }));
        below.push(cellRect(event.blast, 'fx-blast'));
        above.push(label(event.blast, 'blast'));
        break;
      case 'fight':
        above.push(cellRect(event.pos, 'fx-fight'));
        break;
      case 'death': {
        const [x, y] = centre(event.pos);
        const d = CELL * 0.3;
        below.push(s('path', { class: 'fx-death', d: `M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}` }));
        break;
      }
      case 'respawn': {
        const [x, y] = centre(event.pos);
        above.push(s('circle', { class: 'fx-respawn', cx: x, cy: y, r: CELL * 0.48 }));
        break;
      }
      case 'matching':
        above.push(label(at(event.piece), `${event.pairs} pair${event.pairs === 1 ? '' : 's'}`));
        break;
      case 'backward':
        above.push(label(event.pos, `↺ ${event.to_round}`));
        break;
      case 'boost':
        above.push(label(at(event.piece), `a ${event.a}`));
        break;
      default:
        break;
    }
  }
  under.replaceChildren(...below);
  over.replaceChildren(...above);
}

function renderControls() {
  const rounds = view.start.rounds;
  const title = $('#round');
  title.dataset.round = String(view.round);
  title.textContent = view.round === 0 ? `Start · ${rounds} rounds` : `Round ${view.round} of ${rounds}`;
  const slider = $('#slider');
  slider.max = String(rounds);
  slider.value = String(view.round);
  $('[data-nav="first"]').disabled = view.round === 0;
  $('[data-nav="prev"]').disabled = view.round === 0;
  $('[data-nav="next"]').disabled = view.round === rounds;
  $('[data-nav="last"]').disabled = view.round === rounds;
  $('#play').textContent = view.playing ? 'Pause' : 'Play';
}

function renderEvents() {
  if (view.round === 0) {
    $('#events').replaceChildren(h('li', { class: 'quiet' }, `The set-up: ${view.start.pieces.length} pieces. Step forward to play the first round.`));
    $('#event-count').textContent = '';
    return;
  }
  const events = view.events.get(view.round) ?? [];
  $('#events').replaceChildren(...eventItems(events));
  $('#event-count').textContent = `${events.length} event${events.length === 1 ? '' : 's'}`;
}

// ---------------------------------------------------------------------------------------------
// The tooltip of the piece under the pointer

function showTip() {
  const id = view.hovered;
  const states = view.states.get(view.round);
  if (!id || !states) {
    tip.classList.add('hidden');
    board.querySelectorAll('.piece.hovered').forEach((node) => node.classList.remove('hovered'));
    return;
  }
  const spec = view.start?.pieces[id - 1];
  const state = states[id - 1];
  if (!spec || !state) {
    view.hovered = 0;
    view.pinned = 0;
    showTip();
    return;
  }
  tip.replaceChildren(h('b', {}, `Piece ${id} · ${spec.team}`),
    h('table', {}, pieceRows(spec, state).map(([key, value]) => h('tr', {}, h('td', {}, key), h('td', {}, value)))));
  tip.classList.remove('hidden');
  view.pieceNodes.forEach((node, key) => node.classList.toggle('hovered', key === id));
}

/** Shows the details of piece `id` beside it until another piece is chosen (0: none). */
function pin(id) {
  view.pinned = id;
  view.hovered = id;
  showTip();
  if (id) tipBeside(view.pieceNodes.get(id));
}

/** Puts the tooltip beside `node`. */
function tipBeside(node) {
  if (!node) return;
  const box = node.getBoundingClientRect();
  tip.style.left = `${Math.max(4, Math.min(box.right + 8, window.innerWidth - 290))}px`;
  tip.style.top = `${box.bottom + 8}px`;
}

function placeTip(event) {
  tip.style.left = `${Math.min(event.clientX + 14, window.innerWidth - 300)}px`;
  tip.style.top = `${event.clientY + 14}px`;
}

// ---------------------------------------------------------------------------------------------
// Playing

function stop() {
  view.playing = false;
  clearTimeout(view.timer);
  if (view.start) renderControls();
}

function tick() {
  if (!view.playing) return;
  if (view.round >= view.start.rounds) {
    stop();
    return;
  }
  goTo(view.round + 1).then(() => {
    if (view.playing) view.timer = setTimeout(tick, Number($('#speed').value));
  });
}

function togglePlay() {
  if (!view.start) return;
  if (view.playing) {
    stop();
    return;
  }
  if (view.round >= view.start.rounds) view.round = 0;
  view.playing = true;
  renderControls();
  tick();
}

// ---------------------------------------------------------------------------------------------
// Input

function navigate(where) {
  if (!view.start) return;
  stop();
  const targets = { first: 0, prev: view.round - 1, next: view.round + 1, last: view.start.rounds };
  goTo(targets[where]);
}

for (const button of document.querySelectorAll('button[data-nav]')) {
  button.addEventListener('click', () => navigate(button.dataset.nav));
}
$('#play').addEventListener('click', togglePlay);
$('#slider').addEventListener('input', (event) => {
  const target = Number(event.target.value);
  stop();
  goTo(target);
});
$('[data-arena-run]').addEventListener('click', run);
$('[data-arena-game]').addEventListener('change', (event) => {
  openGame(Number(event.target.value)).catch((error) => show(errorBox, error.message));
});
$('#preset').addEventListener('change', () => {
  for (const sw of switches) {
    document.getElementById(`switch-${sw.name}`).checked = $('#preset').value === 'statement' && sw.statement;
  }
  composeRules();
});
$('[data-arena-rules]').addEventListener('change', (event) => showRules(event.target.value));
$('#upload').addEventListener('change', async (event) => {
  const text = await readFile(event.target);
  if (text === null) return;
  $('[data-arena-input]').value = text;
  event.target.value = '';
  run();
});
for (const button of document.querySelectorAll('[data-example]')) {
  button.addEventListener('click', async () => {
    const response = await fetch(button.dataset.example);
    $('[data-arena-input]').value = await response.text();
    $('[data-arena-rules]').value = button.dataset.exampleRules;
    showRules(button.dataset.exampleRules);
    run();
  });
}
document.addEventListener('keydown', (event) => {
  if (typing(event) || event.altKey || event.ctrlKey || event.metaKey) return;
  const keys = {
    ArrowLeft: () => navigate('prev'),
    ArrowRight: () => navigate('next'),
    Home: () => navigate('first'),
    End: () => navigate('last'),
    ' ': togglePlay,
  };
  const action = keys[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
});

loadSwitches()
  .then(async () => {
    const saved = savedSetUp();
    if (!saved || saved.input === '') return;
    $('[data-arena-input]').value = saved.input;
    $('[data-arena-rules]').value = saved.rules || 'official';
    showRules($('[data-arena-rules]').value);
    restoring = Number(saved.game) || 1;
    await run();
  })
  .catch((error) => show(errorBox, error.message))
  .finally(() => { document.body.dataset.ready = 'true'; });
