// The colour palette, on a desktop (1366×768) and on a phone (390×844): defined once in the
// stylesheet and chosen by the system's preference or by the switch, on every colour it sets.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serve } from './harness.js';

const app = serve();

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** The colours the palette gives a few elements: the page, a panel, the move list, the ink. */
const colours = (page) => page.evaluate(() => {
  const style = (selector) => getComputedStyle(document.querySelector(selector));
  return [style('body').backgroundColor, style('.panel').backgroundColor, style('#moves').backgroundColor,
    style('body').color, style('.panel').boxShadow];
});

test('the stylesheet defines each colour of the palette once', async () => {
  const response = await fetch(app.url('assets/style.css'));
  const css = await response.text();
  for (const name of ['--bg', '--panel', '--ink', '--red', '--blue', '--current', '--shadow']) {
    assert.equal(css.split(`${name}:`).length - 1, 1, name);
  }
  assert.doesNotMatch(css, /prefers-color-scheme/);
});

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`the system's preference and the switch choose the same dark colours (${name})`, async () => {
    const page = await app.open('duck', size);
    const light = await colours(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    const system = await colours(page);
    // Every colour changes, the shadow too.
    light.forEach((colour, i) => assert.notEqual(system[i], colour, `colour ${i}`));
    // The switch's dark is the system's, and its light the default.
    await page.click('[data-theme-switch]');
    assert.deepEqual(await colours(page), light);
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(await colours(page), light);
    await page.click('[data-theme-switch]');
    assert.deepEqual(await colours(page), system);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
