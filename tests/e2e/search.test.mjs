// Search in a real browser: the Vietnamese home page finds `kết nối` when typed without
// diacritics, exact spellings come first, English pages search the English index only, and the
// keyboard alone opens the search, moves through the results and opens one.
//
// Builds the fixture tests/fixtures/search-site with `target/release/measured` (cargo build
// --release first) into a temporary folder; needs Debian's chromium at /usr/bin/chromium and
// `npm ci` (playwright-core). Run: node --test tests/e2e/

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from '../quality/static-server.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// MEASURED_BIN: the binary to test (`make test` passes the debug one `cargo test` built).
const binary = process.env.MEASURED_BIN || path.join(repo, 'target', 'release', 'measured');
// SEARCH_SITE: another site with the same articles (e.g. one whose theme overrides are being edited).
const fixture = process.env.SEARCH_SITE || path.join(repo, 'tests', 'fixtures', 'search-site');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const WAIT = 15_000;

describe('search', () => {
  let out;
  let server;
  let browser;
  let page;

  before(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'measured-search-'));
    execFileSync(binary, ['build', '--root', fixture, '--output', path.join(out, 'site')], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    server = await serveStatic(path.join(out, 'site'));
    browser = await chromium.launch({
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
    const context = await browser.newContext();
    page = await context.newPage();
    page.setDefaultTimeout(WAIT);
    // Every request stays on the test's own server.
    page.on('request', (r) => {
      assert.ok(r.url().startsWith(server.url) || r.url().startsWith('data:'), r.url());
    });
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.close();
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  /// Opens `home`, presses "/", types `query`; returns the results as { href, title, marks }.
  async function search(home, query) {
    await page.goto(server.url + home);
    await page.locator('.search-open').waitFor({ state: 'visible' });
    await page.keyboard.press('/');
    const input = page.getByRole('searchbox');
    await assert.doesNotReject(input.waitFor({ state: 'visible' }));
    assert.equal(await input.evaluate((el) => el === document.activeElement), true, '"/" focuses the search');
    await input.fill(query);
    await page.locator('.search-results[aria-busy="false"]').waitFor({ state: 'attached' });
    return page.locator('.search-results a').evaluateAll((links) =>
      links.map((a) => ({
        href: new URL(a.href).pathname,
        title: a.querySelector('.search-title').textContent,
        // Whole words are marked (punctuation stripped in case that changes).
        marks: [...a.querySelectorAll('mark')].map((m) =>
          m.textContent.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, ''),
        ),
      })),
    );
  }

  it('finds `kết nối` from `ket noi` on the Vietnamese home page, with the match marked', async () => {
    const results = await search('/', 'ket noi');
    assert.equal(results[0]?.href, '/ket-noi/', JSON.stringify(results));
    assert.equal(results[0].title, 'Mở một kết nối TCP');
    assert.ok(results[0].marks.includes('kết'), JSON.stringify(results[0]));
    assert.ok(results[0].marks.includes('nối'), JSON.stringify(results[0]));
    assert.ok(results.every((r) => !r.href.startsWith('/en/')), 'Vietnamese results only');
  });

  it('finds `bắt tay` from `bat tay`, and from `bắt tay` itself', async () => {
    assert.equal((await search('/', 'bat tay'))[0]?.href, '/bat-tay/');
    assert.equal((await search('/', 'bắt tay'))[0]?.href, '/bat-tay/');
  });

  it('ranks the words side by side first: `bắt tay` before a page with `bắt` and `tay` apart', async () => {
    const results = await search('/', 'bắt tay');
    assert.equal(results[0]?.href, '/bat-tay/', JSON.stringify(results));
    assert.ok(results.some((r) => r.href === '/bat-bong/'), 'the page with both words apart is found too');
    assert.equal((await search('/', 'bat tay'))[0]?.href, '/bat-tay/');
  });

  it('ranks the exact spelling first: `nên` (so) before `nén` (compress)', async () => {
    assert.equal((await search('/', 'nên'))[0]?.href, '/bat-tay/');
    assert.equal((await search('/', 'nén'))[0]?.href, '/nen/');
  });

  it('finds words with `đ` typed with `d`', async () => {
    const results = await search('/', 'duong truyen');
    assert.deepEqual(results.map((r) => r.href), ['/nen/']);
  });

  it('searches the English index on English pages', async () => {
    const results = await search('/en/', 'handshake');
    assert.equal(results[0]?.href, '/en/bat-tay/', JSON.stringify(results));
    assert.ok(results.every((r) => r.href.startsWith('/en/')), JSON.stringify(results));
    assert.ok(results[0].marks.includes('handshake'), JSON.stringify(results[0]));
  });

  it('finds other forms of an English word and words a query begins', async () => {
    const plural = await search('/en/', 'handshakes');
    assert.equal(plural[0]?.href, '/en/bat-tay/', JSON.stringify(plural));
    assert.ok(plural[0].marks.includes('handshake'), JSON.stringify(plural[0]));
    const begun = await search('/en/', 'handsh');
    assert.equal(begun[0]?.href, '/en/bat-tay/', JSON.stringify(begun));
  });

  it('says when nothing matches', async () => {
    assert.deepEqual(await search('/en/', 'kết nối'), []);
    assert.match(await page.locator('.search-status').textContent(), /kết nối/);
  });

  it('goes by keyboard alone: arrows move through the results, Enter opens one', async () => {
    const results = await search('/en/', 'connection');
    assert.ok(results.length >= 2, JSON.stringify(results));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const focused = await page.evaluate(() => new URL(document.activeElement.href).pathname);
    assert.equal(focused, results[1].href);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForURL(server.url + results[0].href);
  });

  it('closes with Escape and gives the focus back', async () => {
    await page.goto(server.url + '/');
    await page.locator('.search-open').click();
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('dialog.search').evaluate((d) => d.open), false);
    assert.equal(await page.evaluate(() => document.activeElement.className), 'search-open');
  });
});

// A site of 40 articles of about 3 KB of text each: the index bundles their texts by a few
// tens of KB (src/search/files.rs), so results come from several bundles, and each must show
// the text of its own page.
describe('search over texts in several bundles', () => {
  let out;
  let server;
  let browser;
  let page;
  const ARTICLES = 40;

  before(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'measured-bundles-'));
    const root = path.join(out, 'src');
    fs.mkdirSync(root);
    fs.copyFileSync(path.join(fixture, 'site.toml'), path.join(root, 'site.toml'));
    const filler = 'Một câu văn bình thường về mạng và dữ liệu chung. '.repeat(60);
    for (let n = 0; n < ARTICLES; n++) {
      const dir = path.join(root, 'content', `bai-${n}`);
      fs.mkdirSync(dir, { recursive: true });
      const day = String(1 + (n % 28)).padStart(2, '0');
      const month = String(1 + Math.floor(n / 28)).padStart(2, '0');
      fs.writeFileSync(
        path.join(dir, 'index.vi.md'),
        `---\ntitle: Bài số ${n}\ndate: 2026-${month}-${day}\n---\nriengbai${n} ${filler}\n`,
      );
    }
    execFileSync(binary, ['build', '--root', root, '--output', path.join(out, 'site')], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const entry = JSON.parse(fs.readFileSync(path.join(out, 'site', 'search', 'vi', 'index.json')));
    assert.ok(entry.bundles.length >= 3, `texts in several bundles: ${JSON.stringify(entry.bundles)}`);
    server = await serveStatic(path.join(out, 'site'));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(WAIT);
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.close();
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  async function search(query) {
    await page.goto(server.url + '/');
    await page.locator('.search-open').waitFor({ state: 'visible' });
    await page.keyboard.press('/');
    await page.getByRole('searchbox').fill(query);
    await page.locator('.search-results[aria-busy="false"]').waitFor({ state: 'attached' });
    return page.locator('.search-results a').evaluateAll((links) =>
      links.map((a) => ({
        href: new URL(a.href).pathname,
        title: a.querySelector('.search-title').textContent,
        marks: [...a.querySelectorAll('mark')].map((m) => m.textContent),
      })),
    );
  }

  it('finds a page of every bundle with its own title and text', async () => {
    for (const n of [0, 19, ARTICLES - 1]) {
      const results = await search(`riengbai${n}`);
      assert.deepEqual(results.map((r) => [r.href, r.title]), [[`/bai-${n}/`, `Bài số ${n}`]]);
      assert.deepEqual(results[0].marks, [`riengbai${n}`]);
    }
  });

  it('shows each result of a common word with the title of its own page', async () => {
    const results = await search('chung');
    assert.equal(results.length, 8, JSON.stringify(results));
    for (const r of results) assert.equal(`/bai-${r.title.replace('Bài số ', '')}/`, r.href);
  });
});
