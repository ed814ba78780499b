/**
 * The move list of a Duck game, on the board page and the live page alike: one item per command
 * of each line (`lines.js`), in the readable notation the server wrote (`傌 0,1→2,2`, or with
 * letters) or as official commands, each variation indented under the command it replaces.
 *
 *     const list = createMoveList(ol, { lines, onShow(ply, lineId) });
 *     list.render({ line, at, style, note });  // the position shown: `at` commands of `line`
 *
 * `note(entry, ply)` may add a short text to an item (the live page's time per move). A click, or
 * Enter or Space on the focused item, asks to show its position (`onShow`); Up and Down move the
 * focus along the list; the list scrolls inside itself, never the page. The item of the position
 * shown has `aria-current="true"` and is the list's one tab stop.
 */

import { h } from './common.js';

/** Scrolls `list` itself so that `item` is seen; the page does not move. */
export function scrollInside(list, item) {
  const outer = list.getBoundingClientRect();
  const inner = item.getBoundingClientRect();
  if (inner.top < outer.top) list.scrollTop -= outer.top - inner.top;
  else if (inner.bottom > outer.bottom) list.scrollTop += inner.bottom - outer.bottom;
}

/** Makes `button` switch `list` between the readable notation and the official commands. */
export function notationSwitch(button, list) {
  button.addEventListener('click', () => {
    const official = list.dataset.notation !== 'official';
    list.dataset.notation = official ? 'official' : 'readable';
    button.setAttribute('aria-pressed', String(official));
  });
}

/** A move in the readable notation the server wrote, with the piece drawn as the board draws it. */
export function written(notation, style) {
  return style === 'western' ? notation.letter : notation.glyph;
}

export function createMoveList(list, { lines, onShow }) {
  /** What the list was drawn from: the lines' version and the style. */
  let drawn = null;
  let shown = { line: 'main', at: 0 };

  function item(line, ply, entry, style, note) {
    const side = entry.valid ? entry.result.split(' ', 1)[0] : 'invalid';
    return h('li', {
      'data-command': entry.command,
      'data-result': entry.result,
      'data-ply': ply,
      'data-line': line.id,
      class: [line.parent ? 'in-variation' : '', `by-${side}`].join(' ').trim(),
      tabindex: -1,
    },
    h('span', { class: 'n' }, ply),
    h('span', { class: 'cmd', title: `${entry.command} · ${entry.result}` },
      h('span', { class: 'readable' }, entry.notation ? written(entry.notation, style) : entry.command),
      h('span', { class: 'official' }, entry.command)),
    h('span', { class: `res ${side}` }, entry.result, entry.reason && h('span', { class: 'why' }, entry.reason)),
    note && h('span', { class: 'took' }, note(entry, ply)));
  }

  /** The items of `line` from its first own command, each followed by the variations leaving it. */
  function items(line, depth, style, note) {
    const out = [];
    const variations = (after) => lines.all
      .filter((other) => other.parent === line.id && other.start === after)
      .map((other) => h('li', { class: 'variation', 'data-variation': other.id, style: `--depth:${depth + 1}` },
        h('ol', { class: 'variation-moves', 'aria-label': `variation after command ${other.start}` },
          items(other, depth + 1, style, note))));
    line.entries.forEach((entry, i) => {
      const ply = line.start + i + 1;
      out.push(item(line, ply, entry, style, note));
      out.push(...variations(ply - 1));
    });
    // A variation leaving the line at its end.
    if (line.entries.length > 0 || line.parent === null) out.push(...variations(lines.end(line)));
    return out;
  }

  /** The item of the position shown. */
  function current() {
    if (shown.at === 0) return list.querySelector('li.start');
    const owner = lines.owner(lines.line(shown.line), shown.at);
    return list.querySelector(`li[data-line="${owner.id}"][data-ply="${shown.at}"]`);
  }

  function show(element) {
    const ply = Number(element.dataset.ply);
    const id = element.dataset.line;
    // An item on the path of the line shown keeps that line, so that → goes on along it.
    const keep = ply === 0 || lines.owner(lines.line(shown.line), Math.max(ply, 1)).id === id;
    onShow(ply, keep ? shown.line : id);
  }

  list.addEventListener('click', (event) => {
    const element = event.target.closest('li[data-ply]');
    if (element) show(element);
  });
  list.addEventListener('keydown', (event) => {
    const element = event.target.closest('li[data-ply]');
    if (!element || event.altKey || event.ctrlKey || event.metaKey) return;
    const all = [...list.querySelectorAll('li[data-ply]')];
    const index = all.indexOf(element);
    const next = { ArrowDown: index + 1, ArrowUp: index - 1, PageDown: index + 10, PageUp: index - 10 }[event.key];
    if (next !== undefined) {
      const target = all[Math.max(0, Math.min(all.length - 1, next))];
      element.tabIndex = -1;
      target.tabIndex = 0;
      target.focus({ preventScroll: true });
      scrollInside(list, target);
    } else if (event.key === 'Enter' || event.key === ' ') {
      show(element);
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  });

  return {
    render({ line, at, style, note, force = false }) {
      shown = { line, at };
      const key = `${lines.version}|${style}`;
      if (force || drawn !== key) {
        drawn = key;
        const hadFocus = list.contains(document.activeElement);
        list.replaceChildren(
          h('li', { class: 'start', 'data-ply': 0, 'data-line': 'main', tabindex: -1 },
            h('span', { class: 'n' }, '0'), h('span', {}, 'Start position')),
          ...items(lines.line('main'), 0, style, note));
        if (hadFocus) current()?.focus({ preventScroll: true });
      }
      for (const element of list.querySelectorAll('[aria-current="true"]')) element.setAttribute('aria-current', 'false');
      for (const element of list.querySelectorAll('li[tabindex="0"]')) element.tabIndex = -1;
      const element = current();
      if (element) {
        element.setAttribute('aria-current', 'true');
        element.tabIndex = 0;
        scrollInside(list, element);
      }
    },
  };
}
