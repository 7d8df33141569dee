// The page-weight check of tests/quality/run.sh (tests/quality/page-weight.mjs) on a tiny site
// written here: it adds to each article's HTML the stylesheets and scripts it references, skips
// pages that are not articles, and fails naming the articles over the limit with their weight.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'quality', 'page-weight.mjs');

function article(body, extraHead = '') {
  return `<!DOCTYPE html><html><head><meta property="og:type" content="article"><link rel="stylesheet" href="/style.css"><link rel="icon" href="/favicon.svg">${extraHead}<script src="/theme.js" defer></script></head><body><main id="main">${body}</main></body></html>`;
}

function check(site, limit) {
  const run = spawnSync(process.execPath, [script, site, String(limit)], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

describe('page weight', () => {
  let site;
  const files = {
    'style.css': 'a'.repeat(300),
    'theme.js': 'b'.repeat(200),
    'favicon.svg': 'c'.repeat(5000),
    'index.html': `<!DOCTYPE html><html><head></head><body><main>${'x'.repeat(5000)}</main></body></html>`,
    'light/index.html': article('short'),
    'heavy/index.html': article('y'.repeat(1000)),
    'en/heavy/index.html': article('z'.repeat(900), '<link rel="stylesheet" href="../../extra.css">'),
    'extra.css': 'd'.repeat(100),
  };
  const size = (name) => Buffer.byteLength(files[name]);

  before(() => {
    site = fs.mkdtempSync(path.join(os.tmpdir(), 'page-weight-'));
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(site, name)), { recursive: true });
      fs.writeFileSync(path.join(site, name), text);
    }
  });

  after(() => fs.rmSync(site, { recursive: true, force: true }));

  it('passes when every article is under the limit', () => {
    const heaviest = size('en/heavy/index.html') + size('style.css') + size('theme.js') + size('extra.css');
    const { status, out } = check(site, 10_000);
    assert.equal(status, 0, out);
    assert.match(out, new RegExp(`3 articles, heaviest ${heaviest} bytes`));
    assert.doesNotMatch(out, /favicon|index\.html /, 'icons and non-articles are not counted');
  });

  it('fails naming each article over the limit with its weight', () => {
    const heavy = size('heavy/index.html') + size('style.css') + size('theme.js');
    const enHeavy = size('en/heavy/index.html') + size('style.css') + size('theme.js') + size('extra.css');
    const light = size('light/index.html') + size('style.css') + size('theme.js');
    const { status, out } = check(site, light + 1);
    assert.equal(status, 1, out);
    assert.match(out, new RegExp(`2 articles over the limit of ${light + 1} bytes`));
    assert.match(out, new RegExp(`  /heavy/: ${heavy} bytes`));
    assert.match(out, new RegExp(`  /en/heavy/: ${enHeavy} bytes`));
    assert.doesNotMatch(out, /  \/light\/:/);
  });

  it('fails when an article references a file the site does not have', () => {
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'page-weight-'));
    try {
      fs.mkdirSync(path.join(broken, 'a'));
      fs.writeFileSync(path.join(broken, 'style.css'), '');
      fs.writeFileSync(path.join(broken, 'a', 'index.html'), article(''));
      const { status, out } = check(broken, 10_000);
      assert.notEqual(status, 0, out);
      assert.match(out, /a\/index\.html: references theme\.js, which is not in/);
    } finally {
      fs.rmSync(broken, { recursive: true, force: true });
    }
  });
});
