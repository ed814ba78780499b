// Players with accounts: two browsers sign up, meet in the lobby by quick pairing at 3+2, play a
// rated game to its end, and both profiles then show the new blitz ratings, equal to Glicko-2
// computed here from Glickman's formulas, independently of the server. Then a player changes
// the password, signs out and in again, and the leaderboard lists both.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { screenshot, serve } from './harness.js';

const data = mkdtempSync(join(tmpdir(), 'arbiter-accounts-e2e-'));
after(() => rmSync(data, { recursive: true, force: true }));
const app = serve(['--port', '0', '--data-dir', data]);

// Red's soldier walks up the middle file and takes the blue captain while blue's car shuffles.
const GAME = ['3 4 4 4', '9 0 8 0', '4 4 5 4', '8 0 9 0', '5 4 6 4', '9 0 8 0', '6 4 7 4', '8 0 9 0', '7 4 8 4', '9 0 8 0', '8 4 9 4'];

/**
 * Glicko-2 as "Example of the Glicko-2 system" (Glickman, 2013) gives it: the player's rating
 * after a rating period of `games` ({opponent, score}: 1, ½ or 0). τ = 0.5, ε = 10⁻⁶.
 */
function glicko2(player, games, tau = 0.5) {
  const scale = 173.7178;
  const mu = (player.rating - 1500) / scale;
  const phi = player.deviation / scale;
  const terms = games.map(({ opponent, score }) => {
    const phiJ = opponent.deviation / scale;
    const g = 1 / Math.sqrt(1 + (3 * phiJ * phiJ) / (Math.PI * Math.PI));
    const expected = 1 / (1 + Math.exp(-g * (mu - (opponent.rating - 1500) / scale)));
    return { g, expected, score };
  });
  const v = 1 / terms.reduce((sum, t) => sum + t.g * t.g * t.expected * (1 - t.expected), 0);
  const sum = terms.reduce((total, t) => total + t.g * (t.score - t.expected), 0);
  const delta = v * sum;
  const a = Math.log(player.volatility ** 2);
  const f = (x) => (Math.exp(x) * (delta ** 2 - phi ** 2 - v - Math.exp(x))) / (2 * (phi ** 2 + v + Math.exp(x)) ** 2) - (x - a) / tau ** 2;
  let A = a;
  let B;
  if (delta ** 2 > phi ** 2 + v) {
    B = Math.log(delta ** 2 - phi ** 2 - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > 1e-6) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  const sigma = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi ** 2 + sigma ** 2);
  const phiNew = 1 / Math.sqrt(1 / phiStar ** 2 + 1 / v);
  return { rating: scale * (mu + phiNew ** 2 * sum) + 1500, deviation: scale * phiNew, volatility: sigma };
}

const START = { rating: 1500, deviation: 350, volatility: 0.06 };

test('the formulas here give the paper\'s worked example', () => {
  const rated = (rating, deviation) => ({ rating, deviation, volatility: 0.06 });
  const after = glicko2(rated(1500, 200), [
    { opponent: rated(1400, 30), score: 1 },
    { opponent: rated(1550, 100), score: 0 },
    { opponent: rated(1700, 300), score: 0 },
  ]);
  assert.equal(after.rating.toFixed(2), '1464.05'); // the paper, rounding each step: 1464.06
  assert.equal(after.deviation.toFixed(2), '151.52');
  assert.equal(after.volatility.toFixed(5), '0.06000'); // the paper: 0.05999
});

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

/** Signs `name` up on a page of its own (a browser of its own); resolves to the page. */
async function signUp(name, password) {
  const page = await app.open('/signup');
  await page.fill('form[data-signup] input[name="username"]', name);
  await page.fill('form[data-signup] input[name="password"]', password);
  await page.click('form[data-signup] button[type="submit"]');
  await page.waitForSelector(`[data-user="${name}"]`);
  assert.equal(await page.textContent('[data-user]'), name);
  return page;
}

test('two players sign up, meet in the lobby, play a rated 3+2 game, and their profiles show the new ratings', async () => {
  const ann = await signUp('Ann_e2e', 'ann password');
  const bob = await signUp('bob-e2e', 'bob password');

  // Both ask for a quick pairing at 3+2: both land in the same game, each in a seat.
  for (const page of [ann, bob]) {
    await page.goto(app.url('/duck/lobby'));
    await page.waitForSelector('body[data-ready="true"] [data-pairing="3+2"]');
  }
  await ann.click('[data-pairing="3+2"]');
  await ann.waitForSelector('[data-pairing="3+2"][aria-pressed="true"]');
  await screenshot(ann, 'lobby');
  await bob.click('[data-pairing="3+2"]');
  for (const page of [ann, bob]) await page.waitForURL(/\/duck\/game\/[0-9A-Za-z]{10}$/);
  assert.equal(ann.url(), bob.url());
  for (const page of [ann, bob]) await page.waitForSelector('body[data-ready="true"] #seat[data-seat="red"], body[data-ready="true"] #seat[data-seat="blue"]');
  const annSeat = await ann.getAttribute('#seat', 'data-seat');
  const bobSeat = await bob.getAttribute('#seat', 'data-seat');
  assert.deepEqual([annSeat, bobSeat].sort(), ['blue', 'red']);
  const [red, blue] = annSeat === 'red' ? [ann, bob] : [bob, ann];
  const [redName, blueName] = annSeat === 'red' ? ['Ann_e2e', 'bob-e2e'] : ['bob-e2e', 'Ann_e2e'];
  const id = new URL(red.url()).pathname.split('/').pop();
  const view = await red.evaluate(async (game) => (await fetch(`/api/live/games/${game}`)).json(), id);
  assert.equal(view.time, '3+2');
  assert.deepEqual([view.red, view.blue], [redName, blueName]);

  for (const [i, command] of GAME.entries()) {
    await play(i % 2 === 0 ? red : blue, command);
    for (const page of [red, blue]) await seen(page, i + 1, command);
  }
  for (const page of [red, blue]) await page.waitForSelector('[data-game-over="captain"]');

  // Red won: both ratings computed here, from the start, and compared with the profiles.
  const expected = {
    [redName]: glicko2(START, [{ opponent: START, score: 1 }]),
    [blueName]: glicko2(START, [{ opponent: START, score: 0 }]),
  };
  for (const [name, rating] of Object.entries(expected)) {
    const profile = await app.open(`/@/${name}`);
    await profile.waitForSelector('[data-rating="blitz"]');
    assert.equal(await profile.textContent('[data-rating="blitz"]'), String(Math.round(rating.rating)), name);
    // The other categories are untouched.
    assert.equal(await profile.textContent('[data-rating="bullet"]'), '1500');
    assert.equal(await profile.locator('[data-rating-graph] circle').count(), 1);
    assert.equal(await profile.getAttribute('[data-rating-graph] circle', 'data-point'), String(Math.round(rating.rating)));
    const won = name === redName;
    assert.equal(await profile.textContent('[data-count="win"]'), won ? '1' : '0');
    assert.equal(await profile.textContent('[data-count="loss"]'), won ? '0' : '1');
    await profile.waitForSelector(`[data-profile-game="${id}"][data-result="${won ? 'win' : 'loss'}"]`);
    // The games filter by result.
    await profile.selectOption('[data-filter-result]', won ? 'loss' : 'win');
    await profile.waitForFunction(() => document.querySelectorAll('[data-profile-game]').length === 0);
    if (won) await screenshot(profile, 'profile');
    assert.deepEqual(profile.errors, []);
    await profile.context().close();
  }
  const api = await red.evaluate(async (name) => (await fetch(`/api/users/${name}`)).json(), redName);
  assert.ok(Math.abs(api.ratings.blitz.rating - expected[redName].rating) < 1e-6);
  assert.ok(Math.abs(api.ratings.blitz.deviation - expected[redName].deviation) < 1e-6);
  assert.ok(Math.abs(api.ratings.blitz.volatility - expected[redName].volatility) < 1e-9);

  // The leaderboard of blitz lists both, the winner first.
  const board = await app.open('/leaderboard?category=blitz');
  await board.waitForSelector('[data-leader]');
  assert.deepEqual(await board.$$eval('[data-leader]', (rows) => rows.map((row) => row.dataset.leader)), [redName, blueName]);

  for (const page of [red, blue, board]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a password change signs the other browsers out; sign-out and sign-in work from the pages', async () => {
  const first = await signUp('carol', 'first password');
  const second = await app.open('/signin');
  await second.fill('form[data-signin] input[name="username"]', 'CAROL');
  await second.fill('form[data-signin] input[name="password"]', 'first password');
  await second.click('form[data-signin] button[type="submit"]');
  await second.waitForSelector('[data-user="carol"]');

  await first.goto(app.url('/@/carol'));
  await first.waitForSelector('body[data-ready="true"] [data-password-form]');
  await first.fill('[data-password-form] input[name="password"]', 'first password');
  await first.fill('[data-password-form] input[name="new_password"]', 'second password');
  await first.click('[data-password-form] button[type="submit"]');
  await first.waitForSelector('[data-password-done]:not(.hidden)');
  // This browser stays signed in; the other one is out.
  await first.reload();
  await first.waitForSelector('[data-user="carol"]');
  await second.reload();
  await second.waitForSelector('[data-signin-link]');
  assert.equal(await second.locator('[data-user]').count(), 0);

  // A wrong password is refused on the page, the right one signs in.
  const refused = { allowed: [/status of 401/] };
  const again = await app.open('/signin', refused);
  await again.fill('form[data-signin] input[name="username"]', 'carol');
  await again.fill('form[data-signin] input[name="password"]', 'first password');
  await again.click('form[data-signin] button[type="submit"]');
  await again.waitForSelector('[data-credentials-error]:has-text("wrong user name or password")');
  await again.fill('form[data-signin] input[name="password"]', 'second password');
  await again.click('form[data-signin] button[type="submit"]');
  await again.waitForSelector('[data-user="carol"]');
  await again.click('[data-signout]');
  await again.waitForSelector('[data-signin-link]');
  await again.reload();
  await again.waitForSelector('[data-signin-link]');

  for (const page of [first, second, again]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
