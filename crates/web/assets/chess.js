// The record checker. The server checks the record (/api/chess/check) and sends the verdict, the
// first wrong token with its rule and canonical spelling, and the board (FEN) after every ply up
// to it with the move's squares; the page draws them.

import { $, api, h, readFile, s, show, typing } from './common.js';

const SQUARE = 100;
const MARGIN = 30;
/** Filled glyphs for both sides; the fill tells white from black. */
const GLYPHS = { k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };
const NAMES = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };

const board = $('#board');
const errorBox = $('#error');

const INPUT_KEY = 'arbiter.chess';

const state = {
  /**
   * What the board steps through: a record's reply (verdict, plies, mistake, boards) or a PGN
   * game's boards with its first wrong move as `mistake`.
   */
  record: null,
  /** The list of moves drawn for it. */
  list: null,
  /** The PGN text checked and its mode, and the game of it shown (1-based), if any. */
  pgn: null,
  game: 0,
  ply: 0,
  flipped: false,
};

// ---------------------------------------------------------------------------------------------
// The board

/** The pieces of a FEN's placement field: [{square: 'e1', piece: 'K'}]. */
function placement(fen) {
  const pieces = [];
  fen.split(' ')[0].split('/').forEach((rank, i) => {
    let file = 0;
    for (const ch of rank) {
      if (/\d/.test(ch)) {
        file += Number(ch);
      } else {
        pieces.push({ square: `${'abcdefgh'[file]}${8 - i}`, piece: ch });
        file += 1;
      }
    }
  });
  return pieces;
}

function corner(square) {
  const file = 'abcdefgh'.indexOf(square[0]);
  const rank = Number(square[1]) - 1;
  const col = state.flipped ? 7 - file : file;
  const row = state.flipped ? rank : 7 - rank;
  return [MARGIN + col * SQUARE, MARGIN + row * SQUARE];
}

function drawBoard(fen, marks) {
  const parts = [
    s('defs', {}, s('radialGradient', { id: 'check-glow' },
      s('stop', { offset: '0%', 'stop-color': 'rgb(255 0 0 / 90%)' }),
      s('stop', { offset: '60%', 'stop-color': 'rgb(231 0 0 / 45%)' }),
      s('stop', { offset: '100%', 'stop-color': 'rgb(169 0 0 / 0%)' }))),
    s('rect', { x: 0, y: 0, width: 860, height: 860, rx: 12, fill: '#3b3530' }),
  ];
  for (let rank = 0; rank < 8; rank++) {
    for (let file = 0; file < 8; file++) {
      const square = `${'abcdefgh'[file]}${rank + 1}`;
      const [x, y] = corner(square);
      parts.push(s('rect', { class: (file + rank) % 2 === 0 ? 'dark' : 'light', x, y, width: SQUARE, height: SQUARE }));
    }
  }
  for (const [square, cls] of marks) {
    const [x, y] = corner(square);
    parts.push(s('rect', { class: cls, x, y, width: SQUARE, height: SQUARE }));
  }
  for (let i = 0; i < 8; i++) {
    const [fx] = corner(`${'abcdefgh'[i]}1`);
    const [, ry] = corner(`a${i + 1}`);
    parts.push(s('text', { class: 'coord', x: fx + SQUARE / 2, y: 860 - 9, 'text-anchor': 'middle', fill: '#e8dccb' }, 'abcdefgh'[i]));
    parts.push(s('text', { class: 'coord', x: 15, y: ry + SQUARE / 2 + 5, 'text-anchor': 'middle', fill: '#e8dccb' }, i + 1));
  }
  for (const { square, piece } of placement(fen)) {
    const [x, y] = corner(square);
    const white = piece === piece.toUpperCase();
    parts.push(s('text', {
      class: `piece-char ${white ? 'white' : 'black'}`, x: x + SQUARE / 2, y: y + SQUARE / 2 + 4,
      'aria-label': `${white ? 'white' : 'black'} ${NAMES[piece.toLowerCase()]} on ${square}`,
    }, GLYPHS[piece.toLowerCase()]));
  }
  board.replaceChildren(...parts);
  board.dataset.chessFen = fen;
}

function initial() {
  drawBoard('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', []);
}

// ---------------------------------------------------------------------------------------------
// The record

function renderRecord() {
  const record = state.record;
  const boards = record.boards;
  const current = boards[state.ply];
  const marks = [];
  const atMistake = record.mistake && state.ply === boards.length - 1;
  if (current.move) marks.push([current.move.from, 'moved'], [current.move.to, 'moved']);
  if (atMistake && record.mistake.move) {
    marks.push([record.mistake.move.from, 'wrong'], [record.mistake.move.to, 'wrong']);
  }
  if (current.check) marks.push([current.check, 'in-check']);
  drawBoard(current.fen, marks);

  const list = state.list;
  const items = [];
  boards.slice(1).forEach((b, i) => {
    const ply = i + 1;
    if (ply % 2 === 1) items.push(h('span', { class: 'num' }, `${(ply + 1) / 2}.`));
    items.push(h('span', {
      role: 'button', tabindex: 0, 'aria-current': state.ply === ply ? 'true' : 'false',
      'data-ply': ply, onclick: () => goTo(ply), onkeydown: activate(() => goTo(ply)),
    }, b.token));
  });
  if (record.mistake) {
    const ply = record.mistake.ply;
    if (ply % 2 === 1 && record.mistake.token) items.push(h('span', { class: 'num' }, `${(ply + 1) / 2}.`));
    items.push(h('span', {
      class: 'bad', title: record.mistake.reason, role: 'button', tabindex: 0, 'data-wrong-ply': ply,
      onclick: () => goTo(boards.length - 1), onkeydown: activate(() => goTo(boards.length - 1)),
    }, record.mistake.token || '(missing)'));
  }
  const hadFocus = list.contains(document.activeElement);
  list.replaceChildren(...items);
  const marked = list.querySelector('[aria-current="true"]');
  if (marked) {
    if (hadFocus) marked.focus({ preventScroll: true });
    scrollInside(list, marked);
  }
  $('[data-nav="first"]').disabled = state.ply === 0;
  $('[data-nav="prev"]').disabled = state.ply === 0;
  $('[data-nav="next"]').disabled = state.ply === boards.length - 1;
  $('[data-nav="last"]').disabled = state.ply === boards.length - 1;
}

/** A keydown handler doing `action` on Enter or Space, as a button does. */
function activate(action) {
  return (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    action();
  };
}

/** Scrolls `list` itself so that `item` is seen; the page does not move. */
function scrollInside(list, item) {
  const outer = list.getBoundingClientRect();
  const inner = item.getBoundingClientRect();
  if (inner.top < outer.top) list.scrollTop -= outer.top - inner.top;
  else if (inner.bottom > outer.bottom) list.scrollTop += inner.bottom - outer.bottom;
}

function goTo(ply) {
  if (!state.record) return;
  state.ply = Math.max(0, Math.min(ply, state.record.boards.length - 1));
  renderRecord();
}

function showRecord(reply) {
  state.record = reply;
  state.list = $('#plies-list');
  state.pgn = null;
  $('#pgn-result').hidden = true;
  $('#record-result').hidden = false;
  const verdict = $('#verdict');
  verdict.dataset.verdict = reply.verdict;
  verdict.textContent = reply.verdict;
  verdict.className = `verdict ${reply.verdict === 'Yes' ? 'yes' : 'no'}`;
  $('#plies').textContent = `${reply.plies} correct pl${reply.plies === 1 ? 'y' : 'ies'}`;
  const mistake = reply.mistake;
  $('#mistake').classList.toggle('hidden', !mistake);
  const wrong = $('#wrong');
  const canonical = $('#canonical');
  if (mistake) {
    wrong.textContent = mistake.token || '(the record ends)';
    wrong.dataset.wrongToken = mistake.token;
    const right = mistake.canonical ?? (mistake.alternatives.length ? mistake.alternatives.join(' or ') : '');
    canonical.textContent = right;
    if (mistake.canonical) canonical.dataset.canonical = mistake.canonical;
    else delete canonical.dataset.canonical;
    canonical.classList.toggle('hidden', !right);
    $('#arrow').classList.toggle('hidden', !right);
    $('#reason').textContent = capitalised(mistake.reason);
    $('#where').textContent = `Move ${mistake.move_number}, ${mistake.side} (ply ${mistake.ply})`;
  } else {
    wrong.textContent = '';
    wrong.dataset.wrongToken = '';
    canonical.textContent = '';
    delete canonical.dataset.canonical;
  }
  // The board opens at the first wrong move: the position it was played in.
  state.ply = reply.boards.length - 1;
  renderRecord();
}

function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---------------------------------------------------------------------------------------------
// PGN

function showPgn(reply, text, mode) {
  state.record = null;
  state.pgn = { text, mode };
  state.game = 0;
  $('#pgn-game').hidden = true;
  $('#record-result').hidden = true;
  $('#pgn-result').hidden = false;
  $('#pgn-summary').textContent = `${reply.games.length} game${reply.games.length === 1 ? '' : 's'}: ${reply.ok} ok, ${reply.wrong} wrong (${reply.mode})`;
  $('#games').replaceChildren(...reply.games.map((game) => h('tr', {
    'data-game': game.index, 'data-ok': game.ok ? 'true' : 'false', tabindex: 0,
    title: 'Show this game on the board',
    onclick: () => openGame(game.index), onkeydown: activate(() => openGame(game.index)),
  },
    h('td', {}, game.index),
    h('td', {}, `${game.white} – ${game.black}`, h('div', { class: 'hint' }, `line ${game.line}`)),
    h('td', {}, game.plies),
    h('td', {},
      h('span', { class: game.ok ? 'ok' : 'bad' }, game.ok ? 'ok' : 'wrong'),
      game.error ? h('div', { class: 'msg' }, `${game.line_of_error}:${game.column_of_error}: ${game.error}`) : null,
      game.warnings.length ? h('div', { class: 'msg' }, `${game.warnings.length} warning${game.warnings.length === 1 ? '' : 's'}: ${game.warnings[0]}`) : null))));
  initial();
}

/** Shows game `index` of the PGN text on the board, at its first wrong move if it has one. */
async function openGame(index) {
  if (!state.pgn) return;
  const pgn = state.pgn;
  show(errorBox, '');
  try {
    const reply = await api('/api/chess/game', { text: pgn.text, mode: pgn.mode, game: index });
    if (state.pgn !== pgn) return;
    state.game = index;
    save();
    for (const row of document.querySelectorAll('#games tr')) {
      row.setAttribute('aria-current', String(row.dataset.game === String(index)));
    }
    $('#pgn-game').hidden = false;
    $('#pgn-game-title').textContent = `Game ${index}: ${reply.white} – ${reply.black}`;
    show($('#pgn-game-note'), [reply.error, reply.note].filter(Boolean).join(' · '));
    if (reply.boards.length === 0) {
      state.record = null;
      $('#pgn-plies').replaceChildren();
      initial();
      return;
    }
    const wrong = reply.wrong;
    state.record = {
      boards: reply.boards,
      mistake: wrong ? { ply: wrong.ply, token: wrong.token, move: wrong.move, reason: reply.error ?? 'the first wrong move' } : null,
    };
    state.list = $('#pgn-plies');
    state.ply = reply.boards.length - 1;
    renderRecord();
  } catch (error) {
    show(errorBox, error.message);
  } finally {
    document.body.dataset.gameShown = String(index);
  }
}

// ---------------------------------------------------------------------------------------------
// Input

/** The text, the mode and the PGN game shown are kept across reloads. */
function save() {
  try {
    localStorage.setItem(INPUT_KEY, JSON.stringify({
      text: $('[data-record-input]').value, mode: $('#mode').value, game: state.game,
    }));
  } catch {
    // A text too large for the storage is not kept.
  }
}

async function check() {
  show(errorBox, '');
  const button = $('[data-record-check]');
  button.disabled = true;
  const text = $('[data-record-input]').value;
  const mode = $('#mode').value;
  save();
  try {
    const reply = await api('/api/chess/check', { text, mode });
    if (reply.kind === 'record') showRecord(reply);
    else showPgn(reply, text, mode);
  } catch (error) {
    show(errorBox, error.message);
  } finally {
    button.disabled = false;
    document.body.dataset.checked = 'true';
  }
}

$('[data-record-check]').addEventListener('click', check);
$('[data-record-input]').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) check();
});
$('#upload').addEventListener('change', async (event) => {
  const text = await readFile(event.target);
  if (text === null) return;
  $('[data-record-input]').value = text;
  event.target.value = '';
  check();
});
for (const button of document.querySelectorAll('button[data-nav]')) {
  button.addEventListener('click', () => {
    if (!state.record) return;
    const last = state.record.boards.length - 1;
    const targets = { first: 0, prev: state.ply - 1, next: state.ply + 1, last };
    goTo(targets[button.dataset.nav]);
  });
}
function flip() {
  state.flipped = !state.flipped;
  if (state.record) renderRecord();
  else initial();
}
$('[data-flip]').addEventListener('click', flip);
document.addEventListener('keydown', (event) => {
  if (typing(event) || event.altKey || event.ctrlKey || event.metaKey || !state.record) {
    if (!typing(event) && (event.key === 'f' || event.key === 'F')) flip();
    return;
  }
  const last = state.record.boards.length - 1;
  const keys = {
    ArrowLeft: () => goTo(state.ply - 1),
    ArrowRight: () => goTo(state.ply + 1),
    Home: () => goTo(0),
    End: () => goTo(last),
    f: flip,
    F: flip,
  };
  const action = keys[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
});

$('[data-record-input]').addEventListener('input', save);
$('#mode').addEventListener('change', save);

initial();
(async () => {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(INPUT_KEY) ?? 'null');
  } catch {
    saved = null;
  }
  if (saved && typeof saved.text === 'string' && saved.text.trim() !== '') {
    $('[data-record-input]').value = saved.text;
    if (saved.mode === 'lenient' || saved.mode === 'strict') $('#mode').value = saved.mode;
    await check();
    if (state.pgn && Number(saved.game) > 0) await openGame(Number(saved.game));
  }
})().finally(() => { document.body.dataset.ready = 'true'; });
