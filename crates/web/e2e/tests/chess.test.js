// The record checker in Chromium: a correct record, a wrong one with its rule and canonical
// spelling on the board, and PGN games with their verdicts.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, screenshot, serve } from './harness.js';

const app = serve();

async function check(page, text) {
  await page.evaluate(() => delete document.body.dataset.checked);
  await page.fill('[data-record-input]', text);
  await page.click('[data-record-check]');
  await page.waitForSelector('body[data-checked="true"]');
}

test('checks a correct record and a wrong one, and steps through the moves', async () => {
  const page = await app.open('chess');
  const sample = readFileSync(join(ROOT, 'crates/chess-record/tests/fixtures/sample/1.in'), 'utf8');
  await check(page, sample);
  assert.equal(await page.getAttribute('[data-verdict]', 'data-verdict'), 'Yes');
  assert.equal(await page.getAttribute('[data-wrong-token]', 'data-wrong-token'), '');
  // The board shows the last position: 15. Qxc8+ put a white queen on c8, checking the king.
  assert.equal(await page.locator('#board [aria-label="white queen on c8"]').count(), 1);
  assert.equal(await page.locator('#board .in-check').count(), 1);

  // The contest writes castling with the letter O: `0-0` is the first wrong token.
  await check(page, '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0 Be7');
  assert.equal(await page.getAttribute('[data-verdict]', 'data-verdict'), 'No');
  assert.equal(await page.getAttribute('[data-wrong-token]', 'data-wrong-token'), '0-0');
  assert.equal(await page.getAttribute('[data-canonical]', 'data-canonical'), 'O-O');
  assert.match(await page.textContent('#reason'), /castling is written with the letter O/i);
  // The board is at the position the wrong move was played in, the move marked on it.
  assert.equal(await page.locator('#board .wrong').count(), 2);
  assert.equal(await page.locator('#board [aria-label="white king on e1"]').count(), 1);
  await screenshot(page, 'chess');

  // Step back to the start and forward again.
  await page.keyboard.press('Home');
  assert.equal(await page.locator('#board [aria-label="white pawn on e2"]').count(), 1);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('#board [aria-label="white pawn on e4"]').count(), 1);
  await page.click('.plies span:text-is("Bb5")');
  assert.equal(await page.locator('#board [aria-label="white bishop on b5"]').count(), 1);

  // An illegal move has no canonical spelling.
  await check(page, '1. e4 e5 2. Ke3');
  assert.equal(await page.getAttribute('[data-wrong-token]', 'data-wrong-token'), 'Ke3');
  assert.equal(await page.locator('[data-canonical]').count(), 0);
  assert.match(await page.textContent('#reason'), /illegal move/i);

  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('lists the games of a PGN text with their verdicts', async () => {
  const page = await app.open('chess');
  const pgn = [
    '[White "Alice"]\n[Black "Bob"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n',
    '[White "Carol"]\n[Black "Dan"]\n\n1. e4 e5 2. Ng1f3 Nc6 *\n',
  ].join('\n');
  await check(page, pgn);
  assert.equal(await page.locator('#games tr').count(), 2);
  assert.equal(await page.getAttribute('#games tr:nth-child(1)', 'data-ok'), 'true');
  assert.equal(await page.getAttribute('#games tr:nth-child(2)', 'data-ok'), 'false');
  assert.match(await page.textContent('#games tr:nth-child(2)'), /Ng1f3.*write Nf3/);
  await screenshot(page, 'chess-pgn');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an empty record is refused with a clear message', async () => {
  const page = await app.open('chess', { allowed: [/status of 400/] });
  await check(page, '  \n');
  assert.match(await page.textContent('#error'), /the record is empty/);
  assert.equal(await page.isVisible('#record-result'), false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('every PGN game opens on the board, at its first wrong move, and the text is kept', async () => {
  const page = await app.open('chess', { width: 390, height: 844 });
  const pgn = [
    '[White "Alice"]\n[Black "Bob"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n',
    '[White "Carol"]\n[Black "Dan"]\n\n1. e4 {the king\'s pawn} e5 (1... c5) 2. Ng1f3 Nc6 *\n',
  ].join('\n');
  await check(page, pgn);
  assert.equal(await page.textContent('.games th:nth-child(3)'), 'Plies');
  const fen = () => page.getAttribute('#board', 'data-chess-fen');
  const shown = async (row) => {
    await page.evaluate(() => delete document.body.dataset.gameShown);
    await page.click(`#games tr[data-game="${row}"]`);
    await page.waitForSelector(`body[data-game-shown="${row}"]`);
  };
  // The second game: its first wrong move, Ng1f3 (white's second), marked where it was played.
  await shown(2);
  assert.equal(await fen(), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
  assert.equal(await page.locator('#board .wrong').count(), 2);
  assert.equal(await page.textContent('#pgn-plies .bad'), 'Ng1f3');
  const top = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('Home');
  assert.equal(await fen(), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  await page.keyboard.press('ArrowRight');
  assert.match(await fen(), /^rnbqkbnr\/pppppppp\/8\/8\/4P3\//);
  assert.equal(await page.evaluate(() => window.scrollY), top);
  // The first game, from the keyboard: its last position, the mate.
  await page.focus('#games tr[data-game="1"]');
  await page.evaluate(() => delete document.body.dataset.gameShown);
  await page.keyboard.press('Enter');
  await page.waitForSelector('body[data-game-shown="1"]');
  assert.equal(await page.locator('#board [aria-label="white queen on f7"]').count(), 1);
  assert.equal(await page.locator('#pgn-plies [data-ply]').count(), 7);
  await page.click('#pgn-plies [data-ply="3"]');
  assert.equal(await page.locator('#board [aria-label="white queen on h5"]').count(), 1);
  await screenshot(page, 'chess-pgn-game');

  // A reload keeps the text, its mode and the game shown.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.inputValue('[data-record-input]'), pgn);
  assert.equal(await page.locator('#games tr').count(), 2);
  assert.equal(await page.getAttribute('#games tr[data-game="1"]', 'aria-current'), 'true');
  assert.equal(await page.locator('#board [aria-label="white queen on f7"]').count(), 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
