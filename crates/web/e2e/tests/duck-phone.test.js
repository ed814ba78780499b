// The board page on a phone (390×844, touch) and on a desktop where they differ: the clocks
// against the engine in the first screen with the board, kept with their time control across a
// reload; the end of a game said beside the board, never over the piece that ended it; resigning
// asked twice and the engine's status saying the game is over; the editor's palette seen with the
// board, drawn in the board's style, its FEN following the pieces placed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serve } from './harness.js';

const app = serve();

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844, touch: true };

/** Whether the element's box lies within the first screen of the page (its top at 0). */
const inFirstScreen = (page, selector) => page.$eval(selector, (element) => {
  const box = element.getBoundingClientRect();
  return box.height > 0 && box.top + window.scrollY >= 0 && box.bottom + window.scrollY <= window.innerHeight;
});

/** Whether two elements' boxes overlap. */
const overlap = (page, a, b) => page.evaluate(([first, second]) => {
  const [p, q] = [first, second].map((selector) => document.querySelector(selector).getBoundingClientRect());
  return p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom;
}, [a, b]);

const ms = async (page, side) => Number(await page.getAttribute(`[data-clock="${side}"]`, 'data-ms'));

test('on a phone the clocks against the engine stand with the board, and a reload keeps them', async () => {
  const page = await app.open('duck', PHONE);
  await page.selectOption('[data-engine-time]', '200');
  await page.selectOption('[data-engine-side]', 'blue');
  await page.selectOption('[data-clock-control]', '5+3');
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const selector of ['#board', '[data-clock="red"]', '[data-clock="blue"]']) {
    assert.ok(await inFirstScreen(page, selector), `${selector} in the first screen`);
  }
  await page.tap('[data-point="0,1"]');
  await page.tap('[data-point="2,2"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves [data-command]').length === 2);
  await page.waitForSelector('[data-clock="red"][data-clock-running]');
  await page.waitForTimeout(1500);
  const before = await ms(page, 'red');
  assert.ok(before < 303000, `${before}`);
  // A reload: the same game, the same time control, the clocks where they were.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves [data-command]').length === 2);
  assert.equal(await page.inputValue('[data-clock-control]'), '5+3');
  assert.ok(await page.isVisible('#clocks'));
  await page.waitForSelector('[data-clock="red"][data-clock-running]');
  const after = await ms(page, 'red');
  assert.ok(after <= before && after > before - 10000, `${before} → ${after}`);
  assert.ok(await ms(page, 'blue') > 300000, 'blue kept its increment');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`the end of a game is said beside the board, not over it (${name})`, async () => {
    // The red car on the top row takes the blue captain beside it.
    const page = await app.open('duck?fen=R3c2r1%2F3hg4%2F9%2F9%2F9%2F9%2F9%2F9%2F9%2F4C4+w+-+-+0+1&moves=9094', size);
    await page.waitForSelector('#banner[data-reason="captain"]');
    assert.equal(await page.textContent('#banner'), 'Red wins: the blue captain is captured');
    assert.equal(await overlap(page, '#banner', '[data-point="9,4"]'), false);
    assert.equal(await overlap(page, '#banner', '#board'), false);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('resigning against the engine asks first, and then the game is over everywhere', async () => {
  const page = await app.open('duck', PHONE);
  await page.selectOption('[data-engine-side]', 'blue');
  await page.tap('[data-resign]');
  assert.equal(await page.getAttribute('[data-turn]', 'data-turn'), 'red');
  assert.equal(await page.textContent('[data-resign]'), 'Really resign?');
  await page.tap('[data-resign][data-confirm]');
  await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'over');
  assert.equal(await page.textContent('#engine-status'), 'The game is over.');
  assert.equal(await page.locator('.movable').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a phone the editor\'s pieces are seen with the board, drawn as the board draws them', async () => {
  const page = await app.open('duck', PHONE);
  await page.tap('[data-editor]');
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const selector of ['#board', '[data-editor-tool="red car"]', '[data-editor-tool="blue soldier"]', '[data-editor-tool="remove"]']) {
    assert.ok(await inFirstScreen(page, selector), `${selector} in the first screen`);
  }
  // Chinese pieces in the Chinese style, letters in the Western one.
  assert.equal(await page.textContent('[data-editor-tool="red car"] .glyph'), '俥');
  assert.equal(await page.textContent('[data-editor-tool="blue horse"] .glyph'), '馬');
  await page.selectOption('[data-style]', 'western');
  assert.equal(await page.textContent('[data-editor-tool="red car"] .glyph'), 'R');
  await page.selectOption('[data-style]', 'chinese');
  // The FEN follows each piece placed.
  await page.tap('[data-editor-clear]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 2);
  assert.equal(await page.inputValue('[data-fen-input]'), '4c4/9/9/9/9/9/9/9/9/4C4 w - - 0 1');
  await page.tap('[data-editor-tool="red car"]');
  await page.tap('[data-point="1,4"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 3);
  assert.equal(await page.inputValue('[data-fen-input]'), '4c4/9/9/9/9/9/9/9/4R4/4C4 w - - 0 1');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a desktop the editor stays in the side panel', async () => {
  const page = await app.open('duck', DESKTOP);
  await page.click('[data-editor]');
  assert.equal(await page.$eval('#editor', (editor) => Boolean(editor.closest('aside'))), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
