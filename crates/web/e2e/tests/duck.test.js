// The Duck Chess page in Chromium: playing by clicks and drags, reachable points, explanations,
// undo and redo, the address, the piece style, the official data imported and stepped through,
// and games against the engine.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, binary, screenshot, serve } from './harness.js';

const app = serve();

const commands = (page) => page.$$eval('[data-command]', (items) => items.map((item) => [item.dataset.command, item.dataset.result]));
const reachable = (page) => page.$$eval('[data-reachable]', (points) => points.map((p) => `${p.dataset.x},${p.dataset.y}`).sort());
const turn = (page) => page.getAttribute('[data-turn]', 'data-turn');

async function waitForCommands(page, count) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-command]').length === n, count);
}

async function centre(page, x, y) {
  const box = await page.locator(`[data-point="${x},${y}"] .hit`).boundingBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

test('plays by clicking and dragging, marks reachable points, explains, undoes and redoes', async () => {
  const page = await app.open('duck');
  assert.equal(await page.locator('[data-point]').count(), 90);
  assert.equal(await page.locator('[data-piece]').count(), 32);
  assert.equal(await page.getAttribute('[data-point="0,1"] [data-piece]', 'data-piece'), 'red horse');
  assert.equal(await turn(page), 'red');

  // The red duck on (2,0) is hemmed in: it is not offered, and a click on it says so.
  assert.equal(await page.locator('[data-point="2,0"].movable').count(), 0);
  await page.click('[data-point="2,0"]');
  await page.waitForFunction(() => document.querySelector('[data-explain]').textContent !== '');
  assert.equal(await page.textContent('[data-explain]'), 'The red duck on (2,0) has no valid move.');
  assert.equal(await page.locator('[data-reachable]').count(), 0);

  // The red horse on (0,1) reaches (2,2) ((2,0) holds the red duck); (1,3) is a horse's move,
  // but its leg (0,2) is taken.
  await page.click('[data-point="0,1"]');
  await page.waitForSelector('[data-reachable]');
  assert.deepEqual(await reachable(page), ['2,2']);
  await page.click('[data-point="1,3"]');
  await page.waitForFunction(() => document.querySelector('[data-explain]').textContent !== '');
  assert.equal(await page.textContent('[data-explain]'), 'horse leg (0,2) is occupied by red elephant');
  assert.equal(await page.locator('[data-command]').count(), 0);

  // The refused move clears the selection: the next click is not read as a move of the horse.
  assert.equal(await page.locator('.selected').count(), 0);
  assert.equal(await page.locator('[data-reachable]').count(), 0);

  // A click on a reachable point plays the move.
  await page.click('[data-point="0,1"]');
  await page.waitForSelector('[data-reachable]');
  await page.click('[data-point="2,2"]');
  await waitForCommands(page, 1);
  assert.deepEqual(await commands(page), [['0 1 2 2', 'red horse;NA;no;no']]);
  assert.equal(await turn(page), 'blue');
  assert.equal(await page.textContent('[data-explain]'), '');

  // A drag plays too: the blue captain steps forward.
  const [fromX, fromY] = await centre(page, 9, 4);
  const [toX, toY] = await centre(page, 8, 4);
  await page.mouse.move(fromX, fromY);
  await page.mouse.down();
  await page.mouse.move(toX, toY, { steps: 8 });
  await page.mouse.up();
  await waitForCommands(page, 2);
  assert.deepEqual((await commands(page))[1], ['9 4 8 4', 'blue captain;NA;no;no']);
  assert.equal(await page.getAttribute('[data-point="8,4"] [data-piece]', 'data-piece'), 'blue captain');
  assert.equal(await turn(page), 'red');

  // Undo takes the captain back, redo plays it again.
  await page.click('[data-undo]');
  await waitForCommands(page, 1);
  assert.equal(await page.getAttribute('[data-point="9,4"] [data-piece]', 'data-piece'), 'blue captain');
  assert.equal(await turn(page), 'blue');
  await page.click('[data-redo]');
  await waitForCommands(page, 2);
  assert.equal(await turn(page), 'red');

  // The address carries the game: a reload shows it again.
  assert.match(page.url(), /moves=0122,9484/);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await waitForCommands(page, 2);
  assert.deepEqual(await commands(page), [['0 1 2 2', 'red horse;NA;no;no'], ['9 4 8 4', 'blue captain;NA;no;no']]);

  // Stepping back with the keys and the buttons shows earlier positions.
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('[data-point="0,1"] [data-piece]') !== null);
  assert.equal(await turn(page), 'red');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'blue');
  await page.click('[data-nav="last"]');
  await page.waitForFunction(() => document.querySelector('[data-point="8,4"] [data-piece]') !== null);

  // f flips the board; the piece style switches to letters and is remembered.
  await page.keyboard.press('f');
  assert.match(await page.getAttribute('#board', 'aria-label'), /blue at the bottom/);
  await page.selectOption('[data-style]', 'western');
  assert.equal(await page.textContent('[data-point="8,4"] [data-piece] text'), 'C');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('[data-point="8,4"] [data-piece]');
  assert.equal(await page.textContent('[data-point="8,4"] [data-piece] text'), 'C');
  await page.selectOption('[data-style]', 'chinese');
  assert.equal(await page.textContent('[data-point="8,4"] [data-piece] text'), '將');

  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('shows a check with its attacker, and the end of a game', async () => {
  // Red's duck on (5,6) attacks the blue captain on (8,4).
  const moves = '0414,6454,3241,9080,4142,6665,1413,6564,3423,9484,3848,5463,2856';
  const page = await app.open(`duck?moves=${moves}`);
  await waitForCommands(page, 13);
  assert.equal((await commands(page))[12][1], 'red duck;NA;yes;no');
  await page.waitForSelector('.check-glow');
  assert.equal(await page.locator('[data-point="5,6"] .attacker').count(), 1);
  assert.match(await page.textContent('#check-note'), /blue captain \(8,4\) is attacked by red duck \(5,6\)/);
  await page.click('[data-point="8,4"]');
  await page.waitForSelector('[data-reachable]');
  await screenshot(page, 'duck');

  // The captain is not saved: the duck takes it, and the game is over.
  const over = await app.open(`duck?moves=${moves},6050,5684`);
  await waitForCommands(over, 15);
  assert.equal((await commands(over))[14][1], 'red duck;blue captain;no;yes');
  assert.equal(await turn(over), 'over');
  assert.match(await over.textContent('#banner'), /Red wins/);
  assert.equal(await over.locator('.movable').count(), 0);

  assert.deepEqual([...page.errors, ...over.errors], []);
  await page.context().close();
  await over.context().close();
});

test('imports the official data, lists every result and steps to the end', async () => {
  const page = await app.open('duck');
  await page.click('#import-box summary');
  const fixtures = join(ROOT, 'crates/duck/tests/fixtures/official');
  for (const n of [1, 2, 3, 4]) {
    const answer = readFileSync(join(fixtures, `${n}.ans`), 'utf8').trim().split('\n');
    // Files 2 to 4 have 1000 commands each: start from an empty game, so that the wait below
    // cannot be met by the previous file.
    await page.click('[data-new-game]');
    await waitForCommands(page, 0);
    if (n === 1) {
      // Pasted into the box...
      await page.fill('[data-import]', readFileSync(join(fixtures, `${n}.in`), 'utf8'));
      await page.click('[data-import-go]');
    } else {
      // ... or uploaded.
      await page.setInputFiles('#upload', join(fixtures, `${n}.in`));
    }
    // Files can have as many commands as the one before, so wait for this file's own results.
    await page.waitForFunction((expected) => {
      const items = [...document.querySelectorAll('[data-command]')];
      return items.map((item) => item.dataset.result).join('\n') === expected
        && items.at(-1).getAttribute('aria-current') === 'true';
    }, answer.join('\n'), { timeout: 10000 }).catch(() => {});
    const results = await page.$$eval('[data-command]', (items) => items.map((item) => item.dataset.result));
    assert.deepEqual(results, answer, `official/${n}`);
    // Invalid commands say why.
    const reasons = await page.$$eval('[data-result="Invalid command"] .why', (items) => items.length);
    assert.equal(reasons, answer.filter((line) => line === 'Invalid command').length, `official/${n}`);
  }

  // Step through the last file: from the start with the keys and the buttons, then to its end.
  const count = await page.locator('[data-command]').count();
  const shown = () => page.inputValue('#slider');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('#moves li.start').getAttribute('aria-current') === 'true');
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#slider').value === '40');
  await page.click('[data-nav="next"]');
  await page.waitForFunction(() => document.querySelector('#slider').value === '41');
  await page.click('[data-nav="prev"]');
  await page.click('[data-nav="prev"]');
  await page.waitForFunction(() => document.querySelector('#slider').value === '39');
  assert.equal(await page.getAttribute('#moves li:nth-child(40)', 'aria-current'), 'true');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-command]:last-child').getAttribute('aria-current') === 'true');
  assert.equal(await shown(), String(count));
  await page.click('[data-nav="first"]');
  await page.waitForFunction(() => document.querySelector('#slider').value === '0');
  await page.click('[data-nav="last"]');
  await page.waitForFunction((n) => document.querySelector('#slider').value === String(n), count);
  await screenshot(page, 'duck-import');

  // A malformed input is refused with its place.
  page.errors.length = 0;
  await page.fill('[data-import]', '2\n0 3 1 4\n9 4 x 4\n');
  await page.click('[data-import-go]');
  await page.waitForSelector('#import-error:not(.hidden)');
  assert.match(await page.textContent('#import-error'), /^3:5: expected the destination row x2 of command 2/);
  assert.ok(page.errors.every((error) => /status of 400/.test(error)), page.errors.join('\n'));
  await page.context().close();
});

test('shows and copies the FEN of the position shown, as arbiter_duck writes it', async () => {
  const page = await app.open('duck', { permissions: ['clipboard-read', 'clipboard-write'] });
  const fen = () => page.inputValue('[data-fen]');
  assert.equal(await fen(), 'rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR w - - 0 1');

  // The red guard steps from d1 to e2: the FEN is the library's, as the API gives it.
  await page.click('[data-point="0,3"]');
  await page.click('[data-point="1,4"]');
  await waitForCommands(page, 1);
  await page.waitForFunction(() => document.querySelector('[data-fen]').value.includes(' b '));
  const reply = await (await fetch(app.url('api/duck/position'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ commands: ['0 3 1 4'] }),
  })).json();
  assert.equal(await fen(), reply.fen);
  assert.equal(reply.fen, 'rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/4G4/RHE1CGEHR b - - 1 1');

  // Copy FEN puts the position shown on the clipboard; stepping back shows the start again.
  await page.click('[data-copy-fen]');
  await page.waitForFunction(() => document.querySelector('#copied').textContent === 'Copied.');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), reply.fen);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('[data-fen]').value.includes(' w '));
  assert.equal(await fen(), 'rhegcgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGCGEHR w - - 0 1');

  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** POSTs `body` to the API of the server under test. */
async function post(path, body) {
  const response = await fetch(app.url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, path);
  return response.json();
}

const engineState = (page) => page.getAttribute('#engine', 'data-engine-state');
const waitForEngine = (page, wanted) => page.waitForFunction(
  (state) => document.querySelector('#engine').dataset.engineState === state, wanted);
/** Waits until the live info shows a depth of at least `depth`; resolves to it. */
async function waitForDepth(page, depth) {
  await page.waitForFunction((d) => Number(document.querySelector('[data-engine-depth]').textContent) >= d, depth);
  return Number(await page.textContent('[data-engine-depth]'));
}

test('plays against the engine, which shows its search live and can be hurried', async () => {
  // An opening: red horse, blue horse, red soldier, blue soldier.
  const page = await app.open('duck?moves=0122,9172,3444,6656');
  await waitForCommands(page, 4);
  assert.equal(await engineState(page), 'off');

  // The engine takes blue; red is to move, so it waits for the player.
  await page.selectOption('[data-engine-time]', '500');
  await page.selectOption('[data-engine-side]', 'blue');
  assert.equal(await engineState(page), 'waiting');
  assert.match(await page.getAttribute('#board', 'aria-label'), /red at the bottom/);

  // A red move by click: the engine answers with a blue move, judged like any other.
  await page.click('[data-point="0,7"]');
  await page.click('[data-point="2,6"]');
  await waitForEngine(page, 'thinking');
  assert.ok(await waitForDepth(page, 1) >= 1);
  await waitForCommands(page, 6);
  await waitForEngine(page, 'waiting');
  const played = await commands(page);
  assert.deepEqual(played[4], ['0 7 2 6', 'red horse;NA;no;no']);
  assert.match(played[5][1], /^blue [a-z]+;/);
  const replay = await post('api/duck/game', { commands: played.map(([command]) => command) });
  assert.deepEqual(replay.entries.map((entry) => entry.result), played.map(([, result]) => result));
  assert.equal(await turn(page), 'red');
  // What the search found stays shown: its depth, a score, and its line in both notations.
  assert.match(await page.textContent('[data-engine-depth]'), /^\d+$/);
  assert.match(await page.textContent('[data-engine-score]'), /^([+−]?\d+\.\d\d|#-?\d+)$/);
  const pv = await page.getAttribute('[data-engine-pv]', 'data-commands');
  assert.equal(pv.split(',')[0], played[5][0]);
  // The line reads as the move list does; the command and fairy-stockfish's move on hover.
  assert.match(await page.textContent('[data-engine-pv]'), /^\S \d,\d[→×]\d,\d[+#]?/);
  assert.match(await page.getAttribute('[data-engine-pv] .first', 'title'), /^\d \d \d \d · [a-i]\d+[a-i]\d+$/);

  // Ten seconds to think, hurried by "Move now": the best move so far is played.
  await page.selectOption('[data-engine-time]', '10000');
  await page.click('[data-point="3,0"]');
  await page.click('[data-point="4,0"]');
  await waitForEngine(page, 'thinking');
  await waitForDepth(page, 4);
  // The board takes no move while the engine is to move.
  assert.equal(await page.locator('.movable').count(), 0);
  await page.waitForSelector('.engine-arrow.guess', { state: 'attached' });
  // A second more of thinking, for a screenshot of a search well under way.
  await page.waitForTimeout(1000);
  await screenshot(page, 'duck-engine');
  await page.click('[data-engine-stop]');
  await waitForCommands(page, 8);
  await waitForEngine(page, 'waiting');
  assert.match((await commands(page))[7][1], /^blue [a-z]+;/);
  assert.equal(await page.locator('path.guess').count(), 0);

  // Undo takes back the engine's reply and the player's move: red is to move again.
  await page.click('[data-undo]');
  await waitForCommands(page, 6);
  assert.equal(await turn(page), 'red');
  assert.equal(await engineState(page), 'waiting');
  // Redo plays both again.
  await page.click('[data-redo]');
  await waitForCommands(page, 8);
  assert.equal(await engineState(page), 'waiting');

  // While an earlier position is shown, the engine does not move, even on its turn.
  await page.selectOption('[data-engine-time]', '200');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'blue');
  assert.equal(await engineState(page), 'waiting');
  assert.match(await page.textContent('#engine-status'), /earlier position/);
  // Given red, the side to move at the end, it moves at once (and blue is put at the bottom).
  await page.keyboard.press('End');
  await page.selectOption('[data-engine-side]', 'red');
  assert.match(await page.getAttribute('#board', 'aria-label'), /blue at the bottom/);
  await waitForCommands(page, 9);
  assert.match((await commands(page))[8][1], /^red [a-z]+;/);
  await waitForEngine(page, 'waiting');

  // Nobody: the engine stops playing.
  await page.selectOption('[data-engine-side]', 'none');
  assert.equal(await engineState(page), 'off');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** What the Duck page shows besides the board, for the message of a failed wait. */
const shows = (page) => page.evaluate(() => ({
  explain: document.querySelector('[data-explain]')?.textContent,
  error: document.querySelector('#error')?.textContent,
  engine: document.querySelector('#engine')?.dataset.engineState,
  status: document.querySelector('#engine-status')?.textContent,
  turn: document.querySelector('[data-turn]')?.dataset.turn,
  listed: document.querySelectorAll('[data-command]').length,
  selected: [...document.querySelectorAll('.selected')].map((node) => node.dataset.point),
  movable: [...document.querySelectorAll('.movable')].map((node) => node.dataset.point),
}));

test('a whole game against the engine at 0.2 s a move, exported and carried by the address', async () => {
  const page = await app.open('duck');
  await page.selectOption('[data-engine-time]', '200');
  await page.selectOption('[data-engine-side]', 'blue');
  // The player, red, plays by clicks: the first piece that can move, in the board's order from
  // blue's side, to the first point it reaches. The engine answers each move until one side wins.
  let count = 0;
  while (await turn(page) !== 'over') {
    assert.ok(count < 300, 'the game ends within 150 moves a side');
    const from = await page.getAttribute('.movable', 'data-point');
    await page.click(`[data-point="${from}"]`);
    await page.waitForSelector('[data-reachable]').catch(async (error) => {
      throw new Error(`${error.message}: after a click on ${from}, the page shows ${JSON.stringify(await shows(page))}`);
    });
    const to = await page.getAttribute('[data-reachable]', 'data-point');
    await page.click(`[data-point="${to}"]`);
    // The player's move is listed; then the engine's, unless the player's has ended the game.
    // The engine may answer before the page is looked at (a captain capture is found at once),
    // so the player's move is waited for as at least one more command.
    await page.waitForFunction((n) => document.querySelectorAll('[data-command]').length > n, count).catch(async (error) => {
      throw new Error(`${error.message}: after ${from} -> ${to}, the page shows ${JSON.stringify(await shows(page))}`);
    });
    await page.waitForFunction((n) => {
      const listed = document.querySelectorAll('[data-command]').length;
      const over = document.querySelector('[data-turn]').dataset.turn === 'over';
      const engine = document.querySelector('#engine').dataset.engineState;
      return over || (listed === n + 2 && engine === 'waiting');
    }, count);
    count = await page.locator('[data-command]').count();
  }
  // The engine, against a player who does not defend, takes the red captain.
  const played = await commands(page);
  assert.match(played.at(-1)[1], /^blue [a-z]+;red captain;no;yes$/);
  played.forEach(([, result], i) => assert.match(result, new RegExp(`^${i % 2 === 0 ? 'red' : 'blue'} `)));
  assert.match(await page.textContent('#engine-status'), /game is over/);

  // The export is the official input; the official judge (arbiter duck) answers, line by line,
  // the results the page lists.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-export]')]);
  const exported = readFileSync(await download.path(), 'utf8');
  assert.deepEqual(exported.trim().split('\n'), [String(played.length), ...played.map(([command]) => command)]);
  const judged = execFileSync(binary(), ['duck', '-'], { input: exported, encoding: 'utf8' });
  assert.deepEqual(judged.trim().split('\n'), played.map(([, result]) => result));
  // The FEN is that of the last position.
  const fen = await page.inputValue('[data-fen]');
  assert.match(fen, / w - - \d+ \d+$/);

  // The address carries the game: opened elsewhere, it shows the same game, engine or not.
  const again = await app.open(page.url());
  await waitForCommands(again, played.length);
  assert.deepEqual(await commands(again), played);
  assert.equal(await again.inputValue('[data-fen]'), fen);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(again.errors, []);
  await page.context().close();
  await again.context().close();
});

test('the engine does not play a finished game, and stops when an earlier position is shown', async () => {
  // Red's duck has taken the blue captain: blue, the engine, has nothing to play.
  const moves = '0414,6454,3241,9080,4142,6665,1413,6564,3423,9484,3848,5463,2856,6050,5684';
  const page = await app.open(`duck?moves=${moves}`);
  await waitForCommands(page, 15);
  await page.selectOption('[data-engine-side]', 'blue');
  assert.equal(await engineState(page), 'waiting');
  assert.match(await page.textContent('#engine-status'), /game is over/);
  // Undo takes back the capture: red is to move. A red soldier steps up, and blue thinks.
  await page.selectOption('[data-engine-time]', '10000');
  await page.click('[data-undo]');
  await waitForCommands(page, 14);
  assert.equal(await turn(page), 'red');
  await page.click('[data-point="3,0"]');
  await page.click('[data-point="4,0"]');
  await waitForEngine(page, 'thinking');
  await waitForDepth(page, 1);
  // Stepping back stops the search; the game is unchanged.
  await page.keyboard.press('Home');
  await waitForEngine(page, 'waiting');
  assert.equal(await page.locator('[data-command]').count(), 15);
  assert.equal(await page.locator('path.guess').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
