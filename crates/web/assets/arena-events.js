/**
 * The skill arena in words: each event of a round the server reported (a cast, a knockback, a
 * fight, a death, ...) as one line, the many quiet ones (steps, turns) counted in one; and a
 * piece's details as rows of its tooltip.
 *
 *     list.replaceChildren(...eventItems(events));
 *     pieceRows(spec, state);   // [[name, value], ...]
 */

import { h } from './common.js';

const P = (id) => `P${id}`;
const cell = (pos) => `(${pos.row},${pos.col})`;
const strength = ([a, b]) => `C(${a}, ${b})`;

function describe(event) {
  switch (event.kind) {
    case 'respawn':
      return [event.by ? `${P(event.piece)} revived by ${P(event.by)} (viuganda) at ${cell(event.pos)}` : `${P(event.piece)} respawns at ${cell(event.pos)}`, `a = ${event.a}, b = ${event.b}`];
    case 'cast': return [`${P(event.piece)} casts ${event.skill}`];
    case 'skip': return [`${event.team} pieces after ${P(event.by)} skip casting (gugugugu)`];
    case 'boost': return [`${P(event.piece)} boosted (onepunch)`, `a = ${event.a}, b = ${event.b}`];
    case 'boost_end': return [`${P(event.piece)}'s boost ends`, `a = ${event.a}, b = ${event.b}`];
    case 'sector': return [`${P(event.piece)}'s sector covers ${event.cells.length} cell${event.cells.length === 1 ? '' : 's'}`];
    case 'knockback': return [`${P(event.piece)} knocked back ${cell(event.from)} → ${cell(event.to)} by ${P(event.by)}`];
    case 'freeze': return [`${P(event.piece)} frozen by ${P(event.by)}'s firework`, `${event.rounds} round${event.rounds === 1 ? '' : 's'} left`];
    case 'wave': return [`${P(event.piece)}'s wave blows at ${cell(event.blast)}`, `${event.path.length - 1} steps`];
    case 'silence': return [`${P(event.piece)} silenced by ${P(event.by)}'s blast`, `${event.rounds} round${event.rounds === 1 ? '' : 's'} left`];
    case 'backward':
      return [`${P(event.piece)} goes back to round ${event.to_round}`, `${cell(event.pos)} facing ${event.dir}, a = ${event.a}, b = ${event.b}${event.alive ? '' : `, dead until round ${event.respawn_round}`}`];
    case 'matching': return [`${P(event.piece)} hupraise: ${event.pairs} pair${event.pairs === 1 ? '' : 's'}`];
    case 'fight': {
      const fighters = `red ${P(event.red)} ${strength(event.red_strength)} vs blue ${P(event.blue)} ${strength(event.blue_strength)}`;
      if (event.loser === null) return [`Fight at ${cell(event.pos)}: ${fighters}`, 'equal: both die'];
      const winner = event.loser === event.red ? event.blue : event.red;
      return [`Fight at ${cell(event.pos)}: ${fighters}`, `${P(event.loser)} loses; ${P(winner)} now ${strength(event.winner_after)}`];
    }
    case 'death': return [`${P(event.piece)} dies at ${cell(event.pos)}`, `respawns at round ${event.respawn_round}`];
    case 'end': return ['The game ends: final positions as the judge prints them'];
    default: return null;
  }
}

/** The list items of a round's `events`. */
export function eventItems(events) {
  const moves = events.filter((e) => e.kind === 'move').length;
  const blocked = events.filter((e) => e.kind === 'turn' && e.cause === 'blocked').length;
  const turned = events.filter((e) => e.kind === 'turn' && e.cause === 'faceking').length;
  const items = [];
  const quiet = [];
  if (moves) quiet.push(`${moves} step${moves === 1 ? '' : 's'} forward`);
  if (blocked) quiet.push(`${blocked} turn${blocked === 1 ? '' : 's'} about at an edge or obstacle`);
  if (turned) quiet.push(`${turned} turn${turned === 1 ? '' : 's'} by faceking`);
  if (quiet.length) items.push(h('li', { class: 'quiet' }, quiet.join(', ')));
  for (const event of events) {
    const text = describe(event);
    if (!text) continue;
    items.push(h('li', {}, h('span', { class: `k ${event.kind}` }, event.kind.replace('_', ' ')), ' ', text[0],
      text[1] ? h('span', { class: 'hint' }, ` · ${text[1]}`) : null));
  }
  return items;
}

function skillText(skill) {
  const { name, ...parameters } = skill;
  const shown = Object.entries(parameters).map(([key, value]) => `${key} ${value}`).join(', ');
  return shown ? `${name} (${shown})` : name;
}

/** The rows of a piece's details: its spec (from the start) and its state (this round). */
export function pieceRows(spec, state) {
  return [
    ['cell', `${cell(state.pos)}, facing ${state.dir}`],
    ['a, b', `${state.a}, ${state.b}`],
    ['strength', strength([state.a, state.b])],
    ['skill', skillText(spec.skill)],
    ['cooldown', state.cooldown === 0 ? 'ready' : `${state.cooldown} round${state.cooldown === 1 ? '' : 's'}`],
    ['frozen', state.freeze === 0 ? 'no' : `${state.freeze} round${state.freeze === 1 ? '' : 's'}`],
    ['silenced', state.silence === 0 ? 'no' : `${state.silence} round${state.silence === 1 ? '' : 's'}`],
    ['alive', state.alive ? 'yes' : `no, respawns at round ${state.respawn_round}`],
    ['f, z, r', `${spec.first_cooldown}, ${spec.cooldown}, ${spec.respawn}`],
  ];
}
