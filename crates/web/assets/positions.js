/**
 * The positions of a game the server described, kept by the commands that reach them, so that
 * stepping through a game asks the server nothing once its positions are fetched.
 *
 *     const positions = createPositions((commands) => api('/api/duck/position', {commands}));
 *     await positions.after(commands);          // kept, or asked for
 *     positions.keep(commands, position);       // one the page was told
 *     positions.prefetch(count, commandsAt);    // the positions near the one shown, in the
 *                                               // background, one request at a time
 *
 * While it fetches in the background, `body[data-prefetch]` is `busy`, then `done`.
 */

/** Positions kept at most; the oldest goes first. */
const KEPT = 4000;

/** Positions fetched around the one shown, each way. */
const AROUND = 60;

export function createPositions(fetch) {
  const kept = new Map();
  let prefetching = null;

  const positions = {
    keep(commands, position) {
      if (kept.size >= KEPT) kept.delete(kept.keys().next().value);
      kept.set(commands.join(','), position);
    },

    /** The position after `commands`, from those kept or from the server. */
    async after(commands) {
      const known = kept.get(commands.join(','));
      if (known) return known;
      const position = await fetch(commands);
      positions.keep(commands, position);
      return position;
    },

    /** Whether the position after `commands` is kept. */
    has(commands) {
      return kept.has(commands.join(','));
    },

    /** Forgets every position (the game starts elsewhere). */
    clear() {
      kept.clear();
    },

    /**
     * Fetches, one at a time, the positions after `n` commands for `n` near `at` (up to `end`)
     * that are not kept yet; `commandsAt(n)` gives the commands. A new call cancels the last.
     */
    prefetch(at, end, commandsAt) {
      const wanted = [];
      for (let n = Math.max(0, at - AROUND); n <= Math.min(end, at + AROUND); n++) {
        const commands = commandsAt(n);
        if (!kept.has(commands.join(','))) wanted.push(commands);
      }
      const run = { cancelled: false };
      if (prefetching) prefetching.cancelled = true;
      prefetching = run;
      document.body.dataset.prefetch = wanted.length ? 'busy' : 'done';
      if (!wanted.length) return;
      (async () => {
        for (const commands of wanted) {
          if (run.cancelled) return;
          await positions.after(commands).catch(() => {});
        }
        if (!run.cancelled) document.body.dataset.prefetch = 'done';
      })();
    },
  };
  return positions;
}
