// The Duck Chess move list and the engine's lines in the readable notation the server writes, on
// a desktop (1366×768) and on a phone (390×844): the piece as the board draws it, the points in
// the board's own labels, captures and checks marked; the official commands a click away.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serve } from './harness.js';

const app = serve();

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** Commands after which red's duck on (5,6) can take the blue captain on (8,4), red to move. */
const DUCK_TAKES_CAPTAIN = ['0 4 1 4', '6 4 5 4', '3 2 4 1', '9 0 8 0', '4 1 4 2', '6 6 6 5', '1 4 1 3',
  '6 5 6 4', '3 4 2 3', '9 4 8 4', '3 8 4 8', '5 4 6 3', '2 8 5 6', '6 0 5 0', '5 6 8 4'];
const link = (commands) => commands.map((c) => c.replaceAll(' ', '')).join(',');

const readable = (page) => page.$$eval('#moves [data-command] .readable', (items) => items.map((item) => item.textContent));

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`moves read as the board shows them, the official commands still at hand (${name})`, async () => {
    const page = await app.open(`duck?moves=${link(DUCK_TAKES_CAPTAIN)}`, size);
    await page.selectOption('[data-style]', 'chinese');
    let moves = await readable(page);
    assert.equal(moves.length, DUCK_TAKES_CAPTAIN.length);
    assert.equal(moves[0], '帥 0,4→1,4');
    // The duck takes the captain: a capture that ends the game.
    assert.equal(moves.at(-1), '鸭 5,6×8,4#');
    // Blue's duck move before it left a check position.
    assert.equal(moves[12], '鸭 2,8→5,6+');
    await page.selectOption('[data-style]', 'western');
    await page.waitForFunction(() => document.querySelector('#moves [data-command] .readable').textContent === 'C 0,4→1,4');
    moves = await readable(page);
    assert.equal(moves.at(-1), 'D 5,6×8,4#');
    // The board's labels are the notation's: row 0 at the left, column 4 below.
    const labels = await page.$$eval('#board .coord', (items) => items.map((item) => item.textContent));
    for (const label of ['0', '1', '4', '8', '9']) assert.ok(labels.includes(label), label);

    // The official command and result: on hover, and in place with the switch.
    const first = page.locator('#moves [data-command]').first();
    assert.equal(await first.locator('.cmd').getAttribute('title'), '0 4 1 4 · red captain;NA;no;no');
    assert.ok(!(await first.locator('.official').isVisible()));
    await page.click('[data-notation]');
    assert.equal(await page.getAttribute('[data-notation]', 'aria-pressed'), 'true');
    assert.equal(await first.locator('.official').textContent(), '0 4 1 4');
    assert.ok(await first.locator('.official').isVisible());
    assert.ok(!(await first.locator('.readable').isVisible()));
    assert.ok(await first.locator('.res').isVisible());
    await page.click('[data-notation]');
    assert.ok(await first.locator('.readable').isVisible());

    // The engine's lines use the same notation: the analysis of the position before the capture.
    await page.click('[data-nav="prev"]');
    await page.click('[data-analysis]');
    await page.waitForFunction(() => document.querySelector('[data-analysis-line] .pv .first')?.textContent === 'D 5,6×8,4#');
    assert.match(await page.getAttribute('[data-analysis-line] .pv .first', 'title'), /^5 6 8 4 · g6e9$/);
    await page.click('[data-analysis]');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
