/**
 * Playing the engine on the board page, and the clocks against it.
 *
 * The engine plays its side whenever that side is to move in the last position of the game: after
 * the player's move, at once when it is given the side to move, after a new game, an import, undo
 * or redo that leave it to move. It does not move while an earlier position is shown (stepping
 * back stops its search; returning to the end starts it again) nor once the game is over. The
 * search runs on the server, which streams each iteration (/api/duck/engine); the page draws them
 * and plays the move answered like a click. "Move now" asks the server to stop the search, which
 * then answers its best move so far.
 *
 * With a time control (`5+3`: five minutes, three seconds added after each move) each side has a
 * clock; the side to move at the end of the game has its clock running (stepping back does not
 * stop it). A clock that reaches zero loses the game, and the player may resign (asked twice).
 * The engine's side, its time, the control and the clocks are kept across a reload.
 *
 *     const engine = createEngine(game, { changed, failed, style });
 *     engine.sync();   // after each change of the game: search, stop, run the clocks
 */

import { $, api, capitalised, confirming, h, nearOnNarrow } from './common.js';
import { showClock } from './clocks.js';
import { written } from './movelist.js';

const ENGINE_KEY = 'arbiter.duck.engine';
const CLOCK_KEY = 'arbiter.duck.clock';

/** A score seen by red: `+0.35` (soldiers), `#3` (red captures the captain in 3 moves), `#-3`. */
export function scoreText(score) {
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

/** A principal variation as text: each move in the notation of the list, the commands on hover. */
export function pvNodes(moves, style) {
  return moves.map((mv, i) => h('span', { class: i === 0 ? 'first' : '', title: `${mv.command} · ${mv.uci}` },
    mv.notation ? written(mv.notation, style) : mv.uci));
}

export function createEngine(game, { changed, failed, style }) {
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
  engine.clock = clock;

  /** Whether the engine's side is to move in the position shown (game over or not). */
  engine.sideToMove = () => engine.side !== 'none' && game.position?.winner === null
    && game.position.turn === engine.side;
  /** Whether the engine is to move now: its side to move at the end of the line played. */
  engine.toMove = () => engine.sideToMove() && game.at === game.end() && !clock.over;
  /** The moves the player may make in the position shown: none where the engine's side is to move. */
  engine.playable = () => (engine.sideToMove() || clock.over ? [] : game.position.moves);
  /** The engine's best move so far, as an arrow on the board, while it thinks. */
  engine.arrows = () => {
    const guess = engine.search && engine.info?.pv?.[0];
    return guess ? [{ from: guess.from, to: guess.to, class: `${engine.search.side} guess` }] : [];
  };

  /** Starts a search when the engine is to move, drops one that no longer fits the game, and
   *  runs the clock of the side to move. */
  engine.sync = () => {
    const key = game.key();
    const due = engine.toMove();
    const search = engine.search;
    if (search && (!due || search.key !== key || search.side !== engine.side)) {
      search.controller.abort();
      engine.search = null;
    }
    if (!engine.search && due && engine.failed !== key) think(key);
    syncClock();
    render();
  };

  /** Searches the last position of the game `key`, drawing each iteration, and plays the answer. */
  async function think(key) {
    const search = { key, side: engine.side, controller: new AbortController(), id: null, stopping: false };
    engine.search = search;
    engine.info = null;
    engine.note = '';
    // On a clock, the engine keeps to its time per move but never spends more than a twentieth of
    // what it has left.
    const movetime = clockOn() ? Math.max(100, Math.min(engine.time, Math.floor(remaining(engine.side) / 20))) : engine.time;
    const request = { commands: game.commandsUpTo(game.end()), movetime };
    try {
      for await (const line of game.lines$('/api/duck/engine', request, search.controller.signal)) {
        if (engine.search !== search) return;
        if (line.event === 'start') {
          search.id = line.id;
          render();
        } else if (line.event === 'info') {
          engine.info = line;
          changed();
        } else if (line.event === 'best') {
          answer(search, line);
          return;
        } else if (line.event === 'error') {
          throw new Error(line.error);
        }
      }
      throw new Error('the search ended without an answer');
    } catch (error) {
      // A search dropped by sync was aborted on purpose.
      if (engine.search !== search) return;
      engine.search = null;
      engine.failed = key;
      if (error.status === 429) {
        // The server's engines are all busy: try again shortly, while it is still our turn.
        engine.note = 'The server\'s engine is busy; trying again in a moment…';
        setTimeout(() => {
          if (engine.failed !== key) return;
          engine.failed = null;
          changed();
        }, 1500);
      } else {
        engine.note = `The engine failed: ${error.message}`;
      }
      changed();
    }
  }

  /** Plays the engine's answer, unless the game has changed meanwhile. */
  function answer(search, line) {
    if (!line.move) {
      engine.search = null;
      engine.failed = search.key;
      engine.note = capitalised(line.reason ?? 'the engine has no move');
      changed();
      return;
    }
    engine.info = line;
    game.serial(async () => {
      if (engine.search !== search) return;
      engine.search = null;
      if (game.key() !== search.key || game.at !== game.end()) {
        changed();
        return;
      }
      if (!(await game.play(line.move.from, line.move.to))) {
        engine.failed = search.key;
        engine.note = 'The engine\'s move was refused.';
        changed();
      }
    });
  }

  /** "Move now": the search stops and answers its best move so far. */
  async function moveNow() {
    const search = engine.search;
    if (!search || search.id === null || search.stopping) return;
    search.stopping = true;
    render();
    try {
      await api('/api/duck/engine/stop', { id: search.id });
    } catch (error) {
      failed(error.message);
    }
  }

  function render() {
    const box = $('#engine');
    const search = engine.search;
    box.dataset.engineState = engine.side === 'none' ? 'off' : search ? 'thinking' : 'waiting';
    let status;
    if (engine.side === 'none') status = 'Choose a side for the engine to play against it.';
    else if (search) status = `${capitalised(search.side)} is thinking${search.stopping ? ': moving now' : '…'}`;
    else if (engine.note) status = engine.note;
    else if (game.position?.winner || clock.over) status = 'The game is over.';
    else if (game.at < game.end()) status = 'An earlier position is shown: the engine plays again at the end of the line (End).';
    else status = `Your move; the engine plays ${engine.side}.`;
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
    pv.replaceChildren(...pvNodes(moves, style()));
    pv.dataset.commands = moves.map((mv) => mv.command).join(',');
    pv.title = moves.length > 0 ? `As commands: ${moves.map((mv) => mv.command).join(' · ')}` : '';
    renderClocks();
  }
  engine.render = render;

  // -------------------------------------------------------------------------------------------
  // The clocks.

  const clockOn = () => clock.control !== null && engine.side !== 'none';

  /** What `side` has left now, in milliseconds. */
  function remaining(side) {
    const running = clock.turn === side && clock.since !== null ? performance.now() - clock.since : 0;
    return Math.max(0, clock.ms[side] - running);
  }

  /** Sets both clocks to the control's time, stopped, and forgets how the last game ended. */
  engine.reset = () => {
    const base = clock.control?.base ?? 0;
    clock.ms = { red: base, blue: base };
    clock.turn = null;
    clock.since = null;
    clock.over = null;
  };

  function stopClock() {
    if (clock.turn) clock.ms[clock.turn] = remaining(clock.turn);
    clock.since = null;
  }

  /** Runs the clock of the side to move at the end of the game, when the end is shown. */
  function syncClock() {
    if (!clockOn() || clock.over) {
      stopClock();
    } else if (game.position && game.at === game.end()) {
      const turn = game.position.turn;
      if (game.position.winner !== null) {
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
    save();
  }

  /** The running clock's second hand; a flag that falls ends the game. */
  function tick() {
    if (clock.turn && clock.since !== null && remaining(clock.turn) <= 0) {
      stopClock();
      clock.over = { winner: clock.turn === 'red' ? 'blue' : 'red', reason: 'time' };
      changed();
      return;
    }
    renderClocks();
  }

  function renderClocks() {
    const box = $('#clocks');
    box.classList.toggle('hidden', !clockOn());
    for (const side of ['red', 'blue']) {
      const face = box.querySelector(`[data-clock="${side}"]`);
      showClock(face, {
        ms: remaining(side),
        running: clock.turn === side && clock.since !== null,
        flagged: clock.over?.reason === 'time' && clock.over.winner !== side,
      });
      face.querySelector('.who').textContent = side === engine.side ? `${capitalised(side)} · engine` : `${capitalised(side)} · you`;
    }
    // The player's clock at the bottom, as the board shows the player's side.
    box.classList.toggle('flipped', engine.side === 'red');
    $('[data-resign]').disabled = engine.side === 'none' || clock.over !== null || game.position?.winner !== null;
  }

  /** The clocks as they stand, kept for a reload of the same game. */
  function save() {
    if (!clockOn() || !game.position) return;
    const ms = { red: remaining('red'), blue: remaining('blue') };
    try {
      localStorage.setItem(CLOCK_KEY, JSON.stringify({
        game: game.key(), ms, turn: clock.turn, running: clock.since !== null, over: clock.over, at: Date.now(),
      }));
    } catch {
      // Without storage the clocks start again at a reload.
    }
  }

  /** Takes back the clocks kept for this game before a reload: the time since counts. */
  engine.restoreClock = () => {
    let kept;
    try {
      kept = JSON.parse(localStorage.getItem(CLOCK_KEY) ?? 'null');
    } catch {
      kept = null;
    }
    if (!kept || !clockOn() || kept.game !== game.key()) return;
    clock.ms = { red: Number(kept.ms?.red) || 0, blue: Number(kept.ms?.blue) || 0 };
    clock.turn = ['red', 'blue'].includes(kept.turn) ? kept.turn : null;
    clock.over = kept.over ?? null;
    if (clock.turn && kept.running && !clock.over) {
      clock.ms[clock.turn] = Math.max(0, clock.ms[clock.turn] - Math.max(0, Date.now() - kept.at));
      clock.since = performance.now();
    }
  };

  // -------------------------------------------------------------------------------------------
  // The controls, and the set-up kept across reloads.

  function keep() {
    const control = clock.control ? `${clock.control.base / 60000}+${clock.control.increment / 1000}` : 'none';
    localStorage.setItem(ENGINE_KEY, JSON.stringify({ side: engine.side, time: engine.time, clock: control }));
  }

  const sideSelect = $('[data-engine-side]');
  const timeSelect = $('[data-engine-time]');
  const controlSelect = $('[data-clock-control]');
  const setControl = (value) => {
    const [minutes, seconds] = value.split('+').map(Number);
    clock.control = Number.isFinite(minutes) && Number.isFinite(seconds)
      ? { base: minutes * 60000, increment: seconds * 1000 } : null;
  };
  sideSelect.addEventListener('change', () => {
    engine.side = ['red', 'blue'].includes(sideSelect.value) ? sideSelect.value : 'none';
    engine.reset();
    engine.failed = null;
    engine.note = '';
    keep();
    engine.onSide?.(engine.side);
    changed();
  });
  timeSelect.addEventListener('change', () => {
    engine.time = Number(timeSelect.value) || 1000;
    keep();
  });
  controlSelect.addEventListener('change', () => {
    setControl(controlSelect.value);
    engine.reset();
    keep();
    changed();
  });
  $('[data-engine-stop]').addEventListener('click', moveNow);
  // On a phone the clocks stand under the board, in the first screen with it.
  nearOnNarrow($('#clocks'), $('.board-area .board-bar'));
  confirming($('[data-resign]'), 'Really resign?', () => {
    if (engine.side === 'none' || clock.over || game.position?.winner) return;
    stopClock();
    clock.over = { winner: engine.side, reason: 'resign' };
    changed();
  });
  try {
    const saved = JSON.parse(localStorage.getItem(ENGINE_KEY) ?? '{}');
    if (['red', 'blue'].includes(saved.side)) engine.side = saved.side;
    if ([...timeSelect.options].some((option) => option.value === String(saved.time))) engine.time = saved.time;
    if ([...controlSelect.options].some((option) => option.value === saved.clock)) setControl(saved.clock);
  } catch {
    // A setting that cannot be read is not kept.
  }
  // What the browser may have kept in the fields from before a reload is not what the page does.
  sideSelect.value = engine.side;
  timeSelect.value = String(engine.time);
  controlSelect.value = clock.control ? `${clock.control.base / 60000}+${clock.control.increment / 1000}` : 'none';
  engine.reset();
  return engine;
}
