/**
 * The analysis board. Switched on, the server's engine searches the position shown, whatever it
 * is (played, imported, stepped to), for its best lines (MultiPV), up to the server's time cap,
 * and starts again on each position shown; the evaluation bar beside the board shows the best
 * line's score. While the engine thinks for its side, the analysis waits: the server's cores are
 * few. "Show threat" asks what the other side would play if it were its move (the server passes
 * the turn). The evaluation graph is a short search of every position of the line shown
 * (/api/duck/engine/evaluate), the commands that lost their side more than a soldier and a half
 * marked; a click on a point shows that position.
 *
 *     const analysis = createAnalysis(game, engine, { changed, failed, style, flipped });
 *     analysis.sync();     // after each change of the position shown
 *     analysis.arrows();   // the threat, for the board
 */

import { $, capitalised, h, s } from './common.js';
import { pvNodes, scoreText } from './duck-engine.js';

const ANALYSIS_LINES = 3;
/** The server's time cap per search, in milliseconds: the longest an analysis runs. */
const ANALYSIS_TIME = 10000;
const THREAT_TIME = 1000;
const GRAPH_WIDTH = 300;
const GRAPH_HEIGHT = 70;

/** A score's share of the evaluation bar that is red's, 0 to 1. */
function redShare(score) {
  if (!score) return 0.5;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-score.cp / 250));
}

/** A point's height in the graph, 0 (blue wins) to 1 (red wins). */
function pointShare(point) {
  if (point.winner) return point.winner === 'red' ? 1 : 0;
  return redShare(point.score);
}

export function createAnalysis(game, engine, { changed, failed, style, flipped }) {
  const analysis = {
    on: false,
    /** The position (`game.shownKey()`) the lines are of, and the search under way. */
    key: null,
    search: null,
    /** The last iteration of each line, best first. */
    lines: [],
    note: '',
    threat: { on: false, key: null, search: null, line: null, side: null },
    /** The evaluated game: {key, line, commands, points, complete}; `graphing` while under way. */
    graph: null,
    graphing: null,
  };

  /** Runs `request` on the engine, calling `each` with every line; resolves when it ends. */
  async function stream(request, search, each) {
    for await (const line of game.lines$('/api/duck/engine', request, search.controller.signal)) {
      if (line.event === 'error') throw new Error(line.error);
      each(line);
    }
  }

  /** Starts or drops the analysis and the threat to fit the position shown. */
  analysis.sync = () => {
    const key = game.shownKey();
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
    render();
  };

  /** Searches the position `key` shown for its best lines, drawing each iteration. */
  async function analyse(key) {
    const search = { key, controller: new AbortController() };
    analysis.search = search;
    analysis.key = key;
    analysis.lines = [];
    analysis.note = '';
    const request = { commands: game.commandsUpTo(game.at), movetime: ANALYSIS_TIME, multipv: ANALYSIS_LINES };
    try {
      await stream(request, search, (line) => {
        if (analysis.search !== search) return;
        if (line.event === 'info' && line.pv?.length) {
          analysis.lines[(line.multipv ?? 1) - 1] = line;
          render();
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
          analysis.sync();
        }, 1500);
      }
    }
    if (analysis.search !== search) return;
    analysis.search = null;
    render();
  }

  /** Asks what the side not to move would play in the position `key` if it were its move. */
  async function findThreat(key) {
    const threat = analysis.threat;
    const search = { key, controller: new AbortController() };
    threat.search = search;
    threat.key = key;
    threat.line = null;
    threat.side = game.position.turn === 'red' ? 'blue' : 'red';
    const request = { commands: game.commandsUpTo(game.at), movetime: THREAT_TIME, threat: true };
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
    changed();
  }

  /** The threat as an arrow on the board, once its search has answered. */
  analysis.arrows = () => {
    const threat = analysis.threat;
    const mv = threat.on && threat.key === game.shownKey() && !threat.search && (threat.line?.move ?? threat.line?.pv?.[0]);
    return mv ? [{ from: mv.from, to: mv.to, class: `${threat.side} threat` }] : [];
  };

  function render() {
    const box = $('#analysis');
    const toggle = $('[data-analysis]');
    toggle.setAttribute('aria-pressed', String(analysis.on));
    toggle.textContent = analysis.on ? 'Analysis: on' : 'Analysis: off';
    box.dataset.analysisState = !analysis.on ? 'off' : analysis.search ? 'thinking' : 'done';
    const current = analysis.key === game.shownKey();
    const lines = analysis.on && current ? analysis.lines.filter(Boolean) : [];
    $('[data-analysis-lines]').replaceChildren(...lines.map((line) => {
      const [score, side] = scoreText(line.score);
      return h('li', {
        'data-analysis-line': String(line.multipv ?? 1),
        'data-score': score,
        'data-commands': line.pv.map((mv) => mv.command).join(','),
      }, h('span', { class: `score ${side}` }, score), h('span', { class: 'depth' }, `d${line.depth}`),
      h('span', { class: 'pv' }, ...pvNodes(line.pv, style())));
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
    bar.style.setProperty('--red-share', String(redShare(best)));
    bar.title = best ? `Score for red: ${scoreText(best)[0]}` : 'No score yet';
    // The bar's red part stands at the red side of the board.
    bar.classList.toggle('flipped', flipped());

    const threat = analysis.threat;
    $('[data-threat]').setAttribute('aria-pressed', String(threat.on));
    const threatBox = $('[data-threat-line]');
    const line = threat.on && threat.key === game.shownKey() && !threat.search ? threat.line : null;
    const moves = line?.pv ?? (line?.move ? [line.move] : []);
    threatBox.dataset.commands = moves.map((mv) => mv.command).join(',');
    threatBox.dataset.score = line?.score ? scoreText(line.score)[0] : '';
    if (!threat.on) threatBox.replaceChildren();
    else if (threat.search) threatBox.replaceChildren('Looking for the threat…');
    else if (moves.length) {
      threatBox.replaceChildren(`${capitalised(threat.side)} threatens `, ...pvNodes(moves.slice(0, 1), style()),
        line.score ? ` (${scoreText(line.score)[0]})` : '');
    } else threatBox.replaceChildren(line?.reason ? capitalised(line.reason) : '');
    renderGraph();
  }
  analysis.render = render;

  /** Evaluates every position of the line shown, for the graph. */
  analysis.evaluate = () => {
    const line = game.shownLine();
    const commands = game.commandsUpTo(game.end());
    const key = `${game.fen ?? ''}|${line.id}:${commands.join(',')}`;
    if (analysis.graphing === key || (analysis.graph && analysis.graph.key === key)) return;
    analysis.graphing = key;
    renderGraph();
    game.api('/api/duck/engine/evaluate', { commands })
      .then((reply) => {
        if (analysis.graphing !== key) return;
        analysis.graph = { key, line: line.id, commands, points: reply.points, complete: reply.complete };
      })
      .catch((error) => {
        if (analysis.graphing === key) failed(`The evaluation failed: ${error.message}`);
      })
      .finally(() => {
        if (analysis.graphing === key) analysis.graphing = null;
        renderGraph();
      });
  };

  /** Forgets the graph (the game now starts elsewhere). */
  analysis.forget = () => {
    analysis.graph = null;
  };

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
    const shown = graph.line === game.line ? game.at : -1;
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
    if (point && analysis.graph) game.goTo(Number(point.dataset.ply), analysis.graph.line);
  });
  $('[data-eval-go]').addEventListener('click', analysis.evaluate);
  $('[data-analysis]').addEventListener('click', () => {
    analysis.on = !analysis.on;
    if (!analysis.on) analysis.key = null;
    analysis.sync();
  });
  $('[data-threat]').addEventListener('click', () => {
    analysis.threat.on = !analysis.threat.on;
    analysis.threat.key = null;
    analysis.sync();
    changed();
  });
  return analysis;
}
