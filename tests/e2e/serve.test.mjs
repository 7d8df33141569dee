// `measured serve` in a real browser: the page reloads by itself after a Markdown edit, takes a
// CSS edit without navigating, and shows then hides the build-error overlay.
//
// Needs `target/release/measured` (cargo build --release), Debian's chromium at
// /usr/bin/chromium and `npm ci` (playwright-core). Run: node --test tests/e2e/

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// MEASURED_BIN: the binary to test (`make test` passes the debug one `cargo test` built).
const binary = process.env.MEASURED_BIN || path.join(repo, 'target', 'release', 'measured');
const fixture = path.join(repo, 'tests', 'fixtures', 'serve-site');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const WAIT = 15_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/// Resolves once the server prints its URL; rejects if it exits or stays silent too long.
function waitForListening(child, log) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${log.text}`)), 60_000);
    child.stderr.on('data', (chunk) => {
      log.text += chunk;
      if (/serving http:\/\//.test(log.text)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${log.text}`));
    });
  });
}

function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGINT');
  });
}

describe('measured serve in chromium', () => {
  let site;
  let profile;
  let server;
  let context;
  let page;
  let base;
  const log = { text: '' };
  const article = () => path.join(site, 'content', 'hello', 'index.en.md');
  const stylesheet = () => path.join(site, 'static', 'style.css');

  before(async () => {
    assert.ok(fs.existsSync(binary), `${binary} is missing: run cargo build --release first, or set MEASURED_BIN`);
    site = fs.mkdtempSync(path.join(os.tmpdir(), 'measured-e2e-site-'));
    fs.cpSync(fixture, site, { recursive: true });
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'measured-e2e-profile-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(binary, ['serve', '--root', site, '--port', String(port)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await waitForListening(server, log);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(WAIT);
  });

  after(async () => {
    await context?.close().catch(() => {});
    await stop(server);
    for (const dir of [site, profile]) {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const reloadReady = () => page.waitForFunction(() => window.__measuredReloadReady === true);

  it('reloads the article by itself after its Markdown is edited', async () => {
    await page.goto(`${base}/en/hello/`);
    assert.match(await page.textContent('main'), /The first article/);
    await reloadReady();
    const loaded = page.waitForEvent('load', { timeout: WAIT });
    const text = fs.readFileSync(article(), 'utf8');
    fs.writeFileSync(article(), text.replace('The first article', 'The edited article'));
    await loaded;
    assert.match(await page.textContent('main'), /The edited article/);
  });

  it('applies a CSS edit without navigating', async () => {
    await reloadReady();
    await page.evaluate(() => {
      window.marker = 'still here';
    });
    const color = () => page.evaluate(() => getComputedStyle(document.querySelector('main p')).color);
    assert.equal(await color(), 'rgb(0, 0, 0)');
    let navigations = 0;
    const count = (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    };
    page.on('framenavigated', count);
    const css = fs.readFileSync(stylesheet(), 'utf8');
    fs.writeFileSync(stylesheet(), css.replace('rgb(0, 0, 0)', 'rgb(200, 0, 0)'));
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector('main p')).color === 'rgb(200, 0, 0)',
    );
    page.off('framenavigated', count);
    assert.equal(navigations, 0);
    assert.equal(await page.evaluate(() => window.marker), 'still here');
  });

  it('shows the build error over the page, then removes it once fixed', async () => {
    await reloadReady();
    const good = fs.readFileSync(article(), 'utf8');
    fs.writeFileSync(article(), good.replace('title: "Hello"', 'title: [Hello'));
    const overlay = await page.waitForSelector('#measured-overlay', { state: 'visible' });
    const shown = await overlay.textContent();
    assert.match(shown, /index\.en\.md:2:\d+: /);
    assert.match(await page.textContent('main'), /The edited article/, 'the last good page stays');
    fs.writeFileSync(article(), good);
    await page.waitForSelector('#measured-overlay', { state: 'detached' });
    assert.match(await page.textContent('main'), /The edited article/);
  });
});
