// The arena viewer in Chromium: the official data judged, a game stepped and played to its end,
// its final positions compared with the judge's, and the published sample under its reading.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, screenshot, serve } from './harness.js';

const app = serve();

const fixtures = join(ROOT, 'crates/arena/tests/fixtures');
const round = (page) => page.getAttribute('[data-round]', 'data-round');

async function waitForRound(page, n) {
  await page.waitForFunction((r) => document.querySelector('[data-round]').dataset.round === String(r), n);
}

test('runs the official data and ends a game where the judge says', async () => {
  const page = await app.open('arena');
  await page.fill('[data-arena-rules]', 'official');
  await page.setInputFiles('#upload', join(fixtures, 'official/1.in'));
  const answer = readFileSync(join(fixtures, 'official/1.ans'), 'utf8');
  await page.waitForFunction((text) => document.querySelector('[data-judge-output]').textContent === text, answer);
  assert.equal(await page.locator('[data-arena-game] option').count(), 20);

  await page.selectOption('[data-arena-game]', '3');
  await page.waitForFunction(() => document.querySelector('[data-game-output]').textContent !== ''
    && document.querySelectorAll('[data-piece-id]').length === 26);
  assert.equal(await round(page), '0');

  // Step into the game, look at a piece, play a few rounds.
  await page.click('[data-nav="next"]');
  await waitForRound(page, 1);
  assert.ok(await page.locator('#events li').count() > 0);
  await page.hover('[data-piece-id="1"]');
  await page.waitForSelector('#tip:not(.hidden)');
  assert.match(await page.textContent('#tip'), /Piece 1 · (red|blue)/);
  await page.mouse.move(5, 5);
  await page.selectOption('#speed', '60');
  await page.click('#play');
  await page.waitForFunction(() => Number(document.querySelector('[data-round]').dataset.round) >= 6);
  await page.click('#play');

  // The last round: every piece stands where the judge's last lines put it.
  await page.click('[data-nav="last"]');
  await waitForRound(page, 101);
  const output = (await page.textContent('[data-game-output]')).trim().split('\n');
  const pieces = await page.$$eval('[data-piece-id]', (nodes) => nodes
    .map((node) => [Number(node.dataset.pieceId), `${node.dataset.row} ${node.dataset.col}`])
    .sort((a, b) => a[0] - b[0])
    .map(([, cell]) => cell));
  assert.deepEqual(pieces, output.slice(output.length - 26));

  // A round with a sector, knockbacks, fights and a respawn, for the picture.
  await page.selectOption('[data-arena-game]', '4');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece-id]').length === 34);
  await page.$eval('#slider', (slider) => {
    slider.value = '63';
    slider.dispatchEvent(new Event('input'));
  });
  await waitForRound(page, 63);
  await page.waitForSelector('.fx-sector');
  await screenshot(page, 'arena');

  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('plays the published sample under its reading, and reports bad input', async () => {
  const page = await app.open('arena', { allowed: [/status of 400/] });
  await page.click('[data-example="/assets/examples/arena-sample.in"]');
  const answer = readFileSync(join(fixtures, 'sample/1.ans'), 'utf8');
  await page.waitForFunction((text) => document.querySelector('[data-judge-output]').textContent === text, answer);
  assert.equal(await page.inputValue('[data-arena-rules]'), 'official,+shadow-any');
  assert.ok(await page.isChecked('#switch-shadow-any'));

  // The statement preset checks its switches.
  await page.click('#input-box summary');
  await page.selectOption('#preset', 'statement');
  assert.equal(await page.inputValue('[data-arena-rules]'), 'statement');
  assert.ok(await page.isChecked('#switch-rabi-enemy'));

  await page.fill('[data-arena-input]', '1\n1 1 1 1\n0\n1 1 1 1 0 0 1 1 1 fly\n');
  await page.click('[data-arena-run]');
  await page.waitForSelector('#error:not(.hidden)');
  assert.match(await page.textContent('#error'), /^4:19: expected a skill name/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('changing the game or the input with a piece\'s details open, and the set-up kept', async () => {
  const page = await app.open('arena', { width: 1366, height: 768 });
  await page.setInputFiles('#upload', join(fixtures, 'official/1.in'));
  await page.waitForFunction(() => document.querySelectorAll('[data-arena-game] option').length === 20);
  await page.selectOption('[data-arena-game]', '4');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece-id]').length === 34);
  // The details of piece 34, which game 1 does not have, are open when the game changes.
  await page.hover('[data-piece-id="34"]');
  await page.waitForSelector('#tip:not(.hidden)');
  await page.selectOption('[data-arena-game]', '1');
  await page.waitForFunction(() => document.querySelector('[data-game-output]').textContent !== ''
    && document.querySelectorAll('[data-piece-id]').length < 34);
  await page.click('[data-nav="next"]');
  await waitForRound(page, 1);
  assert.ok(await page.locator('#tip.hidden').count() === 1 || /Piece \d+/.test(await page.textContent('#tip')));

  // The set-up survives a reload: input, rules and game.
  await page.selectOption('[data-arena-game]', '3');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece-id]').length === 26);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece-id]').length === 26);
  assert.equal(await page.inputValue('[data-arena-game]'), '3');
  assert.equal(await page.inputValue('[data-arena-rules]'), 'official');
  assert.equal(await page.inputValue('[data-arena-input]'), readFileSync(join(fixtures, 'official/1.in'), 'utf8'));

  // A new input opens at its first game.
  await page.click('#input-box summary');
  await page.click('[data-example="/assets/examples/arena-sample.in"]');
  const answer = readFileSync(join(fixtures, 'sample/1.ans'), 'utf8');
  await page.waitForFunction((text) => document.querySelector('[data-judge-output]').textContent === text, answer);
  assert.equal(await page.inputValue('[data-arena-game]'), '1');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a piece\'s details open on a tap and from the keyboard', async () => {
  const page = await app.open('arena', { width: 390, height: 844, touch: true });
  await page.click('[data-example="/assets/examples/arena-official.in"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece-id]').length > 0);
  await page.tap('[data-piece-id="1"]');
  await page.waitForSelector('#tip:not(.hidden)');
  assert.match(await page.textContent('#tip'), /Piece 1 · (red|blue)/);
  await page.tap('[data-piece-id="1"]');
  await page.waitForSelector('#tip.hidden', { state: 'attached' });
  // The pieces are in the tab order; Enter shows the details.
  await page.focus('[data-piece-id="2"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#tip:not(.hidden)');
  assert.match(await page.textContent('#tip'), /Piece 2 · (red|blue)/);
  await screenshot(page, 'arena-phone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
