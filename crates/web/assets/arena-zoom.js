/**
 * The arena board's zoom and pan: the board's viewBox is a window on the grid, `scale` times
 * smaller than the whole, centred on (cx, cy). The wheel and a pinch zoom about the pointer, a drag on the grid
 * pans, and the buttons zoom about the centre or fit the whole grid. A piece's number is drawn
 * only once it is large enough on the screen to be read; a tap still gives its details.
 *
 *     const zoom = createZoom(board, { active, pieces, moved });
 *     zoom.reset(width, height);   // a new grid, seen whole
 *     zoom.showLabels();           // after the pieces are drawn again
 *
 * `active()` says whether a game is shown, `pieces()` gives the piece elements (each with its
 * `.piece-id` and `data-scale`), `moved()` is called after each change of the window.
 */

import { $ } from './common.js';

export function createZoom(board, { active, pieces, moved }) {

  const zoom = { width: 400, height: 400, scale: 1, cx: 200, cy: 200 };
  const MAX_ZOOM = 24;
  /** The smallest radius, in screen pixels, at which a piece's number is drawn. */
  const READABLE = 9;

  /** Sets the zoom to `scale`, keeping the grid point (x, y) where it is on the screen. */
  function zoomAbout(scale, x = zoom.cx, y = zoom.cy) {
    const next = Math.max(1, Math.min(MAX_ZOOM, scale));
    const ratio = zoom.scale / next;
    zoom.cx = x + (zoom.cx - x) * ratio;
    zoom.cy = y + (zoom.cy - y) * ratio;
    zoom.scale = next;
    applyZoom();
  }

  /** Draws the window the zoom says, kept inside the grid. */
  function applyZoom() {
    const width = zoom.width / zoom.scale;
    const height = zoom.height / zoom.scale;
    zoom.cx = Math.max(width / 2, Math.min(zoom.width - width / 2, zoom.cx));
    zoom.cy = Math.max(height / 2, Math.min(zoom.height - height / 2, zoom.cy));
    board.setAttribute('viewBox', `${zoom.cx - width / 2} ${zoom.cy - height / 2} ${width} ${height}`);
    board.dataset.zoom = zoom.scale.toFixed(2);
    $('[data-zoom-out]').disabled = zoom.scale <= 1;
    $('[data-zoom-fit]').disabled = zoom.scale <= 1;
    $('[data-zoom-in]').disabled = zoom.scale >= MAX_ZOOM;
    showLabels();
    moved();
  }

  /** Screen pixels per grid unit. */
  const pixelsPerUnit = () => (board.clientWidth || 1) / (zoom.width / zoom.scale);

  /** Each piece's number, shown when the piece is large enough on the screen to read it. */
  function showLabels() {
    const unit = pixelsPerUnit();
    let shown = 0;
    const nodes = [...pieces()];
    for (const node of nodes) {
      const readable = 15 * Number(node.dataset.scale ?? 1) * unit >= READABLE;
      node.querySelector('.piece-id').setAttribute('visibility', readable ? 'visible' : 'hidden');
      if (readable) shown += 1;
    }
    board.dataset.labels = shown === 0 ? 'hidden' : shown === nodes.length ? 'shown' : 'some';
  }

  /** The grid point under the screen point (clientX, clientY). */
  function gridPoint(clientX, clientY) {
    const matrix = board.getScreenCTM();
    if (!matrix) return [zoom.cx, zoom.cy];
    const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return [p.x, p.y];
  }

  board.addEventListener('wheel', (event) => {
    if (!active()) return;
    event.preventDefault();
    const [x, y] = gridPoint(event.clientX, event.clientY);
    zoomAbout(zoom.scale * Math.exp(-event.deltaY / 300), x, y);
  }, { passive: false });

  /** The pointers down on the board: one pans, two pinch. */
  const pointers = new Map();
  let pinch = null;
  board.addEventListener('pointerdown', (event) => {
    if (!active() || (event.pointerType === 'mouse' && event.button !== 0)) return;
    // A press on a piece is a tap on it (its details), unless a second finger joins.
    if (event.target.closest('[data-piece-id]') && pointers.size === 0) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    board.setPointerCapture(event.pointerId);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y), scale: zoom.scale };
    }
  });
  board.addEventListener('pointermove', (event) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const now = { x: event.clientX, y: event.clientY };
    pointers.set(event.pointerId, now);
    if (pointers.size >= 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const [x, y] = gridPoint((a.x + b.x) / 2, (a.y + b.y) / 2);
      zoomAbout(pinch.scale * Math.hypot(a.x - b.x, a.y - b.y) / Math.max(1, pinch.distance), x, y);
    } else if (zoom.scale > 1) {
      const unit = pixelsPerUnit();
      zoom.cx -= (now.x - last.x) / unit;
      zoom.cy -= (now.y - last.y) / unit;
      applyZoom();
    }
  });
  for (const type of ['pointerup', 'pointercancel']) {
    board.addEventListener(type, (event) => {
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
    });
  }
  $('[data-zoom-in]').addEventListener('click', () => zoomAbout(zoom.scale * 1.6));
  $('[data-zoom-out]').addEventListener('click', () => zoomAbout(zoom.scale / 1.6));
  $('[data-zoom-fit]').addEventListener('click', () => zoomAbout(1));
  window.addEventListener('resize', showLabels);

  return {
    /** A new grid of `width` × `height`, seen whole. */
    reset(width, height) {
      Object.assign(zoom, { width, height, scale: 1, cx: width / 2, cy: height / 2 });
      applyZoom();
    },
    showLabels,
  };
}
