// Clocks against the engine, on a desktop (1366×768) and on a phone (390×844): a time control for
// the player, the clock of the side to move running, the increment after a move, the loss on time
// and resigning, each named by the game-over banner. The page's clock is driven by Playwright's.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serve } from './harness.js';

const app = serve();

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

const ms = async (page, side) => Number(await page.getAttribute(`[data-clock="${side}"]`, 'data-ms'));

/** The page with the engine playing blue at 0.2 s a move, and the `control` clock. */
async function against(size, control) {
  const page = await app.open('duck', size);
  await page.clock.install();
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.selectOption('[data-engine-time]', '200');
  await page.selectOption('[data-engine-side]', 'blue');
  await page.selectOption('[data-clock-control]', control);
  return page;
}

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`the player's clock runs, gains its increment, and a fallen flag loses the game (${name})`, async () => {
    const page = await against(size, '1+0');
    assert.ok(await page.isVisible('[data-clock="red"]'));
    // Red, the player, is to move: its clock has started (time passes in the page as well).
    const start = await ms(page, 'red');
    assert.ok(start <= 60000 && start >= 59000, `${start}`);
    assert.equal(await ms(page, 'blue'), 60000);
    await page.clock.runFor(5000);
    const red = await ms(page, 'red');
    assert.ok(red <= start - 4500 && red >= start - 6500, `${start} → ${red}`);
    assert.equal(await ms(page, 'blue'), 60000);

    // The player moves: its clock stops, the engine's runs, then the player's again.
    await page.click('[data-point="0,1"]');
    await page.click('[data-point="2,2"]');
    await page.waitForFunction(() => document.querySelectorAll('#moves [data-command]').length === 2);
    await page.waitForFunction(() => document.querySelector('[data-clock="red"]').classList.contains('running'));
    const afterMove = await ms(page, 'red');
    assert.ok(afterMove <= red, `${afterMove}`);

    // The flag falls: blue wins on time, and nothing more is played.
    await page.clock.runFor(61000);
    await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'over');
    assert.equal(await ms(page, 'red'), 0);
    assert.equal(await page.textContent('#banner'), 'Blue wins: red ran out of time');
    assert.equal(await page.getAttribute('#banner', 'data-reason'), 'time');
    assert.equal(await page.locator('.movable').count(), 0);
    assert.ok(await page.isDisabled('[data-resign]'));
    assert.ok(await page.isDisabled('[data-undo]'));

    // An increment: 3+2 adds two seconds to the side that moved.
    await page.click('[data-new-game]');
    await page.selectOption('[data-clock-control]', '3+2');
    await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'red');
    await page.clock.runFor(1000);
    await page.click('[data-point="0,1"]');
    await page.click('[data-point="2,2"]');
    await page.waitForFunction(() => document.querySelectorAll('#moves [data-command]').length === 2);
    await page.waitForFunction(() => document.querySelector('[data-clock="red"]').classList.contains('running'));
    const red3 = await ms(page, 'red');
    assert.ok(red3 > 180000 && red3 <= 181100, `${red3}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`the player resigns, and the banner says so (${name})`, async () => {
    const page = await against(size, '5+3');
    assert.ok(await ms(page, 'red') >= 299000);
    assert.ok(!(await page.isDisabled('[data-resign]')));
    // Resigning asks first.
    await page.click('[data-resign]');
    await page.waitForSelector('[data-resign][data-confirm]');
    assert.equal(await page.getAttribute('[data-turn]', 'data-turn'), 'red');
    await page.click('[data-resign][data-confirm]');
    await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'over');
    assert.equal(await page.textContent('#banner'), 'Blue wins: red resigned');
    assert.equal(await page.getAttribute('#banner', 'data-reason'), 'resign');
    assert.equal(await page.locator('.movable').count(), 0);
    // A new game is a new clock.
    await page.click('[data-new-game]');
    await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'red');
    assert.ok(await ms(page, 'red') >= 299000);
    assert.ok(await page.isHidden('#banner'));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
