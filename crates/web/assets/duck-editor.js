/**
 * The position editor of the board page. Pieces of either colour are placed, moved and removed on
 * the board, the side to move chosen, or a FEN pasted; each change is sent to the server, which
 * says whether it is a position of the game (and why not: `arbiter_duck::Position::from_fen`). A
 * position it takes becomes the start of a new game, carried by the address (`fen=`), played and
 * analysed like any other. The palette draws the pieces as the board does (glyphs or letters);
 * on a narrow screen the editor stands right under the board, so that the board and the palette
 * are seen together.
 *
 *     const editor = createEditor(game, { changed, style });
 *     editor.open;                 // the board then reports every click to editor.click(point)
 *     editor.highlights();         // the piece held by the move tool, for the board
 */

import { $, api, h, nearOnNarrow } from './common.js';
import { INITIAL_FEN, CAPTAINS_ONLY } from './duck-game.js';
import { pieceIcon } from './board.js';

/** The letters of the FEN, as `arbiter_duck::fen` reads them (upper case for red). */
const FEN_LETTERS = { car: 'r', horse: 'h', elephant: 'e', guard: 'g', captain: 'c', duck: 'd', soldier: 's' };
const ROWS = 10;
const COLS = 9;

const same = (a, b) => Boolean(a && b && a[0] === b[0] && a[1] === b[1]);

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

export function createEditor(game, { changed, style }) {
  const editor = {
    open: false,
    /** `move`, `remove`, or a piece to place (`red car`). */
    tool: 'move',
    /** The point of the piece picked up by the move tool. */
    held: null,
  };
  const box = $('#editor');
  const fenInput = $('[data-fen-input]');

  /** Asks the server for the position `fen` and, if it is one, starts a new game from it. */
  function trySetup(fen) {
    game.serial(async () => {
      try {
        const position = await api('/api/duck/position', { commands: [], fen });
        game.setUp(position);
        fenInput.value = position.fen;
      } catch (error) {
        game.explanation = error.message;
      }
      changed();
    });
  }

  /** What a click on `point` does, with the tool chosen. */
  editor.click = (point) => {
    const position = game.position;
    const key = point.join();
    const pieces = position.pieces.filter((piece) => piece.point.join() !== key);
    const here = position.pieces.find((piece) => piece.point.join() === key);
    if (editor.tool === 'move') {
      if (!editor.held) {
        if (here) editor.held = point;
        changed();
        return;
      }
      const held = editor.held;
      editor.held = null;
      if (same(held, point)) {
        changed();
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
  };

  /** The piece held by the move tool, marked on the board. */
  editor.highlights = () => (editor.open && editor.held ? [{ point: editor.held, class: 'held' }] : []);

  /** The palette: the two tools, then every piece of both colours, drawn in the board's style. */
  function palette() {
    const tools = [['move', 'Move'], ['remove', 'Remove']];
    for (const color of ['red', 'blue']) {
      for (const role of Object.keys(FEN_LETTERS)) tools.push([`${color} ${role}`, null]);
    }
    $('#editor-palette').replaceChildren(...tools.map(([tool, label]) => {
      const [color, role] = tool.split(' ');
      return h('button', {
        type: 'button',
        'data-editor-tool': tool,
        class: label ? '' : `piece-tool ${color}`,
        title: label ? `${label} a piece` : `Place a ${tool}`,
        'aria-label': label ?? `place a ${tool}`,
        'aria-pressed': String(tool === editor.tool),
      }, label ?? pieceIcon({ color, role }, style()));
    }));
  }

  editor.render = () => {
    $('[data-editor]').setAttribute('aria-pressed', String(editor.open));
    box.classList.toggle('hidden', !editor.open);
    for (const button of box.querySelectorAll('[data-editor-tool]')) {
      button.setAttribute('aria-pressed', String(button.dataset.editorTool === editor.tool));
    }
    if (game.position) $('[data-editor-turn]').value = game.position.turn;
    document.body.dataset.editing = String(editor.open);
  };

  /** The pieces drawn again in the board's style. */
  editor.restyle = palette;

  // A narrow screen shows the editor under the board; a wide one in the side panel.
  nearOnNarrow(box, $('.board-area .board-bar'));

  $('#editor-palette').addEventListener('click', (event) => {
    const button = event.target.closest('[data-editor-tool]');
    if (!button) return;
    editor.tool = button.dataset.editorTool;
    editor.held = null;
    changed();
  });
  $('[data-editor]').addEventListener('click', () => {
    editor.open = !editor.open;
    editor.held = null;
    if (editor.open) fenInput.value = game.position?.fen ?? '';
    changed();
  });
  $('[data-editor-turn]').addEventListener('change', (event) => {
    if (game.position) trySetup(fenOf(game.position.pieces, event.target.value === 'blue' ? 'blue' : 'red'));
  });
  $('[data-fen-go]').addEventListener('click', () => {
    const fen = fenInput.value.trim();
    if (fen) trySetup(fen);
  });
  fenInput.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') $('[data-fen-go]').click();
  });
  $('[data-editor-start]').addEventListener('click', () => trySetup(INITIAL_FEN));
  $('[data-editor-clear]').addEventListener('click', () => trySetup(CAPTAINS_ONLY));
  $('[data-editor-done]').addEventListener('click', () => {
    editor.open = false;
    editor.held = null;
    changed();
  });
  palette();
  return editor;
}
