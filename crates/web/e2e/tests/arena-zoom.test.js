// The arena's largest official game (game 20: 99 × 98, 194 pieces) on a desktop (1366×768) and a
// phone (390×844): seen whole with the pieces' numbers hidden, zoomed in (buttons, the wheel) until
// they can be read, panned, a piece's details on a tap, and fitted again.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, screenshot, serve } from './harness.js';

const app = serve();

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const fixtures = join(ROOT, 'crates/arena/tests/fixtures');

const viewBox = (page) => page.getAttribute('#board', 'viewBox');
const zoomLevel = async (page) => Number(await page.getAttribute('#board', 'data-zoom'));
const labels = (page) => page.getAttribute('#board', 'data-labels');

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`game 20 is zoomed, panned and read piece by piece (${name})`, async () => {
    const page = await app.open('arena', size);
    // The trace is asked for in its compact form.
    const traces = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/arena/trace')) traces.push(JSON.parse(request.postData()));
    });
    await page.fill('[data-arena-rules]', 'official');
    await page.setInputFiles('#upload', join(fixtures, 'official/1.in'));
    await page.waitForFunction(() => document.querySelectorAll('[data-arena-game] option').length === 20);
    await page.selectOption('[data-arena-game]', '20');
    await page.waitForFunction(() => document.querySelectorAll('[data-piece-id]').length === 194);
    assert.match(await page.textContent('#game-size'), /^99 × 98, 194 pieces/);
    assert.ok(traces.length > 0 && traces.every((body) => body.compact === true));

    // Whole: too small to read a number; the zoom-out and fit buttons have nothing to do.
    assert.equal(await zoomLevel(page), 1);
    assert.equal(await labels(page), 'hidden');
    assert.ok(await page.isDisabled('[data-zoom-fit]'));
    const whole = await viewBox(page);

    // The buttons zoom about the centre.
    await page.click('[data-zoom-in]');
    assert.ok((await zoomLevel(page)) > 1);
    await page.click('[data-zoom-out]');
    assert.equal(await zoomLevel(page), 1);

    // The wheel zooms about the pointer, over a piece, until its number can be read.
    const target = page.locator('[data-piece-id="1"]');
    let spot = await target.boundingBox();
    await page.mouse.move(spot.x + spot.width / 2, spot.y + spot.height / 2);
    for (let i = 0; i < 12 && (await page.getAttribute('[data-piece-id="1"] .piece-id', 'visibility')) !== 'visible'; i++) {
      await page.mouse.wheel(0, -200);
    }
    assert.equal(await page.getAttribute('[data-piece-id="1"] .piece-id', 'visibility'), 'visible');
    assert.notEqual(await labels(page), 'hidden');
    assert.ok((await zoomLevel(page)) > 1);

    // A tap on the piece gives its details.
    spot = await target.boundingBox();
    await page.mouse.click(spot.x + spot.width / 2, spot.y + spot.height / 2);
    await page.waitForSelector('#tip:not(.hidden)');
    assert.match(await page.textContent('#tip'), /Piece 1 · (red|blue)/);
    if (name === 'desktop') await screenshot(page, 'arena-zoom');
    await page.mouse.click(spot.x + spot.width / 2, spot.y + spot.height / 2);

    // A drag on the grid pans it.
    const box = await page.locator('#board').boundingBox();
    const before = await viewBox(page);
    await page.mouse.move(box.x + 4, box.y + 4);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.3, { steps: 5 });
    await page.mouse.up();
    assert.notEqual(await viewBox(page), before);

    // Fit: the whole grid again.
    await page.click('[data-zoom-fit]');
    assert.equal(await zoomLevel(page), 1);
    assert.equal(await viewBox(page), whole);
    assert.equal(await labels(page), 'hidden');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
