// The index page and the API index.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { screenshot, serve } from './harness.js';

const app = serve();

test('the index links the three pages, and /api/ lists the endpoints', async () => {
  const page = await app.open('');
  const links = await page.$$eval('.card', (cards) => cards.map((card) => card.getAttribute('href')));
  assert.deepEqual(links, ['/duck', '/arena', '/chess']);
  await screenshot(page, 'index');
  const reply = await (await fetch(app.url('api/'))).json();
  const paths = reply.endpoints.map((endpoint) => endpoint.path);
  assert.ok(paths.includes('/api/duck/move') && paths.includes('/api/arena/trace') && paths.includes('/api/chess/check'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the pages work in a narrow window', async () => {
  const page = await app.open('duck?moves=0314', { width: 420, height: 860 });
  await page.waitForSelector('[data-command]');
  const box = await page.locator('#board').boundingBox();
  assert.ok(box.width <= 420 && box.width > 300, `board width ${box.width}`);
  await page.click('[data-point="9,4"]');
  await page.waitForSelector('[data-reachable]');
  await screenshot(page, 'duck-narrow');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
