// A site published under a path, in a real browser: tests/fixtures/search-site built with
// base_url = "http://127.0.0.1:PORT/blog/" and served under /blog/ only (anything outside it is
// missing, as on a GitHub project page), with a standalone page in the menu. Search finds its
// pages and opens them, the 404 page keeps its styles, and linkinator finds no broken link,
// asset, feed or anchor from /blog/.
//
// Builds with target/release/measured, or target/debug/measured when there is no release build
// (MEASURED_BIN says which); needs Debian's chromium and `npm ci`. Run: node --test tests/e2e/

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LinkChecker } from 'linkinator';
import { chromium } from 'playwright-core';
import { serveStatic } from '../quality/static-server.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const release = path.join(repo, 'target', 'release', 'measured');
const binary =
  process.env.MEASURED_BIN ||
  (fs.existsSync(release) ? release : path.join(repo, 'target', 'debug', 'measured'));
const fixture = path.join(repo, 'tests', 'fixtures', 'search-site');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const WAIT = 15_000;
const PREFIX = '/blog';

describe('a site under /blog/', () => {
  let out;
  let server;
  let browser;
  let page;
  // Every answer of 400 or more the pages asked for, as "status url".
  const failed = [];

  before(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'measured-base-path-'));
    const site = path.join(out, 'site');
    const src = path.join(out, 'src');
    fs.cpSync(fixture, src, { recursive: true });
    // Served first: the port is part of base_url.
    server = await serveStatic(site, { prefix: PREFIX });
    const toml = path.join(src, 'site.toml');
    const text = fs.readFileSync(toml, 'utf8');
    const base = `base_url = "${server.url}${PREFIX}/"`;
    const menu = '\n[[languages.vi.menu]]\nname = "Giới thiệu"\nurl = "/about/"\n';
    fs.writeFileSync(toml, text.replace(/^base_url = .*$/m, base) + menu);
    fs.mkdirSync(path.join(src, 'pages', 'about'), { recursive: true });
    fs.writeFileSync(
      path.join(src, 'pages', 'about', 'index.vi.md'),
      '---\ntitle: Giới thiệu\n---\nXem [kết nối](/ket-noi/) và [thẻ](/tags/).\n',
    );
    execFileSync(binary, ['build', '--root', src, '--output', site], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(WAIT);
    page.on('request', (r) => {
      assert.ok(r.url().startsWith(server.url) || r.url().startsWith('data:'), r.url());
    });
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.close();
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it('loads every asset of the home page from under the path', async () => {
    failed.length = 0;
    const answer = await page.goto(`${server.url}${PREFIX}/`);
    assert.equal(answer.status(), 200);
    const sheets = await page.evaluate(() => [...document.styleSheets].map((s) => new URL(s.href).pathname));
    assert.deepEqual(sheets, ['/blog/style.css', '/blog/highlight.css']);
    const styled = await page.evaluate(() => getComputedStyle(document.querySelector('.site-header')).display);
    assert.notEqual(styled, 'inline', 'style.css applies');
    assert.deepEqual(failed, []);
  });

  it('searches the index under the path and opens a result there', async () => {
    failed.length = 0;
    await page.goto(`${server.url}${PREFIX}/`);
    await page.locator('.search-open').waitFor({ state: 'visible' });
    await page.keyboard.press('/');
    await page.getByRole('searchbox').fill('ket noi');
    await page.locator('.search-results[aria-busy="false"]').waitFor({ state: 'attached' });
    const hrefs = await page
      .locator('.search-results a')
      .evaluateAll((links) => links.map((a) => new URL(a.href).pathname));
    assert.equal(hrefs[0], '/blog/ket-noi/', JSON.stringify(hrefs));
    assert.ok(hrefs.every((h) => h.startsWith('/blog/')), JSON.stringify(hrefs));
    await Promise.all([page.waitForURL(`**${PREFIX}/ket-noi/`), page.keyboard.press('ArrowDown').then(() => page.keyboard.press('Enter'))]);
    assert.equal(new URL(page.url()).pathname, '/blog/ket-noi/');
    assert.deepEqual(failed, [], 'search.js, the index and the page it opened all loaded');
  });

  it('shows a styled 404 page whose links lead back under the path', async () => {
    failed.length = 0;
    const answer = await page.goto(`${server.url}${PREFIX}/no/such/page/`);
    assert.equal(answer.status(), 404);
    assert.deepEqual(failed.filter((f) => !f.endsWith('/no/such/page/')), [], 'its CSS and JS load');
    const links = await page.locator('main a').evaluateAll((as) => as.map((a) => new URL(a.href).pathname));
    assert.ok(links.length > 0 && links.every((l) => l.startsWith('/blog/')), JSON.stringify(links));
  });

  it('has no broken link, asset, feed or anchor (linkinator from /blog/)', async () => {
    const checker = new LinkChecker();
    const result = await checker.check({
      path: `${server.url}${PREFIX}/`,
      recurse: true,
      checkFragments: true,
      timeout: 10_000,
    });
    const broken = result.links.filter((l) => l.state === 'BROKEN').map((l) => `${l.status} ${l.url} (on ${l.parent})`);
    assert.deepEqual(broken, []);
    const seen = result.links.map((l) => new URL(l.url).pathname);
    for (const want of ['/blog/atom.xml', '/blog/en/', '/blog/tags/', '/blog/ket-noi/', '/blog/style.css', '/blog/about/']) {
      assert.ok(seen.includes(want), `${want} was checked`);
    }
  });
});
