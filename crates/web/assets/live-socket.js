/**
 * A live game followed over its WebSocket: the whole game first (`{"game": VIEW}`), then each
 * change over the version held (`{"delta": CHANGE}`), and the spectators' count alone
 * (`{"spectators": N}`). A change over another version than the one held, or a connection made
 * again, brings the whole game back (a reconnected socket is sent it; a missed change is caught
 * up by `GET /api/live/games/ID`): the page catches up from the server's state, never from
 * messages it missed. The socket reconnects by itself (after 0.25 s, doubling up to 4 s).
 *
 *     const live = follow(id, { hello: token, onGame(game, previous), onSpectators(n), onConnection(state) });
 *     live.take(game);   // a view the page was answered (an action's reply), if it is newer
 *     live.game;         // the newest view held
 */

import { api } from './common.js';

/** The lists of a view a change keeps the start of (`keep` items) and adds to. */
const LISTS = ['commands', 'moves', 'entries'];

/** `game` with `change` applied. */
function apply(game, change) {
  const next = { ...game };
  for (const [key, value] of Object.entries(change)) {
    if (key !== 'base' && key !== 'keep' && !LISTS.includes(key)) next[key] = value;
  }
  for (const list of LISTS) next[list] = [...game[list].slice(0, change.keep), ...(change[list] ?? [])];
  return next;
}

export function follow(id, { hello, onGame, onSpectators, onConnection }) {
  let game = null;
  let socket = null;
  let retries = 0;
  let catching = null;

  /** Takes `view` if it is newer than the game held. */
  function take(view) {
    if (!view || (game && view.version <= game.version)) return;
    const previous = game;
    game = view;
    onGame(game, previous);
  }

  /** Fetches the whole game, once at a time. */
  function catchUp() {
    catching ??= api(`/api/live/games/${id}`).then(take).catch(() => {}).finally(() => { catching = null; });
  }

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const opened = new WebSocket(`${scheme}://${location.host}/api/live/games/${id}/socket`);
    socket = opened;
    onConnection('connecting');
    opened.addEventListener('open', () => {
      retries = 0;
      onConnection('open');
      opened.send(JSON.stringify({ hello }));
    });
    opened.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      if (message.spectators !== undefined) onSpectators(message.spectators);
      if (message.game) {
        // Whole: the server's state, which the page takes as it is, even over a newer version
        // held (a takeback is a newer version; a restarted server's is the store's).
        const previous = game;
        if (!game || message.game.version >= game.version) {
          game = message.game;
          onGame(game, previous);
        }
      } else if (message.delta && game) {
        const change = message.delta;
        if (change.version <= game.version) return;
        if (change.base === game.version) take(apply(game, change));
        else catchUp();
      }
    });
    opened.addEventListener('close', () => {
      if (socket !== opened) return;
      onConnection('closed');
      const wait = Math.min(4000, 250 * 2 ** retries);
      retries += 1;
      setTimeout(connect, wait);
    });
  }

  connect();
  return {
    take,
    get game() {
      return game;
    },
  };
}
