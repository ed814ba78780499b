// Play a friend: two browsers play a whole game by link while a third watches; every move is
// seen by all three, a move by the wrong seat is refused, the game ends for everyone with its
// reason, and the archive lists it. Then the server is killed (SIGKILL) under a watching page,
// started again on the same data directory and port: the page reconnects by itself and the game
// goes on where it stood.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { launch, openPage, screenshot, serve, startServer } from './harness.js';

const data = mkdtempSync(join(tmpdir(), 'arbiter-live-e2e-'));
after(() => rmSync(data, { recursive: true, force: true }));
const app = serve(['--port', '0', '--data-dir', join(data, 'shared')]);

// Red's soldier walks up the middle file and takes the blue captain while blue's car shuffles.
/** The refusals the test provokes on purpose show in the console. */
const refusals = { allowed: [/status of 40[39]/] };

const GAME = ['3 4 4 4', '9 0 8 0', '4 4 5 4', '8 0 9 0', '5 4 6 4', '9 0 8 0', '6 4 7 4', '8 0 9 0', '7 4 8 4', '9 0 8 0', '8 4 9 4'];

/** Plays `command` by two clicks on `page`, the mover's. */
async function play(page, command) {
  const [x1, y1, x2, y2] = command.split(' ');
  await page.click(`[data-point="${x1},${y1}"].movable`);
  await page.click(`[data-point="${x2},${y2}"][data-reachable]`);
}

/** Waits until `page` lists `count` commands, the last being `last`. */
async function seen(page, count, last) {
  await page.waitForFunction(([n, command]) => {
    const items = document.querySelectorAll('#moves li[data-command]');
    return items.length === n && (n === 0 || items[n - 1].dataset.command === command);
  }, [count, last]);
}

/** Sends an action with this page's seat token, straight to the API; resolves to the status. */
const send = (page, id, body) => page.evaluate(async ([game, action]) => {
  const token = localStorage.getItem(`arbiter.live.${game}`) ?? '';
  const response = await fetch(`/api/live/games/${game}/act`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, ...action }),
  });
  return { status: response.status, body: await response.json() };
}, [id, body]);

test('two browsers play a whole game by link while a third watches', async () => {
  const creator = await app.open('/duck/games', refusals);
  await creator.fill('[data-player-name]', 'Ann');
  await creator.selectOption('[data-color]', 'red');
  await creator.selectOption('[data-time]', '5+3');
  await creator.click('[data-play-friend]');
  await creator.waitForFunction(() => document.querySelector('[data-invite-link]').value !== '');
  const invite = await creator.inputValue('[data-invite-link]');
  const spectate = await creator.inputValue('[data-spectate-link]');
  assert.match(spectate, /^http:\/\/127\.0\.0\.1:\d+\/duck\/game\/[0-9A-Za-z]{10}$/);
  assert.ok(invite.startsWith(`${spectate}#seat=`));
  const id = spectate.split('/').pop();

  await creator.click('[data-open-game]');
  await creator.waitForSelector('body[data-ready="true"] #seat[data-seat="red"]');
  const friend = await app.open(invite, refusals);
  await friend.waitForSelector('#seat[data-seat="blue"]');
  // The token left the address once kept.
  assert.equal(new URL(friend.url()).hash, '');
  await friend.fill('[data-join-name]', 'Bob');
  await friend.click('#join button[type="submit"]');
  const watcher = await app.open(spectate, refusals);
  await watcher.waitForSelector('#seat[data-seat="spectator"]');
  for (const page of [creator, friend, watcher]) {
    await page.waitForSelector('[data-spectators="1"]');
    await page.waitForFunction(() => document.querySelector('[data-player="top"]').textContent.includes('Bob')
      || document.querySelector('[data-player="bottom"]').textContent.includes('Bob'));
  }
  // No token reaches a spectator: not in its page, not in what the server sends it.
  const creatorToken = await creator.evaluate((game) => localStorage.getItem(`arbiter.live.${game}`), id);
  const friendToken = await friend.evaluate((game) => localStorage.getItem(`arbiter.live.${game}`), id);
  const shown = await watcher.evaluate(async (game) => document.documentElement.outerHTML
    + JSON.stringify(await (await fetch(`/api/live/games/${game}`)).json()), id);
  assert.ok(!shown.includes(creatorToken) && !shown.includes(friendToken));

  // Out of turn, and without a seat: refused, and nothing changes.
  const early = await send(friend, id, { action: 'move', command: '9 0 8 0' });
  assert.equal(early.status, 409);
  assert.equal(early.body.reason, 'not-your-turn');
  const stranger = await send(watcher, id, { action: 'move', command: '3 4 4 4' });
  assert.equal(stranger.status, 403);
  assert.equal(await friend.locator('.point.movable').count(), 0);

  for (const [i, command] of GAME.entries()) {
    await play(i % 2 === 0 ? creator : friend, command);
    for (const page of [creator, friend, watcher]) await seen(page, i + 1, command);
  }
  for (const page of [creator, friend, watcher]) {
    await page.waitForSelector('[data-game-over="captain"]');
    assert.equal(await page.getAttribute('#turn', 'data-turn'), 'over');
    assert.match(await page.textContent('[data-game-over]'), /red wins: the blue captain is captured/);
  }
  assert.equal(await watcher.getAttribute('#moves li:last-child', 'data-result'), 'red soldier;blue captain;no;yes');
  await screenshot(watcher, 'live-game');
  const over = await send(creator, id, { action: 'move', command: '0 0 1 0' });
  assert.equal(over.status, 409);

  const exported = await watcher.evaluate(async (game) => (await fetch(`/api/live/games/${game}/export`)).json(), id);
  assert.equal(exported.official, `${GAME.length}\n${GAME.join('\n')}\n`);

  // The archive lists it, by a player's name too.
  const archive = await app.open('/duck/games');
  await archive.fill('[data-filter-player]', 'bob');
  await archive.waitForSelector(`a[data-archived-game="${id}"][href="/duck/game/${id}"]`);
  // The board of the game listed, drawn by the board every page uses: the position it ended in.
  await archive.hover(`a[data-archived-game="${id}"]`);
  await archive.waitForSelector(`#preview-board[data-preview-game="${id}"]`);
  assert.equal(await archive.getAttribute('#preview-board [data-point="9,4"] [data-piece]', 'data-piece'), 'red soldier');
  await screenshot(archive, 'live-games');
  await archive.selectOption('[data-filter-status]', 'ongoing');
  await archive.waitForFunction((game) => !document.querySelector(`[data-archived-game="${game}"]`), id);

  // An address that names no game says so, and does not knock on the server again.
  const missing = await app.open('/duck/game/0000000000', { allowed: [/status of 404/] });
  await missing.waitForSelector('#error:has-text("There is no such game.")');
  assert.equal(await missing.getAttribute('[data-connection]', 'data-connection'), 'connecting');

  for (const page of [creator, friend, watcher, archive, missing]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a watching page reconnects to a server killed and started again, and the game goes on', async () => {
  const dir = join(data, 'restart');
  let server = await startServer(['--port', '0', '--data-dir', dir]);
  const port = new URL(server.url).port;
  const browser = await launch();
  try {
    const created = await (await fetch(new URL('/api/live/games', server.url), {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ann', color: 'red' }),
    })).json();
    const act = (url, token, command) => fetch(new URL(`/api/live/games/${created.id}/act`, url), {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, action: 'move', command }),
    });
    assert.equal((await act(server.url, created.token, GAME[0])).status, 200);
    // Reconnections fail while the server is down: the console says so, which is expected.
    const page = await openPage(browser, new URL(created.path, server.url).href, { allowed: [/WebSocket|ERR_CONNECTION_REFUSED/] });
    await seen(page, 1, GAME[0]);
    await page.waitForSelector('[data-connection="open"]');

    server.child.kill('SIGKILL');
    await page.waitForSelector('[data-connection="closed"]');
    server = await startServer(['--port', port, '--data-dir', dir]);
    await page.waitForSelector('[data-connection="open"]', { timeout: 15000 });
    assert.equal((await act(server.url, created.invite, GAME[1])).status, 200);
    await seen(page, 2, GAME[1]);
    assert.deepEqual(page.errors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a takeback and a draw are offered and answered, and a clock runs out for everyone', async () => {
  const create = async (body) => (await fetch(app.url('/api/live/games'), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  })).json();
  const game = await create({ name: 'Ann', color: 'red' });
  const red = await app.open(`${game.path}#seat=${game.token}`);
  const blue = await app.open(`${game.path}#seat=${game.invite}`);
  await red.waitForSelector('#seat[data-seat="red"]');
  await blue.waitForSelector('#seat[data-seat="blue"]');
  await play(red, GAME[0]);
  await seen(blue, 1, GAME[0]);
  await play(blue, GAME[1]);
  await seen(red, 2, GAME[1]);

  await red.click('[data-takeback]');
  await blue.click('[data-accept-takeback]:not(.hidden)');
  for (const page of [red, blue]) await seen(page, 0, '');
  assert.equal(await red.getAttribute('#turn', 'data-turn'), 'red');

  await blue.click('[data-offer-draw]');
  await red.waitForSelector('#offer-text:has-text("blue offers a draw")');
  await red.click('[data-accept-draw]:not(.hidden)');
  for (const page of [red, blue]) await page.waitForSelector('[data-game-over="agreement"]');

  // Three seconds each: the clocks start once both have moved, and the server ends the game
  // when red's runs out, though nobody moves.
  const timed = await create({ color: 'red', time: '0.05+0' });
  const move = (token, command) => fetch(app.url(`/api/live/games/${timed.id}/act`), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, action: 'move', command }),
  });
  assert.equal((await move(timed.token, GAME[0])).status, 200);
  assert.equal((await move(timed.invite, GAME[1])).status, 200);
  const watcher = await app.open(timed.path);
  await watcher.waitForSelector('[data-clock="red"].running');
  await watcher.waitForSelector('[data-game-over="time"]', { timeout: 10000 });
  assert.match(await watcher.textContent('[data-game-over]'), /blue wins: red ran out of time/);
  assert.equal(await watcher.textContent('[data-clock="red"]'), '0:00.0');

  for (const page of [red, blue, watcher]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
