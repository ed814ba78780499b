// The Duck Chess page as an analysis board, on a desktop (1366×768) and on a phone (390×844):
// the engine's best lines on the position shown, the evaluation bar, the threat, and the
// evaluation graph of a game with its mistakes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { screenshot, serve } from './harness.js';

const app = serve();

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** Commands after which red's duck on (5,6) can take the blue captain on (8,4), red to move. */
const DUCK_TAKES_CAPTAIN = ['0 4 1 4', '6 4 5 4', '3 2 4 1', '9 0 8 0', '4 1 4 2', '6 6 6 5', '1 4 1 3',
  '6 5 6 4', '3 4 2 3', '9 4 8 4', '3 8 4 8', '5 4 6 3', '2 8 5 6', '6 0 5 0'];
const link = (commands) => commands.map((c) => c.replaceAll(' ', '')).join(',');

const analysisLines = (page) => page.$$eval('[data-analysis-line]', (items) => items.map((item) => ({
  score: item.dataset.score, commands: item.dataset.commands,
})));

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`the analysis board shows the best lines and the bar on every position shown (${name})`, async () => {
    const page = await app.open(`duck?moves=${link(DUCK_TAKES_CAPTAIN)}`, size);
    await page.click('[data-analysis]');
    assert.equal(await page.getAttribute('[data-analysis]', 'aria-pressed'), 'true');
    // Red to move takes the captain with the duck: the best line says so, and the bar is red's.
    await page.waitForFunction(() => document.querySelectorAll('[data-analysis-line]').length >= 3);
    let lines = await analysisLines(page);
    assert.equal(lines[0].score, '#1');
    assert.equal(lines[0].commands.split(',')[0], '5 6 8 4');
    const firsts = new Set(lines.map((line) => line.commands.split(',')[0]));
    assert.equal(firsts.size, lines.length, 'each line starts with its own move');
    for (const line of lines) assert.match(line.score, /^(#-?\d+|[+−]?\d+\.\d\d)$/);
    await page.waitForFunction(() => document.querySelector('[data-eval-bar]').dataset.score === '#1');
    assert.ok(await page.isVisible('[data-eval-bar]'));

    // Stepping back analyses the position shown: blue to move, other lines.
    await page.click('[data-nav="prev"]');
    await page.waitForFunction(() => {
      const first = document.querySelector('[data-analysis-line]');
      return first && first.dataset.commands.split(',')[0] !== '5 6 8 4'
        && document.querySelectorAll('[data-analysis-line]').length >= 3;
    });
    lines = await analysisLines(page);
    assert.notEqual(lines[0].score, '#1');

    // Show threat: with red to move after all the commands, blue would... look at red's threat
    // from blue's side: at the last position, red is to move, and blue threatens something.
    await page.click('[data-nav="next"]');
    await page.click('[data-threat]');
    assert.equal(await page.getAttribute('[data-threat]', 'aria-pressed'), 'true');
    await page.waitForFunction(() => document.querySelector('[data-threat-line]').dataset.commands !== '');
    const threat = await page.getAttribute('[data-threat-line]', 'data-commands');
    assert.match(threat, /^\d \d \d \d/);
    assert.match(await page.textContent('[data-threat-line]'), /^Blue threatens /);
    assert.equal(await page.locator('.engine-arrow.threat').count(), 1);

    // Switched off: no lines, no bar.
    await page.click('[data-analysis]');
    assert.equal(await page.locator('[data-analysis-line]').count(), 0);
    assert.ok(!(await page.isVisible('[data-eval-bar]')));
    await page.click('[data-threat]');
    assert.equal(await page.locator('.engine-arrow.threat').count(), 0);
    if (name === 'desktop') {
      await page.click('[data-analysis]');
      await page.waitForFunction(() => document.querySelectorAll('[data-analysis-line]').length >= 3);
      await page.click('[data-eval-go]');
      await page.waitForSelector('[data-eval-point]');
      await screenshot(page, 'duck-analysis');
      await page.click('[data-analysis]');
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`an imported game gets an evaluation graph with its mistakes, each point a position (${name})`, async () => {
    const page = await app.open('duck', size);
    const commands = [...DUCK_TAKES_CAPTAIN, '5 6 8 4'];
    await page.click('#import-box summary');
    await page.fill('[data-import]', `${commands.length}\n${commands.join('\n')}\n`);
    await page.click('[data-import-go]');
    await page.waitForFunction((n) => document.querySelectorAll('[data-eval-point]').length === n, commands.length + 1);
    const plies = await page.$$eval('[data-eval-point]', (points) => points.map((p) => Number(p.dataset.ply)));
    assert.deepEqual(plies, commands.map((_, i) => i).concat(commands.length));
    // Blue's last command left its captain to the duck: a mistake.
    assert.equal(await page.getAttribute('[data-eval-point][data-ply="14"]', 'data-mistake'), 'true');
    assert.equal(await page.getAttribute('[data-eval-point][data-ply="0"]', 'data-mistake'), 'false');
    // A click on a point shows that position.
    await page.locator('[data-eval-point][data-ply="5"]').scrollIntoViewIfNeeded();
    await page.click('[data-eval-point][data-ply="5"] .hit');
    await page.waitForFunction(() => document.querySelector('#moves [aria-current="true"]')?.dataset.ply === '5');
    assert.match(await page.getAttribute('[data-eval-point][data-ply="5"]', 'class'), /\bshown\b/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
