/**
 * The board page's side panel: whose turn it is, how the game ended (the banner stands beside the
 * board, never on it), the checks in words, the buttons that step through the game and take
 * moves back, the count of commands and the FEN; and, for a live game opened with *Analyse*
 * (`game=ID` in the address), its players and result, as the server keeps them.
 *
 *     const panel = createPanel(game, engine, analysis);
 *     panel.render();
 *     panel.showLive(id);   // the live game `id`'s players and result
 */

import { $, api, capitalised, h, show } from './common.js';

export function createPanel(game, engine, analysis) {
  const turn = $('#turn');
  const banner = $('#banner');
  const slider = $('#slider');
  const navButton = (name) => $(`.board-bar [data-nav="${name}"]`);

  function render() {
    const position = game.position;
    const clock = engine.clock;
    const total = game.end();
    // The game ends on the board (a captain captured) or off it, at its end: on time, by resigning.
    const ended = clock.over && game.at === total ? clock.over : null;
    const winner = position.winner ?? ended?.winner ?? null;
    const over = winner !== null;
    turn.dataset.turn = over ? 'over' : position.turn;
    turn.querySelector('.disc').className = `disc ${over ? winner : position.turn}`;
    const viewing = game.at < total ? ` · viewing ${game.at} of ${total}` : '';
    $('#turn-text').textContent = over
      ? `Game over · ${capitalised(winner)} wins${viewing}`
      : `${capitalised(position.turn)} to move${viewing}`;
    if (over && game.at === total) analysis.evaluate();
    if (over) {
      const loser = winner === 'red' ? 'blue' : 'red';
      banner.className = `banner ${winner}`;
      banner.dataset.reason = position.winner ? 'captain' : ended.reason;
      banner.textContent = position.winner
        ? `${capitalised(winner)} wins: the ${loser} captain is captured`
        : ended.reason === 'time'
          ? `${capitalised(winner)} wins: ${loser} ran out of time`
          : `${capitalised(winner)} wins: ${loser} resigned`;
    } else {
      banner.className = 'banner hidden';
      banner.textContent = '';
      delete banner.dataset.reason;
    }
    const pieces = new Map(position.pieces.map((piece) => [piece.point.join(), piece]));
    const notes = position.checks.map((check) => {
      const names = check.attackers.map((p) => `${pieces.get(p.join())?.piece} (${p.join(',')})`);
      return `Check: the ${check.color} captain (${check.captain.join(',')}) is attacked by ${names.join(', ')}`;
    });
    show($('#check-note'), notes.join('\n'));

    $('#ply-count').textContent = `${total} command${total === 1 ? '' : 's'}`;
    $('[data-fen]').value = position.fen;
    slider.max = String(total);
    slider.value = String(game.at);
    navButton('first').disabled = game.at === 0;
    navButton('prev').disabled = game.at === 0;
    navButton('next').disabled = game.at === total;
    navButton('last').disabled = game.at === total;
    // A game lost on time or resigned is over: its moves stay.
    $('[data-undo]').disabled = game.shownLine().entries.length === 0 || clock.over !== null;
    $('[data-redo]').disabled = game.redo.length === 0 || clock.over !== null;
  }

  /** Shows the live game `id`'s players, time control and result, with a link back to it. */
  async function showLive(id) {
    const box = $('#live-game');
    try {
      const live = await api(`/api/live/games/${id}`);
      const name = (side) => live[side] || 'Anonymous';
      box.replaceChildren(
        h('span', { class: 'players' },
          h('span', { class: 'red', 'data-side-name': 'red' }, name('red')), ' – ',
          h('span', { class: 'blue', 'data-side-name': 'blue' }, name('blue'))),
        h('span', { class: 'hint' }, [live.time, live.end?.text ?? 'going on'].filter(Boolean).join(' · ')),
        h('a', { href: `/duck/game/${id}` }, 'Back to the game'));
      box.dataset.liveGame = id;
      box.classList.remove('hidden');
    } catch {
      box.classList.add('hidden');
    }
  }

  return { render, showLive };
}
