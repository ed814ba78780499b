// What every end-to-end test needs: a running `arbiter serve`, a Chromium page that records
// console errors, and screenshots.

import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const ROOT = resolve(here, '../../../..');
const ARTIFACTS = join(here, '..', 'artifacts');
const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');

/** The `arbiter` binary: $ARBITER, else the newer of the release and debug builds. */
export function binary() {
  if (process.env.ARBITER) return process.env.ARBITER;
  const builds = ['release', 'debug']
    .map((profile) => join(ROOT, 'target', profile, 'arbiter'))
    .filter((path) => existsSync(path))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (builds.length === 0) throw new Error('no arbiter binary: run `cargo build -p arbiter-cli` first');
  return builds[0];
}

/** Starts `arbiter serve` on a free port (or as `args` say); resolves to {url, stop, child}. */
export function startServer(args = ['--port', '0']) {
  return new Promise((resolvePromise, reject) => {
    // The default data directory (where live games are kept) is the test's, not the user's.
    const env = { ...process.env, XDG_DATA_HOME: join(ARTIFACTS, 'data') };
    const child = spawn(binary(), ['serve', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`arbiter serve did not start: ${output}`)), 20000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = output.match(/http:\/\/\S+\//);
      if (match) {
        clearTimeout(timer);
        resolvePromise({
          url: match[0],
          child,
          stop: () => new Promise((done) => {
            child.once('exit', done);
            child.kill('SIGINT');
          }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`arbiter serve exited with ${code}: ${output}`)));
  });
}

/** Launches Debian's Chromium, headless, with no network of its own. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run',
      // Pages served from the working tree ($ASSETS) are answered by the test, not the server:
      // Chromium would take them for public pages and refuse their sockets to the loopback.
      '--disable-features=LocalNetworkAccessChecks'],
  });
}

/**
 * A new page of `browser` at `size`, with the console errors and uncaught exceptions it meets
 * collected in `page.errors` (messages matching one of `allowed` excepted), and the browser
 * `permissions` granted (e.g. `clipboard-read`); `touch` makes it a phone's, with a touch screen.
 */
export async function openPage(browser, url, { width = 1400, height = 900, allowed = [], permissions = [], touch = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, permissions, hasTouch: touch, isMobile: touch });
  if (process.env.ASSETS) await assetsFromDisk(context, process.env.ASSETS);
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !allowed.some((pattern) => pattern.test(message.text()))) {
      page.errors.push(`console: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => page.errors.push(`uncaught: ${error.message}`));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

const TYPES = { html: 'text/html', js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', woff2: 'font/woff2' };
const PAGES = { '/': 'index.html', '/duck': 'duck.html', '/arena': 'arena.html', '/chess': 'chess.html', '/duck/games': 'games.html' };

/**
 * With $ASSETS set (a folder, e.g. `../assets`), the pages and their files are read from it rather
 * than from the binary, which embeds them when it is built: a change to a page is then tried
 * without building again. The API is still the binary's.
 */
async function assetsFromDisk(context, folder) {
  const game = (pathname) => pathname.startsWith('/duck/game/');
  await context.route((url) => url.pathname.startsWith('/assets/') || url.pathname in PAGES || game(url.pathname), (route) => {
    const { pathname } = new URL(route.request().url());
    const name = PAGES[pathname] ?? (game(pathname) ? 'game.html' : pathname.slice('/assets/'.length));
    const path = resolve(folder, name);
    if (!existsSync(path)) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ status: 200, contentType: TYPES[name.split('.').pop()] ?? 'text/plain', body: readFileSync(path) });
  });
}

/** Saves a screenshot of `page` as an artifact, and into docs/screenshots with UPDATE_SCREENSHOTS=1. */
export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path });
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    mkdirSync(SCREENSHOTS, { recursive: true });
    copyFileSync(path, join(SCREENSHOTS, `${name}.png`));
  }
}

/**
 * One `arbiter serve` and one Chromium for the tests of a file: registers the hooks that start
 * them before the first test and stop them after the last. `app.url(path)` is `path` on the
 * server (an absolute URL is kept), `app.open(path, options)` opens it with `openPage`.
 */
export function serve(args) {
  let server;
  let browser;
  before(async () => {
    server = await startServer(args);
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  const url = (path = '') => new URL(path, server.url).href;
  return { url, open: (path, options) => openPage(browser, url(path), options), browser: () => browser };
}
