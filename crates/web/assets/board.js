/**
 * The one Duck Chess board of every page: the board page, the live game, the position editor and
 * the archive all mount it. It knows no rule: it draws what it is given and reports what the
 * person did, as lichess's chessground does.
 *
 *     const board = createBoard(svg, {
 *       position,            // as the server describes one (/api/duck/position): {pieces: [{point,
 *                            //   piece, color, role, glyph}], last: {from, to} | null, checks:
 *                            //   [{captain, attackers}]}; null draws an empty board
 *       dests: [],           // [{from, to: [points]}]: the pieces that may move now and where
 *       flipped: false,      // blue at the bottom
 *       style: 'chinese',    // or 'western': the pieces' glyphs or their letters
 *       coordinates: true,   // the rows and columns labelled around the board
 *       arrows: [],          // [{from, to, class}]: more arrows (an engine's move, a threat)
 *       highlights: [],      // [{point, class}]: a class on a point (the editor's piece held)
 *       pick: false,         // true: every click is a point (`onPoint`), nothing is selected
 *       still: false,        // true: a picture, which takes no input (not in the tab order)
 *       onMove(from, to),    // a selected or dragged piece sent to another point, reachable or
 *                            //   not: the page asks the server, which says why it is refused
 *       onPoint(point),      // a click, tap, Enter or Space on a point that neither selects a
 *                            //   piece nor moves one (or any point, with `pick`)
 *     });
 *     board.set({position, dests});   // any part of the config; the board is drawn again
 *     board.refuse(point);            // a refused move's point, flashed once
 *     board.select(null);             // drops the selection
 *
 * A point is [x, y]: row 0..9 from red's side, column 0..8. The board owns only what is drawn and
 * touched: the selected piece, the point with the keyboard's focus ring, a piece being dragged.
 * A new position or new destinations drop the selection. Its DOM: each point `[data-point="x,y"]`
 * with `data-x`, `data-y`, a roving tab stop (`tabindex`), `role="button"` and an `aria-label`;
 * `.movable` on the pieces in `dests`, `.selected` and `data-reachable` while one is selected;
 * each piece `[data-piece="red horse"]`.
 */

import { s } from './common.js';

const CELL = 100;
const MARGIN = 105;
const ROWS = 10;
const COLS = 9;

/** The letters of the Western style: the FEN letters of the pieces, upper case. */
export const LETTERS = { car: 'R', horse: 'H', elephant: 'E', guard: 'G', captain: 'C', duck: 'D', soldier: 'S' };

/** The glyphs of the pieces, red's then blue's, as the server writes them. */
export const GLYPHS = {
  red: { car: '俥', horse: '傌', elephant: '相', guard: '仕', captain: '帥', duck: '鴨', soldier: '兵' },
  blue: { car: '車', horse: '馬', elephant: '象', guard: '士', captain: '將', duck: '鴨', soldier: '卒' },
};

const same = (a, b) => Boolean(a && b && a[0] === b[0] && a[1] === b[1]);
const key = (point) => point.join();

/** A piece drawn at (cx, cy): a disc with its glyph or letter. */
export function pieceNode(piece, cx, cy, style) {
  const western = style === 'western';
  const glyph = piece.glyph ?? GLYPHS[piece.color][piece.role];
  const attrs = { class: `piece ${piece.color}`, transform: `translate(${cx} ${cy})` };
  if (piece.point) {
    Object.assign(attrs, {
      'data-piece': piece.piece, role: 'img', 'aria-label': `${piece.piece} on (${key(piece.point)})`,
    });
  }
  return s('g', attrs,
    s('title', {}, piece.piece ?? `${piece.color} ${piece.role}`),
    s('g', { class: 'lift' },
      s('circle', { class: 'piece-disc', r: 44 }),
      s('circle', { class: 'piece-ring', r: 36 }),
      s('text', { class: western ? 'glyph western' : 'glyph', y: western ? 3 : 1 },
        western ? LETTERS[piece.role] : glyph)));
}

/** A piece alone in an SVG of its own (a button of the editor's palette). */
export function pieceIcon(piece, style) {
  return s('svg', { class: 'board duck piece-icon', viewBox: '-50 -50 100 100', 'aria-hidden': 'true' },
    pieceNode(piece, 0, 0, style));
}

/** The shared gradients, once per page. */
function defs() {
  return s('defs', {},
    s('radialGradient', { id: 'ivory', cx: '40%', cy: '35%', r: '70%' },
      s('stop', { offset: '0%', 'stop-color': '#fffaf0' }),
      s('stop', { offset: '100%', 'stop-color': '#ecd9b0' })),
    s('radialGradient', { id: 'danger' },
      s('stop', { offset: '0%', 'stop-color': 'rgb(230 40 20 / 75%)' }),
      s('stop', { offset: '100%', 'stop-color': 'rgb(230 40 20 / 0%)' })),
    s('linearGradient', { id: 'wood', x1: '0', y1: '0', x2: '1', y2: '1' },
      s('stop', { offset: '0%', 'stop-color': '#efd29e' }),
      s('stop', { offset: '100%', 'stop-color': '#e0b877' })));
}

/** An arrow from (fx, fy) to (tx, ty): a shaft stopping `gap` short of the point, and a head. */
function arrowPath(fx, fy, tx, ty, { start, gap, head, width, cls, headCls }) {
  const length = Math.hypot(tx - fx, ty - fy) || 1;
  const ux = (tx - fx) / length;
  const uy = (ty - fy) / length;
  const [ex, ey] = [tx - ux * gap, ty - uy * gap];
  return [
    s('path', { class: cls, d: `M${fx + ux * start} ${fy + uy * start}L${ex - ux * head * 0.55} ${ey - uy * head * 0.55}` }),
    s('path', {
      class: headCls,
      d: `M${ex} ${ey}L${ex - ux * head - uy * width} ${ey - uy * head + ux * width}L${ex - ux * head + uy * width} ${ey - uy * head - ux * width}Z`,
    }),
  ];
}

/** Four corner brackets around a point, like the official toy's marks. */
function brackets(cx, cy, cls) {
  const a = 40;
  const l = 15;
  const d = [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([sx, sy]) => {
    const x = cx + sx * a;
    const y = cy + sy * a;
    return `M${x} ${y - sy * l}V${y}H${x - sx * l}`;
  }).join('');
  return s('path', { class: cls, d });
}

export function createBoard(svg, initial = {}) {
  const config = {
    position: null, dests: [], flipped: false, style: 'chinese', coordinates: true,
    arrows: [], highlights: [], pick: false, still: false, onMove: () => {}, onPoint: () => {},
  };
  /** What the person is doing: the selected piece, the focus ring, a press under way. */
  let selected = null;
  let focus = [0, 4];
  let refused = null;
  let press = null;
  /** How the grid drawn faces, and whether it is labelled (null before it is drawn). */
  let drawnGrid = null;

  /** Where point [x, y] is drawn. */
  function place([x, y]) {
    const col = config.flipped ? COLS - 1 - y : y;
    const row = config.flipped ? x : ROWS - 1 - x;
    return [MARGIN + col * CELL, MARGIN + row * CELL];
  }

  /** The point nearest to a place on the board, if on it. */
  function pointAt(sx, sy) {
    const col = Math.round((sx - MARGIN) / CELL);
    const row = Math.round((sy - MARGIN) / CELL);
    if (col < 0 || col >= COLS || row < 0 || row >= ROWS) return null;
    return config.flipped ? [row, COLS - 1 - col] : [ROWS - 1 - row, col];
  }

  function grid() {
    const [left, right, top, bottom] = [MARGIN, MARGIN + (COLS - 1) * CELL, MARGIN, MARGIN + (ROWS - 1) * CELL];
    const river = MARGIN + 4 * CELL;
    const lines = [];
    for (let r = 0; r < ROWS; r++) lines.push(`M${left} ${top + r * CELL}H${right}`);
    for (let c = 0; c < COLS; c++) {
      const x = left + c * CELL;
      if (c === 0 || c === COLS - 1) lines.push(`M${x} ${top}V${bottom}`);
      else lines.push(`M${x} ${top}V${river}`, `M${x} ${river + CELL}V${bottom}`);
    }
    const parts = [
      defs(),
      s('rect', { x: 4, y: 4, width: 1002, height: 1102, rx: 22, fill: 'url(#wood)', stroke: '#a67c45', 'stroke-width': 3 }),
      s('rect', { x: left - 10, y: top - 10, width: right - left + 20, height: bottom - top + 20, fill: 'none', stroke: '#6b4a2b', 'stroke-width': 4 }),
      s('path', { d: lines.join(''), stroke: '#6b4a2b', 'stroke-width': 2.5, fill: 'none' }),
      s('text', { class: 'river', x: (left + right) / 2 + 12, y: river + CELL / 2 }, '鸭棋'),
    ];
    if (config.coordinates) {
      for (let x = 0; x < ROWS; x++) parts.push(s('text', { class: 'coord', x: 30, y: place([x, 0])[1] }, x));
      for (let y = 0; y < COLS; y++) parts.push(s('text', { class: 'coord', x: place([0, y])[0], y: bottom + MARGIN - 24 }, y));
    }
    return parts;
  }

  const movable = () => new Map((config.dests ?? []).map((d) => [key(d.from), d.to]));

  function draw() {
    const position = config.position;
    const gridKey = `${config.flipped}|${config.coordinates}`;
    if (drawnGrid !== gridKey) {
      drawnGrid = gridKey;
      svg.replaceChildren(
        s('g', { class: 'grid' }, grid()),
        s('g', { class: 'under' }),
        s('g', { class: 'points' }),
        s('g', { class: 'arrows', 'pointer-events': 'none' }),
        s('g', { class: 'more-arrows', 'pointer-events': 'none' }),
      );
    }
    const hadFocus = svg.contains(document.activeElement);
    const pieces = new Map((position?.pieces ?? []).map((piece) => [key(piece.point), piece]));
    const moves = config.pick ? new Map() : movable();
    const reachable = new Set((selected && moves.get(key(selected)) || []).map(key));
    const checks = position?.checks ?? [];
    const attackers = new Set(checks.flatMap((c) => c.attackers.map(key)));
    const marks = new Map();
    for (const { point, class: cls } of config.highlights ?? []) marks.set(key(point), cls);

    const under = [];
    if (position?.last) for (const point of [position.last.from, position.last.to]) under.push(brackets(...place(point), 'last'));
    for (const check of checks) {
      const [cx, cy] = place(check.captain);
      under.push(s('circle', { class: 'check-glow', cx, cy, r: 62 }));
    }

    const points = [];
    for (let x = ROWS - 1; x >= 0; x--) {
      for (let y = 0; y < COLS; y++) {
        const point = [x, y];
        const k = key(point);
        const [cx, cy] = place(point);
        const piece = pieces.get(k);
        const isSelected = same(selected, point);
        const classes = ['point'];
        if (moves.has(k)) classes.push('movable');
        if (isSelected) classes.push('selected');
        if (marks.has(k)) classes.push(marks.get(k));
        const children = [s('rect', { class: 'hit', x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL })];
        if (isSelected) children.push(s('circle', { class: 'sel', cx, cy, r: 50 }));
        if (attackers.has(k)) children.push(s('circle', { class: 'attacker', cx, cy, r: 50 }));
        if (piece) children.push(pieceNode(piece, cx, cy, config.style));
        if (reachable.has(k)) {
          children.push(piece ? s('circle', { class: 'capture', cx, cy, r: 47 }) : s('circle', { class: 'dot', cx, cy, r: 15 }));
        }
        if (same(refused, point)) children.push(s('circle', { class: 'refused', cx, cy, r: 48 }));
        const notes = [moves.has(k) && 'can move', isSelected && 'selected', reachable.has(k) && 'reachable'].filter(Boolean);
        points.push(s('g', {
          class: classes.join(' '),
          'data-point': k,
          'data-x': x,
          'data-y': y,
          'data-reachable': reachable.has(k),
          tabindex: config.still ? null : same(focus, point) ? 0 : -1,
          role: config.still ? null : 'button',
          'aria-label': `(${k}) ${piece ? piece.piece : 'empty'}${notes.length ? `, ${notes.join(', ')}` : ''}`,
        }, children));
      }
    }
    refused = null;

    const arrows = [];
    for (const check of checks) {
      const [tx, ty] = place(check.captain);
      for (const attacker of check.attackers) {
        arrows.push(...arrowPath(...place(attacker), tx, ty,
          { start: 46, gap: 52, head: 30, width: 16, cls: 'arrow', headCls: 'arrowhead' }));
      }
    }
    const more = (config.arrows ?? []).flatMap((arrow) => arrowPath(...place(arrow.from), ...place(arrow.to), {
      start: 30, gap: 30, head: 26, width: 15,
      cls: `engine-arrow ${arrow.class ?? ''}`, headCls: `engine-arrowhead ${arrow.class ?? ''}`,
    }));

    svg.querySelector('.under').replaceChildren(...under);
    svg.querySelector('.points').replaceChildren(...points);
    svg.querySelector('.arrows').replaceChildren(...arrows);
    svg.querySelector('.more-arrows').replaceChildren(...more);
    if (hadFocus) svg.querySelector(`[data-point="${key(focus)}"]`)?.focus({ preventScroll: true });
    svg.setAttribute('aria-label', `board, ${config.flipped ? 'blue' : 'red'} at the bottom`);
  }

  /** What a click (tap, Enter) on `point` does: select, move, or tell the page. */
  function click(point) {
    if (config.pick) {
      config.onPoint(point);
      return;
    }
    const moves = movable();
    if (moves.has(key(point))) {
      selected = same(selected, point) ? null : point;
      draw();
    } else if (selected) {
      const from = selected;
      selected = null;
      draw();
      config.onMove(from, point);
    } else {
      config.onPoint(point);
    }
  }

  function svgPoint(event) {
    const matrix = svg.getScreenCTM();
    if (!matrix) return null;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return [p.x, p.y];
  }

  svg.addEventListener('pointerdown', (event) => {
    if (event.button !== 0 || config.still) return;
    const element = event.target.closest('[data-point]');
    if (!element) return;
    const point = [Number(element.dataset.x), Number(element.dataset.y)];
    press = { point, x: event.clientX, y: event.clientY, dragging: false, floating: null };
    svg.setPointerCapture(event.pointerId);
    event.preventDefault();
  });

  svg.addEventListener('pointermove', (event) => {
    if (!press) return;
    if (!press.dragging) {
      const canMove = !config.pick && movable().has(key(press.point));
      if (!canMove || Math.hypot(event.clientX - press.x, event.clientY - press.y) < 6) return;
      press.dragging = true;
      selected = press.point;
      draw();
      const piece = config.position.pieces.find((p) => same(p.point, press.point));
      svg.querySelector(`[data-point="${key(press.point)}"]`)?.classList.add('dragging-from');
      press.floating = pieceNode({ ...piece, point: null }, 0, 0, config.style);
      press.floating.classList.add('floating');
      svg.append(press.floating);
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
      draw();
      return;
    }
    if (!dragging) {
      click(point);
      return;
    }
    const at = svgPoint(event);
    const target = at && pointAt(...at);
    selected = null;
    draw();
    if (target && !same(target, point)) config.onMove(point, target);
  }
  svg.addEventListener('pointerup', (event) => endPress(event, false));
  svg.addEventListener('pointercancel', (event) => endPress(event, true));

  // From the keyboard: one point is in the tab order; the arrows move the focus ring as they point
  // on the screen, Enter or Space does what a click does.
  svg.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const element = event.target.closest?.('[data-point]');
    if (!element) return;
    const point = [Number(element.dataset.x), Number(element.dataset.y)];
    const steps = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (steps[event.key]) {
      const [col, row] = config.flipped ? [COLS - 1 - point[1], point[0]] : [point[1], ROWS - 1 - point[0]];
      const c = Math.max(0, Math.min(COLS - 1, col + steps[event.key][0]));
      const r = Math.max(0, Math.min(ROWS - 1, row + steps[event.key][1]));
      focusPoint(config.flipped ? [r, COLS - 1 - c] : [ROWS - 1 - r, c]);
    } else if (event.key === 'Enter' || event.key === ' ') {
      focus = point;
      click(point);
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  });

  function focusPoint(point) {
    focus = point;
    for (const node of svg.querySelectorAll('[data-point][tabindex="0"]')) node.tabIndex = -1;
    const node = svg.querySelector(`[data-point="${key(point)}"]`);
    if (node) {
      node.tabIndex = 0;
      node.focus({ preventScroll: true });
    }
  }

  const board = {
    /** Changes any part of the config and draws the board again. */
    set(changes) {
      if (('position' in changes && changes.position !== config.position)
        || ('dests' in changes && changes.dests !== config.dests)
        || ('pick' in changes && changes.pick)) {
        selected = null;
      }
      Object.assign(config, changes);
      draw();
    },
    /** Flashes the point of a refused move. */
    refuse(point) {
      refused = point;
      draw();
    },
    /** Selects the piece on `point` (null: none). */
    select(point) {
      selected = point;
      draw();
    },
    /** The selected piece's point, if any. */
    get selected() {
      return selected;
    },
    /** The SVG element. */
    element: svg,
  };
  Object.assign(config, initial);
  draw();
  return board;
}
