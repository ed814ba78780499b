/**
 * The board page's game: its lines (`lines.js`), the position shown, the commands undo took back,
 * and the FEN it starts from. Every position, result and reason is the server's (/api/duck/...):
 * this module asks, keeps what it is told, and calls `changed()` after each change.
 *
 *     const game = createGame({ changed, failed, engineToMove, reset });
 *
 * `engineToMove()` says whether the engine's side is to move in the position shown (undo and redo
 * go on until it is not); `reset()` is called when a new game starts (the clocks start again);
 * `failed(message)` shows an error. Requests run one after the other (`serial`), so that replies
 * arrive in the order they were asked for.
 */

import { api, apiLines, moveSound } from './common.js';
import { Lines } from './lines.js';
import { createPositions } from './positions.js';

/** The official start, and a board with the two captains alone (the least a position holds). */
export const INITIAL_FEN = 'rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR w - - 0 1';
export const CAPTAINS_ONLY = '4c4/9/9/9/9/9/9/9/9/4C4 w - - 0 1';

export function createGame({ changed, failed, engineToMove, reset }) {
  const lines = new Lines();
  const game = {
    lines,
    /** The line shown, and how many of its commands the position shown follows. */
    line: 'main',
    at: 0,
    /** The server's description of the position shown. */
    position: null,
    /** Commands taken back by undo from the end of the line shown, the last one on top. */
    redo: [],
    /** The FEN the game starts from, set up in the editor; null for the official start. */
    fen: null,
    /** Why the last command was refused, and its point (flashed once on the board). */
    explanation: '',
    refused: null,
  };

  /** A request about the game, which starts from `game.fen` when one is set up. */
  const withFen = (body) => (game.fen ? { ...body, fen: game.fen } : body);
  game.api = (path, body) => api(path, withFen(body));
  game.lines$ = (path, body, signal) => apiLines(path, withFen(body), signal);
  const positions = createPositions((commands) => game.api('/api/duck/position', { commands, at: commands.length }));
  game.positions = positions;

  let queue = Promise.resolve();
  /** Runs `task` after the requests already asked for. */
  game.serial = (task) => {
    queue = queue.then(task).catch((error) => failed(error.message));
    return queue;
  };

  game.shownLine = () => lines.line(game.line);
  game.end = () => lines.end(game.shownLine());
  game.commandsUpTo = (n) => lines.commands(game.shownLine(), n);
  /** The line played, as one string: what a search was asked about. */
  game.key = () => `${game.fen ?? ''}|${game.line}:${game.commandsUpTo(game.end()).join(',')}`;
  /** The position shown, as one string. */
  game.shownKey = () => `${game.fen ?? ''}|${game.commandsUpTo(game.at).join(',')}`;

  /** Shows `position`, reached after `at` commands of the line `line`. */
  function showing(line, at, position) {
    game.line = line;
    game.at = at;
    game.position = position;
    wanted = { line, at };
  }

  /** Replaces the game by the main line `commands` and shows the position after `at` of them. */
  game.load = async (commands, at) => {
    const reply = await game.api('/api/duck/game', { commands, at });
    lines.reset(reply.entries);
    showing('main', reply.position.ply, reply.position);
    positions.keep(commands.slice(0, game.at), reply.position);
    return reply;
  };

  /** Adds a variation leaving the main line after `start` commands with `commands`, and shows it. */
  game.loadVariation = async (start, commands, at) => {
    const whole = [...lines.commands(lines.line('main'), start), ...commands];
    const reply = await game.api('/api/duck/game', { commands: whole, at: Math.min(at, whole.length) });
    const line = lines.branch(start, reply.entries.slice(start));
    showing(line.id, reply.position.ply, reply.position);
    positions.keep(whole.slice(0, game.at), reply.position);
  };

  /** The position wanted by the last step asked for (steps may still be under way). */
  let wanted = { line: 'main', at: 0 };
  game.wanted = () => wanted;

  /** Shows the position after `n` commands of the line `id` (the line shown by default). */
  game.goTo = (n, id = game.line) => {
    const line = lines.line(id);
    wanted = { line: line.id, at: Math.max(0, Math.min(n, lines.end(line))) };
    if (wanted.at === game.at && wanted.line === game.line && game.position) return;
    game.serial(async () => {
      const target = wanted;
      if (target.at === game.at && target.line === game.line) return;
      const position = await positions.after(lines.commands(lines.line(target.line), target.at));
      // Not `showing`: steps asked for meanwhile keep the position they want.
      game.line = target.line;
      game.at = target.at;
      game.position = position;
      game.explanation = '';
      changed();
    });
  };

  /**
   * Asks the server to judge `from` → `to` after the position shown and plays it when valid (the
   * reply carries the position after it); an invalid one is explained. Resolves to whether it
   * was played.
   */
  game.play = async (from, to) => {
    const command = `${from[0]} ${from[1]} ${to[0]} ${to[1]}`;
    const before = game.commandsUpTo(game.at);
    const reply = await game.api('/api/duck/move', { commands: before, command });
    if (reply.entry.valid) {
      positions.keep([...before, command], reply.position);
      game.redo = [];
      const shown = lines.place(game.shownLine(), game.at, reply.entry);
      showing(shown.line, shown.at, reply.position);
      game.explanation = '';
      moveSound();
    } else {
      game.explanation = reply.entry.reason;
      game.refused = to;
    }
    changed();
    return reply.entry.valid;
  };

  /** The player's move `from` → `to`. */
  game.attempt = (from, to) => game.serial(() => game.play(from, to));

  /** Asks the server why the piece on `point` cannot be moved (not the side to move, game over). */
  game.whyNot = (point) => game.serial(async () => {
    const command = `${point[0]} ${point[1]} ${point[0]} ${point[1]}`;
    const reply = await game.api('/api/duck/move', { commands: game.commandsUpTo(game.at), command });
    game.explanation = reply.entry.valid ? '' : reply.entry.reason;
    game.refused = point;
    changed();
  });

  /** Starts the game from `fen` (null: the official start); what was kept of the other goes. */
  game.setFen = (fen) => {
    if (fen === game.fen) return;
    game.fen = fen;
    positions.clear();
  };

  /** A new game from the official start. */
  game.restart = () => game.serial(async () => {
    reset();
    game.setFen(null);
    await game.load([], 0);
    game.redo = [];
    game.explanation = '';
    changed();
  });

  /** Starts a new game from `position`, which the server has just described (the editor's). */
  game.setUp = (position) => {
    game.setFen(position.fen === INITIAL_FEN ? null : position.fen);
    reset();
    lines.reset([]);
    showing('main', 0, position);
    game.redo = [];
    positions.keep([], position);
    game.explanation = '';
  };

  /**
   * Takes back the last command of the line shown; against the engine, also the commands before
   * it until the player is to move (the engine's reply and the player's move), so that the engine
   * does not at once play again what was taken back. A variation left empty is closed.
   */
  game.undo = () => game.serial(async () => {
    do {
      const line = game.shownLine();
      if (line.entries.length === 0) break;
      game.redo.push(line.entries.pop().command);
      lines.prune(line, lines.end(line));
      let at = lines.end(line);
      let id = line.id;
      if (line.entries.length === 0 && line.parent) {
        lines.remove(line);
        id = line.parent;
        game.redo = [];
        at = line.start;
      }
      game.line = id;
      game.at = at;
      game.position = await positions.after(game.commandsUpTo(at));
    } while (game.at === game.end() && game.shownLine().entries.length > 0 && engineToMove());
    showing(game.line, game.at, game.position);
    game.explanation = '';
    changed();
  });

  /** Plays again the commands taken back, as many as undo took (up to the player's turn). */
  game.redoMoves = () => game.serial(async () => {
    do {
      const command = game.redo.pop();
      if (command === undefined) break;
      const line = game.shownLine();
      const before = lines.commands(line, lines.end(line));
      const reply = await game.api('/api/duck/move', { commands: before, command });
      line.entries.push(reply.entry);
      lines.version += 1;
      game.at = lines.end(line);
      game.position = reply.position ?? await positions.after([...before, command]);
      if (reply.position) positions.keep([...before, command], reply.position);
    } while (game.redo.length > 0 && engineToMove());
    showing(game.line, game.at, game.position);
    game.explanation = '';
    changed();
  });

  /** Replaces the game by an official input, judged by the server; resolves to its reply. */
  game.importText = async (text) => {
    const reply = await api('/api/duck/import', { text });
    // An official input starts from the official start, a new game.
    game.setFen(null);
    reset();
    lines.reset(reply.entries);
    showing('main', reply.position.ply, reply.position);
    positions.keep(reply.entries.map((entry) => entry.command), reply.position);
    game.redo = [];
    game.explanation = '';
    return reply;
  };

  /** The line shown as an official command list. */
  game.exported = async () => {
    const reply = await game.api('/api/duck/game', { commands: game.commandsUpTo(game.end()) });
    return reply.input;
  };

  /** Fetches in the background the positions near the one shown. */
  game.prefetch = () => {
    const line = game.shownLine();
    positions.prefetch(game.at, lines.end(line), (n) => lines.commands(line, n));
  };

  return game;
}
