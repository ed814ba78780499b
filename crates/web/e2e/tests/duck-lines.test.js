// The Duck Chess page as a person uses it on a desktop (1366×768) and on a phone (390×844): the
// page stays put while moves are played and stepped through, a move at an earlier position starts
// a variation, the board and the move list work from the keyboard, the set-up survives a reload,
// stepping asks the server nothing, and the optional sounds and the dark colours.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { screenshot, serve } from './harness.js';

const app = serve();

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

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

/** A game of `n` commands that goes on: each is the first move the server lists. */
async function game(n) {
  const commands = [];
  for (let i = 0; i < n; i++) {
    const position = await post('api/duck/position', { commands });
    assert.equal(position.winner, null);
    const { from, to } = position.moves.at(-1);
    commands.push(`${from.join(' ')} ${to[0].join(' ')}`);
  }
  return commands;
}
const link = (commands) => commands.map((c) => c.replaceAll(' ', '')).join(',');

const listed = (page, line) => page.$$eval(`[data-command][data-line${line ? `="${line}"` : ''}]`,
  (items) => items.map((item) => `${item.dataset.line}:${item.dataset.ply}:${item.dataset.command}`));
const turn = (page) => page.getAttribute('[data-turn]', 'data-turn');
const scrolled = (page) => page.evaluate(() => window.scrollY);
const boardTop = async (page) => (await page.locator('#board').boundingBox()).y;
const waitForCount = (page, n) => page.waitForFunction((count) => document.querySelectorAll('[data-command]').length === count, n);

/** Plays, by two clicks, the first move the page offers. */
async function clickMove(page) {
  const count = await page.locator('[data-command]').count();
  const from = await page.getAttribute('.movable', 'data-point');
  await page.click(`[data-point="${from}"]`);
  await page.waitForSelector('[data-reachable]');
  const to = await page.getAttribute('[data-reachable]', 'data-point');
  await page.click(`[data-point="${to}"]`);
  await waitForCount(page, count + 1);
}

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`the page does not move when moves are played, taken back or stepped to (${name})`, async () => {
    const page = await app.open('duck', size);
    const top = await boardTop(page);
    for (let i = 0; i < 12; i++) {
      await clickMove(page);
      assert.equal(await scrolled(page), 0, `after move ${i + 1}`);
      assert.equal(await boardTop(page), top, `after move ${i + 1}`);
    }
    // The move list scrolled inside itself to its last entry.
    assert.equal(await page.getAttribute('[data-command]:last-of-type', 'aria-current'), 'true');
    for (const key of ['ArrowLeft', 'Home', 'End']) {
      await page.keyboard.press(key);
      await page.waitForTimeout(100);
      assert.equal(await scrolled(page), 0, key);
    }
    await page.click('[data-undo]');
    await waitForCount(page, 11);
    assert.equal(await scrolled(page), 0, 'undo');
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await waitForCount(page, 11);
    assert.equal(await scrolled(page), 0, 'after a reload');
    assert.equal(await boardTop(page), top, 'after a reload');
    if (name === 'phone') await screenshot(page, 'duck-phone');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('a move at an earlier position starts a variation; the game goes on as it was', async () => {
  const commands = await game(28);
  const page = await app.open(`duck?moves=${link(commands)}&at=10`, DESKTOP);
  await waitForCount(page, 28);
  await clickMove(page);
  // The game's own 28 commands are all there; the new one is the first of a variation.
  const main = await listed(page, 'main');
  assert.deepEqual(main, commands.map((c, i) => `main:${i + 1}:${c}`));
  const variation = (await listed(page)).filter((item) => !item.startsWith('main:'));
  assert.equal(variation.length, 1);
  assert.match(variation[0], /^v1:11:/);
  assert.equal(await page.getAttribute('[data-line="v1"][data-ply="11"]', 'aria-current'), 'true');
  assert.match(page.url(), /branch=10&variation=\d{4}/);
  // The variation goes on; Undo takes back its moves only.
  await clickMove(page);
  assert.equal((await listed(page, 'v1')).length, 2);
  await page.click('[data-undo]');
  await waitForCount(page, 29);
  assert.equal((await listed(page, 'main')).length, 28);
  await clickMove(page);
  await screenshot(page, 'duck-variation');

  // The address carries the variation shown: a reload shows it, and the game's own line.
  const url = page.url();
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await waitForCount(page, 30);
  assert.equal(page.url(), url);
  assert.equal((await listed(page, 'main')).length, 28);
  assert.deepEqual((await listed(page, 'v1')).map((item) => item.split(':')[1]), ['11', '12']);

  // The game's own continuation can be returned to: its last command, and the End key there.
  await page.click('[data-line="main"][data-ply="28"]');
  await page.waitForFunction(() => document.querySelector('#slider').value === '28');
  assert.doesNotMatch(page.url(), /variation=/);
  await page.keyboard.press('Home');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-line="main"][data-ply="28"]').getAttribute('aria-current') === 'true');
  // Playing the game's own next command at an earlier position follows the game.
  await page.click('[data-line="main"][data-ply="3"]');
  await page.waitForFunction(() => document.querySelector('#slider').value === '3');
  const [from, to] = [commands[3].split(' ').slice(0, 2).join(','), commands[3].split(' ').slice(2).join(',')];
  await page.click(`[data-point="${from}"]`);
  await page.click(`[data-point="${to}"]`);
  await page.waitForFunction(() => document.querySelector('#slider').value === '4');
  assert.equal((await listed(page)).length, 30);
  assert.equal(await page.getAttribute('[data-line="main"][data-ply="4"]', 'aria-current'), 'true');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the engine moves only at the end of the line played, and the player never moves its side', async () => {
  const commands = await game(6);
  const page = await app.open(`duck?moves=${link(commands)}&at=3`, DESKTOP);
  await waitForCount(page, 6);
  // Blue is to move after 3 commands; the engine plays blue.
  assert.equal(await turn(page), 'blue');
  await page.selectOption('[data-engine-time]', '200');
  await page.selectOption('[data-engine-side]', 'blue');
  assert.equal(await page.getAttribute('#engine', 'data-engine-state'), 'waiting');
  assert.equal(await page.locator('.movable').count(), 0);
  const before = await listed(page);
  await page.click('[data-point="9,4"]');
  await page.waitForTimeout(300);
  assert.deepEqual(await listed(page), before);
  // A red move at an earlier position starts a variation, at whose end the engine answers.
  await page.click('[data-line="main"][data-ply="2"]');
  await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'red');
  await clickMove(page);
  await page.waitForFunction(() => document.querySelectorAll('[data-line="v1"][data-command]').length === 2, null, { timeout: 10000 });
  assert.match((await listed(page, 'v1'))[1], /^v1:4:/);
  assert.equal((await listed(page, 'main')).length, 6);
  await page.selectOption('[data-engine-side]', 'none');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the board and the move list are played from the keyboard', async () => {
  const page = await app.open('duck', DESKTOP);
  // One point of the 90 is in the tab order.
  assert.equal(await page.locator('[data-point][tabindex="0"]').count(), 1);
  assert.equal(await page.locator('[data-point][tabindex="-1"]').count(), 89);
  await page.focus('[data-point][tabindex="0"]');
  const focused = () => page.evaluate(() => document.activeElement.dataset.point);
  assert.equal(await focused(), '0,4');
  // Red is at the bottom: up is towards blue. The red horse on (0,1) to (2,2).
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), '0,2');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), '0,1');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-reachable]');
  assert.equal(await page.locator('[data-point="0,1"].selected').count(), 1);
  assert.equal(await focused(), '0,1');
  const ring = await page.evaluate(() => getComputedStyle(document.activeElement.querySelector('.hit')).strokeWidth);
  assert.notEqual(ring, '0px');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), '2,2');
  await page.keyboard.press(' ');
  await waitForCount(page, 1);
  assert.equal(await turn(page), 'blue');
  await screenshot(page, 'duck-keyboard');

  // The move list: its current item is in the tab order; Up and Enter show the start again.
  assert.equal(await page.getAttribute('#moves li[aria-current="true"]', 'tabindex'), '0');
  await page.focus('#moves li[aria-current="true"]');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.ply), '0');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'red');
  assert.equal(await page.getAttribute('#moves li.start', 'aria-current'), 'true');
  assert.equal(await scrolled(page), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the engine\'s side and time survive a reload', async () => {
  const page = await app.open('duck', DESKTOP);
  await page.selectOption('[data-engine-time]', '500');
  await page.selectOption('[data-engine-side]', 'red');
  await page.selectOption('[data-engine-side]', 'none');
  await page.selectOption('[data-engine-side]', 'blue');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.inputValue('[data-engine-side]'), 'blue');
  assert.equal(await page.inputValue('[data-engine-time]'), '500');
  assert.equal(await page.getAttribute('#engine', 'data-engine-state'), 'waiting');
  await page.selectOption('[data-engine-side]', 'none');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('stepping through a game asks the server nothing once its positions are fetched', async () => {
  const commands = await game(28);
  const page = await app.open(`duck?moves=${link(commands)}`, DESKTOP);
  await waitForCount(page, 28);
  await page.waitForSelector('body[data-prefetch="done"]');
  const asked = [];
  page.on('request', (request) => { if (request.url().includes('/api/')) asked.push(request.url()); });
  for (let i = 0; i < 28; i++) await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#slider').value === '0');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('#slider').value === '28');
  await page.click('[data-line="main"][data-ply="7"]');
  await page.waitForFunction(() => document.querySelector('#slider').value === '7');
  assert.deepEqual(asked, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('move sounds are off by default and made by Web Audio when switched on', async () => {
  const page = await app.open('duck', DESKTOP);
  await page.evaluate(() => {
    window.tones = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function counted(...args) {
      window.tones += 1;
      return start.apply(this, args);
    };
  });
  assert.equal(await page.getAttribute('[data-sound]', 'aria-pressed'), 'false');
  await clickMove(page);
  assert.equal(await page.evaluate(() => window.tones), 0);
  await page.click('[data-sound]');
  assert.equal(await page.getAttribute('[data-sound]', 'aria-pressed'), 'true');
  const switched = await page.evaluate(() => window.tones);
  await clickMove(page);
  assert.equal(await page.evaluate(() => window.tones), switched + 1);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.getAttribute('[data-sound]', 'aria-pressed'), 'true');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('dark colours follow the system, and the switch is kept', async () => {
  const page = await app.open('duck?moves=0122,9172', DESKTOP);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await background();
  assert.notEqual(dark, light);
  await page.waitForSelector('[data-theme-switch][aria-pressed="true"]');
  await screenshot(page, 'duck-dark');
  // The switch turns the page light, and the choice outlives a reload.
  await page.click('[data-theme-switch]');
  assert.equal(await background(), light);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await background(), light);
  await page.click('[data-theme-switch]');
  assert.equal(await background(), dark);
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal(await background(), dark);
  for (const path of ['', 'arena', 'chess']) {
    const other = await app.open(path, DESKTOP);
    await other.evaluate(() => localStorage.setItem('arbiter.theme', 'dark'));
    await other.reload();
    await other.waitForSelector('body[data-ready="true"]');
    assert.equal(await other.evaluate(() => getComputedStyle(document.body).backgroundColor), dark, path);
    assert.equal(await other.locator('[data-theme-switch]').count(), 1, path);
    assert.deepEqual(other.errors, []);
    await other.context().close();
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
