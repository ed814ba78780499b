// The Duck Chess position editor, on a desktop (1366×768) and on a phone (390×844): pieces of
// both colours placed, moved and removed, the side to move, a FEN pasted; the server's reason
// for a position it refuses; playing, analysing and reloading from the position set up.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { screenshot, serve } from './harness.js';

const app = serve();

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** Red's car on e2 takes the blue captain on e10. */
const CAR_TAKES = '4c4/9/9/9/9/9/9/9/4R4/3C5 w';

const pieceCount = (page) => page.locator('[data-piece]').count();
const fenShown = (page) => page.inputValue('[data-fen]');

async function setFen(page, fen) {
  await page.fill('[data-fen-input]', fen);
  await page.click('[data-fen-go]');
}

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`the editor sets up a position the server accepts, and says why it refuses one (${name})`, async () => {
    // A refused position is the server's 400, which the browser logs.
    const page = await app.open('duck', { ...size, allowed: [/status of 400/] });
    assert.ok(!(await page.isVisible('#editor')));
    await page.click('[data-editor]');
    assert.equal(await page.getAttribute('[data-editor]', 'aria-pressed'), 'true');
    assert.ok(await page.isVisible('#editor'));

    // Refused: the server's reasons.
    await setFen(page, 'rrr1c4/9/9/9/9/9/9/9/9/4C4 w');
    await page.waitForFunction(() => /3 blue cars, more than the 2 a side starts with/.test(document.querySelector('[data-explain]').textContent));
    await setFen(page, '4c4/9/9/9/9/9/9/9/9/9 b');
    await page.waitForFunction(() => /no red captain, though red has just moved/.test(document.querySelector('[data-explain]').textContent));
    await setFen(page, '4c4/9/9/9/9/9/9/9/9/4X4 w');
    await page.waitForFunction(() => /expected a piece letter/.test(document.querySelector('[data-explain]').textContent));
    assert.equal(await pieceCount(page), 32, 'a refused position changes nothing');

    // Accepted: the board, the FEN and the address follow.
    await setFen(page, CAR_TAKES);
    await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 3);
    assert.equal(await fenShown(page), `${CAR_TAKES} - - 0 1`);
    assert.equal(new URL(page.url()).searchParams.get('fen'), `${CAR_TAKES} - - 0 1`);

    // A blue car placed on (5,4) blocks the file; placed again, it goes.
    await page.click('[data-editor-tool="blue car"]');
    await page.click('[data-point="5,4"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 4);
    assert.equal(await page.getAttribute('[data-point="5,4"] [data-piece]', 'data-piece'), 'blue car');
    // A third blue car is one too many: refused with the reason.
    await page.click('[data-point="5,5"]');
    await page.click('[data-point="5,6"]');
    await page.waitForFunction(() => /3 blue cars/.test(document.querySelector('[data-explain]').textContent));
    assert.equal(await pieceCount(page), 5);
    await page.click('[data-editor-tool="remove"]');
    await page.click('[data-point="5,5"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 4);
    // The move tool: the red captain from (0,3) to (0,5).
    await page.click('[data-editor-tool="move"]');
    await page.click('[data-point="0,3"]');
    await page.click('[data-point="0,5"]');
    await page.waitForFunction(() => document.querySelector('[data-point="0,5"] [data-piece]')?.dataset.piece === 'red captain');
    // Removing red's captain with blue to move is refused.
    await page.selectOption('[data-editor-turn]', 'blue');
    await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'blue');
    await page.click('[data-editor-tool="remove"]');
    await page.click('[data-point="0,5"]');
    await page.waitForFunction(() => /no red captain/.test(document.querySelector('[data-explain]').textContent));
    await page.selectOption('[data-editor-turn]', 'red');
    await page.click('[data-editor-tool="blue car"]');
    await page.click('[data-point="5,4"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 3);
    if (name === 'desktop') await screenshot(page, 'duck-editor');

    // Played from: the car takes the captain.
    await page.click('[data-editor-done]');
    assert.ok(!(await page.isVisible('#editor')));
    await page.click('[data-point="1,4"]');
    await page.click('[data-point="9,4"]');
    await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'over');
    assert.equal(await page.getAttribute('#moves [data-command]', 'data-result'), 'red car;blue captain;no;yes');

    // The address carries the position set up and the game from it.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForFunction(() => document.querySelector('[data-turn]').dataset.turn === 'over');
    await page.click('[data-nav="first"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 3);

    // Analysed from: the best line takes the captain.
    await page.click('[data-analysis]');
    await page.waitForFunction(() => document.querySelector('[data-analysis-line]')?.dataset.score === '#1');
    assert.equal((await page.getAttribute('[data-analysis-line]', 'data-commands')).split(',')[0], '1 4 9 4');
    await page.click('[data-analysis]');

    // A new game is the official start again.
    await page.click('[data-new-game]');
    await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 32);
    assert.equal(new URL(page.url()).searchParams.get('fen'), null);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
