// The live game page as a player uses it, on a phone (390×844, touch) and on a desktop: every
// refusal said and seen, the game reviewed during it and after, clocks that can be read (the
// running one and low time marked, beside the board on a phone, in the title of a background
// tab), seats that say who plays, the end with *Analyse* and *Rematch*, and the screenshots of
// docs/web.md.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { screenshot as save, serve } from './harness.js';

const app = serve(['--port', '0']);

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844, touch: true };

// Red's soldier walks up the middle file and takes the blue captain while blue's car shuffles.
const GAME = ['3 4 4 4', '9 0 8 0', '4 4 5 4', '8 0 9 0', '5 4 6 4', '9 0 8 0', '6 4 7 4', '8 0 9 0', '7 4 8 4', '9 0 8 0', '8 4 9 4'];

/** The refusals and the server going away that the tests provoke show in the console. */
const allowed = [/status of 40[39]/, /ERR_FAILED/];

async function create(body) {
  const response = await fetch(app.url('/api/live/games'), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  assert.equal(response.status, 201);
  return response.json();
}

/** A move straight to the API with `token`. */
async function send(id, token, command) {
  const response = await fetch(app.url(`/api/live/games/${id}/act`), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, action: 'move', command }),
  });
  assert.equal(response.status, 200, command);
}

/** The page of the seat `token` holds (a spectator's without one), at `size`. */
async function open(game, token, size, options = {}) {
  const page = await app.open(token ? `${game.path}#seat=${token}` : game.path, { ...size, allowed, ...options });
  page.touch = Boolean(size.touch);
  await page.waitForSelector('[data-connection="open"]');
  return page;
}

/** A screenshot of the page from its top. */
async function screenshot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await save(page, name);
}

/** A tap on a phone, a click on a desktop. */
const press = (page, selector) => (page.touch ? page.tap(selector) : page.click(selector));

/** Plays `command` on the board of `page`, the mover's. */
async function play(page, command) {
  const [x1, y1, x2, y2] = command.split(' ');
  await press(page, `[data-point="${x1},${y1}"].movable`);
  await press(page, `[data-point="${x2},${y2}"][data-reachable]`);
}

/** Waits until `page` lists `count` moves. */
const seen = (page, count) => page.waitForFunction((n) => document.querySelectorAll('#moves li[data-command]').length === n, count);
const shown = (page) => page.getAttribute('#board', 'data-shown-ply').then(Number);

/** Whether the element's box lies within the first screen of the page (its top at 0). */
const inFirstScreen = (page, selector) => page.$eval(selector, (element) => {
  const box = element.getBoundingClientRect();
  return box.height > 0 && box.bottom + window.scrollY <= window.innerHeight;
});

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`a refused action is said, and stays seen (${name})`, async () => {
    const game = await create({ name: 'Ann', color: 'red' });
    const red = await open(game, game.token, size);
    const message = () => red.$eval('[data-message]', (element) => ({
      text: element.textContent, seen: element.getBoundingClientRect().height > 0 && getComputedStyle(element).display !== 'none',
    }));
    await play(red, GAME[0]);
    await seen(red, 1);
    // Out of turn: the page says whose turn it is, after an action that succeeded.
    await press(red, '[data-point="4,4"]');
    await red.waitForFunction(() => document.querySelector('[data-message]').textContent === 'It is blue\'s turn.');
    assert.deepEqual(await message(), { text: 'It is blue\'s turn.', seen: true });
    // The server cannot be reached: the move fails, and says so.
    await send(game.id, game.invite, GAME[1]);
    await seen(red, 2);
    await red.route('**/act', (route) => route.abort());
    await play(red, GAME[2]);
    await red.waitForFunction(() => /cannot reach the server/.test(document.querySelector('[data-message]').textContent));
    assert.equal((await message()).seen, true);
    await red.unroute('**/act');
    await seen(red, 2);
    // The next move that is played clears it.
    await play(red, GAME[2]);
    await seen(red, 3);
    assert.equal((await message()).seen, false);
    assert.deepEqual(red.errors, []);
    await red.context().close();
  });

  test(`the game is reviewed during it and after, with names, clocks and result kept (${name})`, async () => {
    const game = await create({ name: 'Ann', color: 'red', time: '5+3' });
    const blue = await open(game, game.invite, size);
    const asked = [];
    blue.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/duck/')) asked.push(request.url());
    });
    await blue.fill('[data-join-name]', 'Bob');
    await press(blue, '#join button[type="submit"]');
    await blue.waitForFunction(() => document.querySelector('[data-side-name="blue"]')?.textContent === 'Bob');
    for (const [i, command] of GAME.slice(0, 8).entries()) await send(game.id, i % 2 === 0 ? game.token : game.invite, command);
    await seen(blue, 8);
    assert.equal(await shown(blue), 8);
    // The moves came with their board and reach: the page asked the rules nothing.
    assert.deepEqual(asked, []);
    // The coordinates around the board, the last move marked, the moves as the board labels them.
    assert.equal(await blue.locator('#board .coord').count(), 19);
    assert.equal(await blue.locator('#board .last').count(), 2);
    assert.equal(await blue.textContent('#moves li[data-ply="1"] .readable'), '兵 3,4→4,4');
    if (name === 'desktop') await screenshot(blue, 'live-desktop-playing');
    else await screenshot(blue, 'live-phone-playing');

    // Back to the start with the buttons, on with the keys, to a move by a click.
    await press(blue, '[data-review="first"]');
    await blue.waitForFunction(() => document.querySelector('#board').dataset.shownPly === '0');
    assert.equal(await blue.locator('[data-piece]').count(), 32);
    assert.equal(await blue.locator('.point.movable').count(), 0);
    await blue.keyboard.press('ArrowRight');
    await blue.keyboard.press('ArrowRight');
    await blue.waitForFunction(() => document.querySelector('#board').dataset.shownPly === '2');
    await press(blue, '#moves li[data-ply="5"]');
    await blue.waitForFunction(() => document.querySelector('#board').dataset.shownPly === '5');
    assert.equal(await blue.getAttribute('#moves li[data-ply="5"]', 'aria-current'), 'true');
    assert.equal(await blue.getAttribute('[data-point="6,4"] [data-piece]', 'data-piece'), 'red soldier');
    assert.match(await blue.textContent('#turn'), /viewing 5 of 8/);
    // The players and their clocks stay while the game is reviewed; a move that arrives leaves
    // the position reviewed where it is.
    assert.equal(await blue.textContent('[data-side-name="red"]'), 'Ann');
    assert.equal(await blue.locator('[data-clock="blue"][data-clock-running]').count(), 0);
    await send(game.id, game.token, GAME[8]);
    await seen(blue, 9);
    assert.equal(await shown(blue), 5);
    assert.equal(await blue.locator('[data-clock="blue"][data-clock-running]').count(), 1);
    if (name === 'desktop') await screenshot(blue, 'live-desktop-review');
    else await screenshot(blue, 'live-phone-review');
    // End: the game as it stands, with red's check marked as on /duck.
    await blue.keyboard.press('End');
    await blue.waitForFunction(() => document.querySelector('#board').dataset.shownPly === '9');
    assert.equal(await blue.locator('#board .check-glow').count(), 1);
    assert.ok(await blue.locator('.point.movable').count() > 0);

    // Over: reviewed as well, the result kept, and *Analyse* on the board page.
    await send(game.id, game.invite, GAME[9]);
    await send(game.id, game.token, GAME[10]);
    await blue.waitForSelector('[data-game-over="captain"]');
    await press(blue, '[data-review="prev"]');
    await blue.waitForFunction(() => document.querySelector('#board').dataset.shownPly === '10');
    assert.match(await blue.textContent('[data-game-over]'), /red wins: the blue captain is captured/);
    assert.equal(await blue.locator('[data-analyse]').count(), 1);
    await press(blue, '[data-review="last"]');
    if (name === 'desktop') await screenshot(blue, 'live-desktop-over');
    else await screenshot(blue, 'live-phone-over');
    const href = await blue.getAttribute('[data-analyse]', 'href');
    assert.equal(href, `/duck?moves=${GAME.map((c) => c.replaceAll(' ', '')).join(',')}&game=${game.id}`);
    const board = await app.open(href, size);
    await board.waitForSelector(`#live-game[data-live-game="${game.id}"]`);
    assert.equal(await board.textContent('#live-game [data-side-name="red"]'), 'Ann');
    assert.equal(await board.textContent('#live-game [data-side-name="blue"]'), 'Bob');
    assert.match(await board.textContent('#live-game'), /red wins: the blue captain is captured/);
    assert.equal(await board.locator('#moves li[data-command]').count(), GAME.length);
    for (const page of [blue, board]) {
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });
}

test('a rematch asked by one player and accepted by the other swaps the colours on the same links', async () => {
  const game = await create({ name: 'Ann', color: 'red', time: '3+2' });
  const red = await open(game, game.token, DESKTOP);
  const blue = await open(game, game.invite, PHONE);
  await blue.fill('[data-join-name]', 'Bob');
  await press(blue, '#join button[type="submit"]');
  await red.waitForFunction(() => document.querySelector('[data-side-name="blue"]').textContent === 'Bob');
  await press(red, '[data-resign]');
  await press(red, '[data-resign][data-confirm]');
  await blue.waitForSelector('[data-game-over="resign"]');
  await press(blue, '[data-rematch]');
  await red.waitForSelector('#offer-text:has-text("blue offers a rematch")');
  assert.equal(await red.textContent('[data-rematch]'), 'Accept the rematch');
  await press(red, '[data-rematch]');
  // Both players are taken to the new game, each on its own link's token, colours swapped.
  for (const page of [red, blue]) await page.waitForURL((url) => !url.pathname.endsWith(game.id));
  const rematch = new URL(red.url()).pathname.split('/').pop();
  assert.equal(new URL(blue.url()).pathname.split('/').pop(), rematch);
  await red.waitForSelector('#seat[data-seat="blue"]');
  await blue.waitForSelector('#seat[data-seat="red"]');
  assert.equal(await red.textContent('[data-side-name="red"]'), 'Bob');
  assert.equal(await red.textContent('[data-side-name="blue"]'), 'Ann');
  // The old game names the new one, for anyone who opens it.
  const watcher = await open(game, null, DESKTOP);
  await watcher.waitForSelector(`[data-rematch-link][href="/duck/game/${rematch}"]:not(.hidden)`);
  for (const page of [red, blue, watcher]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`the clocks can be read: beside the board, the running one and low time marked (${name})`, async () => {
    // Twelve seconds each: red's clock runs once both have moved.
    const game = await create({ color: 'red', time: '0.2+0' });
    await send(game.id, game.token, GAME[0]);
    await send(game.id, game.invite, GAME[1]);
    const red = await open(game, game.token, size);
    for (const selector of ['#board', '[data-clock="red"]', '[data-clock="blue"]', '[data-side-name="red"]']) {
      assert.ok(await inFirstScreen(red, selector), `${selector} in the first screen`);
    }
    await red.waitForSelector('[data-clock="red"][data-clock-running].running');
    assert.equal(await red.locator('[data-clock-running]').count(), 1);
    assert.equal(await red.locator('[data-clock="blue"][data-clock-low]').count(), 0);
    await red.waitForSelector('[data-clock="red"][data-clock-low].low', { timeout: 10000 });
    // In a background tab the title says whose turn it is, with the clock.
    await red.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    assert.match(await red.title(), /^Your turn · 0:0\d\.\d/);
    await red.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    assert.match(await red.title(), /^Anonymous – Anonymous · Live game/);
    await red.waitForSelector('[data-game-over="time"]', { timeout: 15000 });
    assert.equal(await red.locator('[data-clock-running]').count(), 0);
    assert.deepEqual(red.errors, []);
    await red.context().close();
  });
}

test('a clock is marked low exactly when it shows tenths, around ten seconds and at the end', async () => {
  // Any live page serves the clock module; the faces shown are the test's own.
  const game = await create({ color: 'red' });
  const page = await open(game, game.token, DESKTOP);
  const faces = await page.evaluate(async () => {
    const { showClock } = await import('/assets/clocks.js');
    const face = document.createElement('div');
    const seen = [];
    for (const ms of [60000, 10001, 10000, 9999, 9950, 9901, 9900, 9899, 5000, 99, 1, 0]) {
      showClock(face, { ms, running: true });
      seen.push({ ms, text: face.textContent, low: face.hasAttribute('data-clock-low') && face.classList.contains('low') });
    }
    return seen;
  });
  for (const { ms, text, low } of faces) {
    assert.equal(low, /^0:0\d\.\d$/.test(text), `${ms} ms reads ${text}, low: ${low}`);
    assert.equal(low, ms <= 9900, `${ms} ms`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the other side\'s move makes a sound when sounds are on; one\'s own does not', async () => {
  const game = await create({ name: 'Ann', color: 'red' });
  const red = await open(game, game.token, DESKTOP);
  await red.evaluate(() => {
    window.tones = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function counted(...args) {
      window.tones += 1;
      return start.apply(this, args);
    };
  });
  await send(game.id, game.token, GAME[0]);
  await send(game.id, game.invite, GAME[1]);
  await seen(red, 2);
  assert.equal(await red.evaluate(() => window.tones), 0, 'off by default');
  await red.click('[data-sound]');
  const switched = await red.evaluate(() => window.tones);
  await play(red, GAME[2]);
  await seen(red, 3);
  await send(game.id, game.invite, GAME[3]);
  await seen(red, 4);
  assert.equal(await red.evaluate(() => window.tones), switched + 1);
  assert.deepEqual(red.errors, []);
  await red.context().close();
});

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`the seats say who plays: a name, or Anonymous, and no form once taken (${name})`, async () => {
    // A creator who gave no name, and an invited player who moves without giving one.
    const game = await create({ color: 'red' });
    const red = await open(game, game.token, size);
    await red.evaluate(([id, invite]) => localStorage.setItem(`arbiter.live.${id}.invite`, invite), [game.id, game.invite]);
    await red.reload();
    await red.waitForSelector('[data-connection="open"]');
    assert.equal(await red.textContent('[data-side-name="red"]'), 'Anonymous');
    assert.equal(await red.textContent('[data-side-name="blue"]'), 'waiting for a player…');
    assert.ok(await red.isVisible('#invite'));
    await send(game.id, game.token, GAME[0]);
    const blue = await open(game, game.invite, size);
    assert.ok(await blue.isVisible('[data-join]'));
    await play(blue, GAME[1]);
    for (const page of [red, blue]) {
      await page.waitForFunction(() => document.querySelector('[data-side-name="blue"]').textContent === 'Anonymous');
      assert.equal(await page.isVisible('[data-join]'), false);
      assert.equal(await page.isVisible('#invite'), false);
    }
    assert.equal(await blue.getAttribute('#seat', 'data-seat'), 'blue');
    for (const page of [red, blue]) {
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });
}

test('a page that misses a change catches up from the whole game', async () => {
  const game = await create({ name: 'Ann', color: 'red' });
  const context = await app.browser().newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // The first change the server sends never reaches the page.
  let dropped = 0;
  await page.routeWebSocket(/\/socket$/, (socket) => {
    const server = socket.connectToServer();
    server.onMessage((message) => {
      if (dropped === 0 && String(message).includes('"delta"')) {
        dropped += 1;
        return;
      }
      socket.send(message);
    });
    socket.onMessage((message) => server.send(message));
  });
  await page.goto(app.url(game.path));
  await page.waitForSelector('[data-connection="open"]');
  await send(game.id, game.token, GAME[0]);
  while (dropped === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  // The next change does not follow the version the page holds: it asks for the whole game.
  await send(game.id, game.invite, GAME[1]);
  await seen(page, 2);
  assert.equal(dropped, 1);
  assert.equal(await page.getAttribute('#moves li[data-ply="1"]', 'data-command'), GAME[0]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('every page has a link to the live games in its header', async () => {
  const game = await create({ name: 'Ann' });
  for (const path of ['/', '/duck', '/arena', '/chess', '/duck/games', game.path]) {
    const page = await app.open(path, DESKTOP);
    assert.equal(await page.getAttribute('header a[data-nav="live"]', 'href'), '/duck/games', path);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
