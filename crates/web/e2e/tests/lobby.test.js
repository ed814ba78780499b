// The lobby in browsers: an anonymous player's casual seek accepted by a signed-in player (both
// land in the game), a seek that goes when its owner leaves, a rated seek refused to an
// anonymous player, a challenge by name declined then accepted, and a paired game aborted before
// both have moved, which leaves the ratings as they were.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { serve } from './harness.js';

const data = mkdtempSync(join(tmpdir(), 'arbiter-lobby-e2e-'));
after(() => rmSync(data, { recursive: true, force: true }));
const app = serve(['--port', '0', '--data-dir', data]);

/** The lobby, for a new browser signed in as `name` (anonymous without one). */
async function lobby(name) {
  const page = await app.open(name ? '/signup' : '/duck/lobby');
  if (name) {
    await page.fill('form[data-signup] input[name="username"]', name);
    await page.fill('form[data-signup] input[name="password"]', `${name} password`);
    await page.click('form[data-signup] button[type="submit"]');
    await page.waitForSelector(`[data-user="${name}"]`);
    await page.goto(app.url('/duck/lobby'));
    await page.waitForSelector('body[data-ready="true"]');
  }
  return page;
}

/** Posts a seek from the page's form. */
async function seek(page, { time = '3+2', color = 'random', rated = false } = {}) {
  await page.selectOption('[data-seek-form] select[name="time"]', time);
  await page.selectOption('[data-seek-form] select[name="color"]', color);
  if (!(await page.isDisabled('[data-seek-form] [data-rated]'))) {
    await page.setChecked('[data-seek-form] [data-rated]', rated);
  }
  await page.click('[data-seek-form] button[type="submit"]');
}

test('an anonymous seek is accepted by a signed-in player and both land in the game', async () => {
  const guest = await lobby(null);
  assert.ok(await guest.isDisabled('[data-seek-form] [data-rated]'), 'anonymous: casual only');
  await seek(guest, { time: '5+3', color: 'blue' });
  await guest.waitForSelector('tr[data-seek].mine [data-seek-cancel]');
  const dora = await lobby('dora');
  await dora.waitForSelector('tr[data-seek][data-seek-rated="false"] [data-seek-accept]');
  await dora.click('[data-seek-accept]');
  for (const page of [guest, dora]) await page.waitForURL(/\/duck\/game\/[0-9A-Za-z]{10}$/);
  assert.equal(guest.url(), dora.url());
  await guest.waitForSelector('#seat[data-seat="blue"]');
  await dora.waitForSelector('#seat[data-seat="red"]');
  const id = new URL(dora.url()).pathname.split('/').pop();
  const view = await dora.evaluate(async (game) => (await fetch(`/api/live/games/${game}`)).json(), id);
  assert.deepEqual([view.red, view.blue, view.time], ['dora', 'Anonymous', '5+3']);
  // The seek is gone from the lobby.
  const seeks = await dora.evaluate(async () => (await fetch('/api/lobby/seeks')).json());
  assert.equal(seeks.seeks.length, 0);
  for (const page of [guest, dora]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a seek goes when its owner leaves, and a rated seek is not for anonymous players', async () => {
  const owner = await lobby(null);
  const watcher = await lobby(null);
  await seek(owner, { time: '1+0' });
  await watcher.waitForSelector('tr[data-seek] [data-seek-accept]');
  await owner.context().close();
  await watcher.waitForFunction(() => document.querySelectorAll('tr[data-seek]').length === 0);

  const erin = await lobby('erin');
  await seek(erin, { time: '3+2', rated: true });
  await watcher.waitForSelector('tr[data-seek][data-seek-rated="true"] [data-seek-accept]');
  await watcher.click('[data-seek-accept]');
  await watcher.waitForSelector('[data-lobby-error]:has-text("sign in to play rated games")');
  assert.match(watcher.url(), /\/duck\/lobby$/);
  for (const page of [watcher, erin]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a challenge by name is declined, then accepted; the game is aborted unrated', async () => {
  const fred = await lobby('fred');
  const gina = await lobby('gina');
  const challenge = async () => {
    await fred.fill('[data-challenge-form] input[name="name"]', 'GINA');
    await fred.selectOption('[data-challenge-form] select[name="color"]', 'red');
    await fred.click('[data-challenge-form] button[type="submit"]');
    await gina.waitForSelector('tr[data-seek].challenge [data-seek-decline]');
  };
  await challenge();
  // Only Gina sees it.
  const seeks = await fred.evaluate(async () => (await fetch('/api/lobby/seeks')).json());
  assert.equal(seeks.seeks.length, 0);
  await gina.click('[data-seek-decline]');
  await fred.waitForSelector('[data-lobby-error]:has-text("gina declined your challenge")');
  await challenge();
  await gina.click('tr[data-seek].challenge [data-seek-accept]');
  for (const page of [fred, gina]) await page.waitForURL(/\/duck\/game\/[0-9A-Za-z]{10}$/);
  await fred.waitForSelector('#seat[data-seat="red"]');
  const id = new URL(fred.url()).pathname.split('/').pop();

  // Before both have moved, a player may abort: no result, no rating.
  const aborted = await gina.evaluate(async (game) => {
    const token = localStorage.getItem(`arbiter.live.${game}`);
    const response = await fetch(`/api/live/games/${game}/abort`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }),
    });
    return response.json();
  }, id);
  assert.equal(aborted.end.reason, 'aborted');
  assert.equal(aborted.end.winner, null);
  for (const page of [fred, gina]) await page.waitForSelector('[data-game-over="aborted"]');
  const profile = await fred.evaluate(async () => (await fetch('/api/users/fred')).json());
  assert.equal(profile.ratings.blitz.games, 0);
  assert.deepEqual(profile.counts, { win: 0, draw: 0, loss: 0 });
  for (const page of [fred, gina]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
