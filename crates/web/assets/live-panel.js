/**
 * What the live page shows around its board: each side's name (as given, or "Anonymous") and
 * clock beside the board, the running clock marked and a low one (under ten seconds) too, whose
 * turn it is, how the game ended, the message of the last refusal (always seen while it has
 * text), the offers and their answers, the seat's controls, *Analyse* and *Rematch* once the
 * game is over, the join form and the invitation, and the page's title, which says "Your turn"
 * and the clock while the page is in a background tab. It draws the view the server sent; it
 * decides nothing.
 *
 *     const panel = createPanel(id, { seat, token });
 *     panel.render(game, { shown, reviewing, flipped });   // the view, the ply the board shows
 *     panel.say(text);                            // the message ('' hides it)
 */

import { $ } from './common.js';
import { clockText, showClock } from './clocks.js';
import { boardLink } from './duck-address.js';

const TITLE = 'Live game · Duck Chess · arbiter';
const sideName = (game, side) => (game[side] === null ? 'waiting for a player…' : game[side] || 'Anonymous');
const other = (side) => (side === 'red' ? 'blue' : 'red');

export function createPanel(id, { seat }) {
  let game = null;
  /** When the view shown arrived (its clocks are as of then). */
  let receivedAt = 0;
  const message = $('[data-message]');

  /** What `side` has left now. */
  function left(side) {
    const clocks = game?.clocks;
    if (!clocks) return null;
    const ms = clocks[`${side}_ms`];
    return clocks.running === side ? ms - (performance.now() - receivedAt) : ms;
  }

  /** The clocks, and the title. */
  function tick() {
    if (!game) return;
    const over = game.status === 'over';
    for (const face of document.querySelectorAll('.live-player [data-clock]')) {
      const side = face.dataset.clock;
      face.classList.toggle('hidden', !game.clocks);
      if (!game.clocks || !side) continue;
      showClock(face, {
        ms: left(side),
        running: game.clocks.running === side,
        flagged: over && game.end?.reason === 'time' && game.end.winner !== side,
      });
    }
    const mine = seat() !== 'spectator' && !over && game.turn === seat();
    if (document.hidden && mine) {
      const clock = game.clocks ? ` · ${clockText(left(seat()))}` : '';
      document.title = `Your turn${clock} · Duck Chess`;
    } else {
      document.title = `${sideName(game, 'red')} – ${sideName(game, 'blue')} · ${TITLE}`;
    }
  }
  setInterval(tick, 200);
  document.addEventListener('visibilitychange', tick);

  function render(view, { shown, reviewing, flipped }) {
    if (view !== game) receivedAt = performance.now();
    game = view;
    const me = seat();
    const over = game.status === 'over';
    const total = game.commands.length;
    const turn = $('#turn');
    turn.dataset.turn = over ? 'over' : game.turn;
    turn.querySelector('.disc').className = `disc ${over ? (game.end?.winner ?? 'over') : game.turn}`;
    const viewing = reviewing ? ` · viewing ${shown} of ${total}` : '';
    const whose = me === game.turn ? 'Your move' : `${game.turn === 'red' ? 'Red' : 'Blue'} to move`;
    $('#turn-text').textContent = `${over ? 'Game over' : whose}${viewing}`;

    const banner = $('[data-game-over]');
    banner.dataset.gameOver = over ? game.end.reason : '';
    banner.textContent = over ? game.end.text : '';
    banner.className = over ? `banner ${game.end.winner ?? 'draw'}` : 'banner hidden';

    // Each side's row beside its side of the board: the player's own at the bottom, unless the
    // board is turned.
    const [top, bottom] = flipped ? ['red', 'blue'] : ['blue', 'red'];
    for (const [where, side] of [['top', top], ['bottom', bottom]]) {
      const row = $(`[data-player="${where}"]`);
      row.dataset.side = side;
      row.classList.toggle('to-move', !over && game.turn === side);
      row.querySelector('.disc').className = `disc ${side}`;
      const name = row.querySelector('.live-name');
      name.dataset.sideName = side;
      name.textContent = sideName(game, side);
      name.classList.toggle('waiting', game[side] === null);
      const notes = [me === side ? 'you' : null, game.draw_offer === side && !over ? 'offers a draw' : null];
      row.querySelector('.live-note').textContent = notes.filter(Boolean).join(' · ');
      row.querySelector('[data-clock]').dataset.clock = side;
    }

    const playing = me !== 'spectator' && !over;
    $('#controls').classList.toggle('hidden', !playing);
    const them = other(me);
    const drawFromOther = playing && game.draw_offer === them;
    const takebackFromOther = playing && game.takeback === them;
    $('[data-offer-draw]').disabled = game.draw_offer === me;
    $('[data-offer-draw]').textContent = game.draw_offer === me ? 'Draw offered' : 'Offer a draw';
    $('[data-takeback]').disabled = game.takeback === me || total === 0;
    $('[data-accept-draw]').classList.toggle('hidden', !drawFromOther);
    $('[data-decline-draw]').classList.toggle('hidden', !drawFromOther);
    $('[data-accept-takeback]').classList.toggle('hidden', !takebackFromOther);
    $('[data-decline-takeback]').classList.toggle('hidden', !takebackFromOther);
    const offers = [];
    if (!over && game.draw_offer) offers.push(`${game.draw_offer} offers a draw`);
    if (!over && game.takeback) offers.push(`${game.takeback} asks to take back a move`);
    if (over && game.rematch_offer && !game.rematch) offers.push(`${game.rematch_offer} offers a rematch`);
    $('#offer-text').textContent = offers.join(' · ');
    $('#offers').classList.toggle('hidden', offers.length === 0);

    // Once over: the analysis board on the game, and a rematch (the seats only).
    $('#after').classList.toggle('hidden', !over);
    const analyse = $('#analyse');
    analyse.href = boardLink(game.commands, { game: id });
    analyse.toggleAttribute('data-analyse', over);
    const rematch = $('#rematch');
    const asked = game.rematch_offer === me;
    const answering = game.rematch_offer === them;
    rematch.classList.toggle('hidden', me === 'spectator' || Boolean(game.rematch));
    rematch.toggleAttribute('data-rematch', over);
    rematch.disabled = asked;
    rematch.textContent = asked ? 'Rematch offered' : answering ? 'Accept the rematch' : 'Rematch';
    $('[data-decline-rematch]').classList.toggle('hidden', me === 'spectator' || !answering || Boolean(game.rematch));
    const link = $('[data-rematch-link]');
    link.classList.toggle('hidden', !game.rematch);
    if (game.rematch) link.href = `/duck/game/${game.rematch}`;

    // The seat's name is asked for until it is taken; the invitation until the other is.
    $('#join').classList.toggle('hidden', me === 'spectator' || game[me] !== null);
    const invite = localStorage.getItem(`arbiter.live.${id}.invite`);
    const waiting = me !== 'spectator' && invite && game[them] === null && !over;
    $('#invite').classList.toggle('hidden', !waiting);
    if (waiting) $('[data-invite-link]').value = `${location.origin}/duck/game/${id}#seat=${invite}`;
    $('[data-spectate-link]').value = `${location.origin}/duck/game/${id}`;
    $('#ply-count').textContent = `${total} move${total === 1 ? '' : 's'}${game.time ? ` · ${game.time}` : ''}`;
    tick();
  }

  /** Shows `text` as the page's message; an empty one hides it. */
  function say(text) {
    message.textContent = text ?? '';
    message.classList.toggle('hidden', !text);
  }

  /** Who this browser is. */
  function showSeat() {
    const element = $('#seat');
    element.dataset.seat = seat();
    element.textContent = seat() === 'spectator' ? 'a spectator' : seat();
  }

  /** The spectators' count. */
  function spectators(count) {
    const element = $('[data-spectators]');
    element.dataset.spectators = String(count);
    element.textContent = String(count);
  }

  /** The connection's state: connecting, open (live) or closed (reconnecting). */
  function connection(state) {
    const element = $('[data-connection]');
    element.dataset.connection = state;
    element.textContent = { connecting: 'connecting…', open: 'live', closed: 'reconnecting…' }[state];
  }

  return { render, say, showSeat, spectators, connection };
}
