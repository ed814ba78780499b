// The Duck Chess board page. It assembles its modules, each owning its state: the game and its
// lines (duck-game.js), the board (board.js), the move list (movelist.js), the engine and its
// clocks (duck-engine.js), the analysis (duck-analysis.js), the editor (duck-editor.js), the side
// panel (duck-panel.js) and the address (duck-address.js). Every position, reachable point,
// result and reason comes from the server (/api/duck/...); the page draws them and sends back the
// command the player (or the engine) chose.

import { $, download, readFile, show, soundSwitch, stepKeys } from './common.js';
import { createBoard } from './board.js';
import { createMoveList, notationSwitch } from './movelist.js';
import { createGame } from './duck-game.js';
import { createEngine } from './duck-engine.js';
import { createAnalysis } from './duck-analysis.js';
import { createEditor } from './duck-editor.js';
import { createPanel } from './duck-panel.js';
import { readAddress, writeAddress } from './duck-address.js';

const STYLE_KEY = 'arbiter.duck.style';

/** How the board is shown: which way it faces and how its pieces are drawn. */
const view = {
  flipped: false,
  style: localStorage.getItem(STYLE_KEY) === 'western' ? 'western' : 'chinese',
  /** The live game analysed (`game=ID`), if any. */
  live: null,
};
const style = () => view.style;
const errorBox = $('#error');
const failed = (message) => show(errorBox, message);

// The modules call `render` after each change; it is defined below, once they all exist.
const changed = () => render();
const modules = {};
const game = createGame({
  changed,
  failed,
  engineToMove: () => modules.engine.sideToMove(),
  reset: () => {
    modules.engine.reset();
    modules.analysis.forget();
  },
});
const engine = createEngine(game, { changed, failed, style });
const analysis = createAnalysis(game, engine, { changed, failed, style, flipped: () => view.flipped });
const editor = createEditor(game, { changed, style });
const panel = createPanel(game, engine, analysis);
Object.assign(modules, { engine, analysis });

// The player's side at the bottom against the engine.
engine.onSide = (side) => {
  if (side !== 'none') view.flipped = side === 'red';
};
engine.onSide(engine.side);

/** What a click on a point that neither selects nor moves a piece does. */
function point(at) {
  const position = game.position;
  if (!position) return;
  if (editor.open) {
    editor.click(at);
    return;
  }
  if (engine.sideToMove()) {
    game.explanation = engine.toMove()
      ? 'The engine is to move: wait for it, or press Move now.'
      : `The engine plays ${engine.side}: its moves are its own, at the end of the line played.`;
    render();
    return;
  }
  const piece = position.pieces.find((p) => p.point.join() === at.join());
  if (piece && position.winner === null && piece.color === position.turn && !engine.clock.over) {
    // The server lists every piece of the side to move that has a move: this one has none.
    game.explanation = `The ${piece.piece} on (${at.join()}) has no valid move.`;
    game.refused = at;
    render();
  } else if (piece) {
    game.whyNot(at);
  }
}

const board = createBoard($('#board'), {
  style: view.style,
  onMove: (from, to) => game.attempt(from, to),
  onPoint: point,
});
const moveList = createMoveList($('#moves'), { lines: game.lines, onShow: (ply, line) => game.goTo(ply, line) });

function render() {
  const position = game.position;
  if (!position) return;
  // The searches first: one that no longer fits the position shown leaves no arrow behind.
  engine.sync();
  analysis.sync();
  board.set({
    position,
    dests: editor.open ? [] : engine.playable(),
    pick: editor.open,
    flipped: view.flipped,
    style: view.style,
    arrows: [...engine.arrows(), ...analysis.arrows()],
    highlights: editor.highlights(),
  });
  if (game.refused) {
    board.refuse(game.refused);
    game.refused = null;
  }
  $('#explain').textContent = game.explanation;
  editor.render();
  panel.render();
  moveList.render({ line: game.line, at: game.at, style: view.style });
  writeAddress(game, view.live);
  game.prefetch();
}

function flip() {
  view.flipped = !view.flipped;
  render();
}

/** Replaces the game by the official input `text`, with its commands judged. */
function importText(text) {
  game.serial(async () => {
    const importError = $('#import-error');
    const importWarning = $('#import-warning');
    show(importWarning, '');
    try {
      const reply = await game.importText(text);
      show(importError, '');
      show(importWarning, reply.warning);
      render();
      // An imported game is evaluated at once, for the graph.
      analysis.evaluate();
    } catch (error) {
      show(importError, error.message);
    }
    render();
  });
}

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

soundSwitch($('[data-sound]'));
/** Steps `where` (`first`, `prev`, `next`, `last`) along the line last asked for. */
function step(where) {
  const wanted = game.wanted();
  const total = game.lines.end(game.lines.line(wanted.line));
  const targets = { first: 0, prev: wanted.at - 1, next: wanted.at + 1, last: total };
  game.goTo(targets[where], where === 'first' ? game.line : wanted.line);
}
stepKeys({ step, flip, escape: () => board.select(null) });
for (const button of document.querySelectorAll('.board-bar [data-nav]')) {
  button.addEventListener('click', () => step(button.dataset.nav));
}
$('#slider').addEventListener('input', (event) => game.goTo(Number(event.target.value)));
$('[data-flip]').addEventListener('click', flip);
$('[data-new-game]').addEventListener('click', game.restart);
$('[data-undo]').addEventListener('click', game.undo);
$('[data-redo]').addEventListener('click', game.redoMoves);
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
$('[data-export]').addEventListener('click', () => game.serial(async () => {
  download('duck-game.in', await game.exported());
}));
$('[data-copy]').addEventListener('click', () => game.serial(async () => {
  await copy(await game.exported(), 'The browser refused the clipboard; use Download.');
}));
$('[data-copy-fen]').addEventListener('click', () => game.serial(async () => {
  if (game.position) await copy(game.position.fen, 'The browser refused the clipboard; select the FEN below.');
}));
notationSwitch($('[data-notation]'), $('#moves'));
const styleSelect = $('[data-style]');
styleSelect.value = view.style;
styleSelect.addEventListener('change', () => {
  view.style = styleSelect.value === 'western' ? 'western' : 'chinese';
  localStorage.setItem(STYLE_KEY, view.style);
  editor.restyle();
  render();
});

// Start: the game in the address, or a new one.
game.serial(async () => {
  const { fen, commands, variation, at, live } = readAddress();
  view.live = live;
  if (live) panel.showLive(live);
  try {
    game.setFen(fen);
    await game.load(commands, variation ? commands.length : at);
    if (variation) await game.loadVariation(variation.branch, variation.commands, at);
    engine.restoreClock();
  } catch (error) {
    game.setFen(null);
    await game.load([], 0);
    throw new Error(`The game in the address could not be loaded: ${error.message}`);
  } finally {
    render();
    document.body.dataset.ready = 'true';
  }
});
