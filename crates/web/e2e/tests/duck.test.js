// The Duck Chess page in Chromium: playing by clicks and drags, reachable points, explanations,
// undo and redo, the address, the piece style, and the official data imported and stepped through.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, openPage, ROOT, screenshot, startServer } from './harness.js';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

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
  const page = await openPage(browser, `${server.url}duck`);
  assert.equal(await page.locator('[data-point]').count(), 90);
  assert.equal(await page.locator('[data-piece]').count(), 32);
  assert.equal(await page.getAttribute('[data-point="0,1"] [data-piece]', 'data-piece'), 'red horse');
  assert.equal(await turn(page), 'red');

  // The red horse on (0,1) reaches (2,2) ((2,0) holds the red duck); (1,3) is a horse's move,
  // but its leg (0,2) is taken.
  await page.click('[data-point="0,1"]');
  await page.waitForSelector('[data-reachable]');
  assert.deepEqual(await reachable(page), ['2,2']);
  await page.click('[data-point="1,3"]');
  await page.waitForFunction(() => document.querySelector('[data-explain]').textContent !== '');
  assert.equal(await page.textContent('[data-explain]'), 'horse leg (0,2) is occupied by red elephant');
  assert.equal(await page.locator('[data-command]').count(), 0);

  // A click on a reachable point plays the move.
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
  const page = await openPage(browser, `${server.url}duck?moves=${moves}`);
  await waitForCommands(page, 13);
  assert.equal((await commands(page))[12][1], 'red duck;NA;yes;no');
  await page.waitForSelector('.check-glow');
  assert.equal(await page.locator('[data-point="5,6"] .attacker').count(), 1);
  assert.match(await page.textContent('#check-note'), /blue captain \(8,4\) is attacked by red duck \(5,6\)/);
  await page.click('[data-point="8,4"]');
  await page.waitForSelector('[data-reachable]');
  await screenshot(page, 'duck');

  // The captain is not saved: the duck takes it, and the game is over.
  const over = await openPage(browser, `${server.url}duck?moves=${moves},6050,5684`);
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
  const page = await openPage(browser, `${server.url}duck`);
  await page.click('#import-box summary');
  const fixtures = join(ROOT, 'crates/duck/tests/fixtures/official');
  for (const n of [1, 2, 3, 4]) {
    const answer = readFileSync(join(fixtures, `${n}.ans`), 'utf8').trim().split('\n');
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
