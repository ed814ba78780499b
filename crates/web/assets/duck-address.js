/**
 * The board page's address: `?moves=0314,9484&at=1` (four digits per command, or four integers
 * joined by dots when one is not a single digit) is the main line; `at` is left out at the end of
 * the line shown. A variation shown adds `branch=N&variation=...`: the commands that follow the
 * first N of the main line in it (a variation of a variation is carried whole, from where it
 * leaves the main line). `fen=` is a position set up; `game=ID` names the live game analysed,
 * whose players and result the page shows.
 */

function encode(command) {
  const parts = command.split(' ');
  return parts.every((part) => /^\d$/.test(part)) ? parts.join('') : parts.join('.');
}

function decode(token) {
  if (/^\d{4}$/.test(token)) return token.split('').join(' ');
  return token.split('.').join(' ');
}

/** The address of the main line `commands` (from `fen` when set), for a link to the board page. */
export function boardLink(commands, extra = {}) {
  const params = new URLSearchParams();
  if (commands.length > 0) params.set('moves', commands.map(encode).join(','));
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const query = params.toString().replaceAll('%2C', ',');
  return query ? `/duck?${query}` : '/duck';
}

/** Puts the game shown in the address, without a new history entry. */
export function writeAddress(game, liveGame) {
  const params = new URLSearchParams();
  const { lines } = game;
  const main = lines.line('main');
  if (main.entries.length > 0) params.set('moves', main.entries.map((e) => encode(e.command)).join(','));
  const line = game.shownLine();
  if (line.parent) {
    let top = line;
    while (top.parent !== 'main') top = lines.line(top.parent);
    params.set('branch', String(top.start));
    params.set('variation', lines.commands(line, lines.end(line)).slice(top.start).map(encode).join(','));
  }
  if (game.at < lines.end(line)) params.set('at', String(game.at));
  if (game.fen) params.set('fen', game.fen);
  if (liveGame) params.set('game', liveGame);
  const query = params.toString().replaceAll('%2C', ',');
  const url = query ? `${location.pathname}?${query}` : location.pathname;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, '', url);
}

/** The game the address names. */
export function readAddress() {
  const params = new URLSearchParams(location.search);
  const moves = params.get('moves');
  const commands = moves ? moves.split(',').filter(Boolean).map(decode) : [];
  const variation = params.get('variation')?.split(',').filter(Boolean).map(decode) ?? [];
  const branch = Math.min(Number.parseInt(params.get('branch') ?? '', 10), commands.length);
  const end = variation.length && Number.isFinite(branch) ? branch + variation.length : commands.length;
  const at = params.has('at') ? Number.parseInt(params.get('at'), 10) : end;
  const live = params.get('game');
  return {
    fen: params.get('fen') || null,
    commands,
    variation: variation.length && Number.isFinite(branch) ? { branch, commands: variation } : null,
    at: Number.isFinite(at) ? at : end,
    live: live && /^[0-9A-Za-z]{10}$/.test(live) ? live : null,
  };
}
