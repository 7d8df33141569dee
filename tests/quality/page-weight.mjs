// Page weight of every article of a built site: its HTML plus the stylesheets (<link
// rel=stylesheet>) and scripts (<script src>) it references, uncompressed. Images are not
// counted, nor what loads only when the reader searches (search.js and the index's files,
// imported by script on first use, so no page references them).
// Prints every article's weight, heaviest first, and fails naming the articles over the limit.
// Usage: node tests/quality/page-weight.mjs SITE_DIR [LIMIT_BYTES]   (default 100 KiB)

import fs from 'node:fs';
import path from 'node:path';

const [siteArg, limitArg] = process.argv.slice(2);
if (!siteArg) {
  console.error('usage: node tests/quality/page-weight.mjs SITE_DIR [LIMIT_BYTES]');
  process.exit(2);
}
const site = path.resolve(siteArg);
const limit = Number(limitArg ?? 100 * 1024);

// Every index.html under the site, as paths relative to it.
function pages(dir) {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name === 'index.html')
    .map((e) => path.relative(site, path.join(e.parentPath ?? e.path, e.name)));
}

// The attributes of each start tag `name` in `html`, as maps of lower-case names to values.
function tags(html, name) {
  const out = [];
  for (const [tag] of html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'gi'))) {
    const attrs = new Map();
    const found = [...tag.matchAll(/([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)];
    for (const m of found.slice(1)) {
      attrs.set(m[1].toLowerCase(), m[2] ?? m[3] ?? m[4] ?? '');
    }
    out.push(attrs);
  }
  return out;
}

// The site files a page loads with it: stylesheets and scripts, resolved against the page.
function references(html, page) {
  const urls = [
    ...tags(html, 'link')
      .filter((a) => (a.get('rel') ?? '').toLowerCase().split(/\s+/).includes('stylesheet'))
      .map((a) => a.get('href')),
    ...tags(html, 'script').map((a) => a.get('src')),
  ].filter(Boolean);
  const base = new URL(`http://site/${page.split(path.sep).join('/')}`);
  const files = new Set();
  for (const url of urls) {
    const resolved = new URL(url.replaceAll('&amp;', '&'), base);
    if (resolved.origin !== base.origin) {
      fail(`${page}: ${url} is not on the site`);
    }
    files.add(decodeURIComponent(resolved.pathname).replace(/^\//, ''));
  }
  return [...files];
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

const weights = [];
for (const page of pages(site)) {
  const html = fs.readFileSync(path.join(site, page), 'utf8');
  // An article page says so in its Open Graph type.
  if (!/<meta property="og:type" content="article">/.test(html)) continue;
  let bytes = Buffer.byteLength(html);
  const parts = [`HTML ${bytes}`];
  for (const file of references(html, page)) {
    const full = path.join(site, file);
    if (!fs.existsSync(full)) fail(`${page}: references ${file}, which is not in ${site}`);
    const size = fs.statSync(full).size;
    bytes += size;
    parts.push(`${file} ${size}`);
  }
  weights.push({ page: `/${path.dirname(page).split(path.sep).join('/')}/`.replace('/./', '/'), bytes, parts });
}
if (weights.length === 0) fail(`no article page (<meta property="og:type" content="article">) in ${site}`);
weights.sort((a, b) => b.bytes - a.bytes || a.page.localeCompare(b.page));
const over = weights.filter((w) => w.bytes > limit);
for (const w of weights) {
  console.log(`${w.bytes > limit ? 'OVER' : 'ok  '} ${w.bytes} ${w.page} (${w.parts.join(', ')})`);
}
console.log(`page weight: ${weights.length} articles, heaviest ${weights[0].bytes} bytes, limit ${limit}`);
if (over.length > 0) {
  console.log(`${over.length} articles over the limit of ${limit} bytes:`);
  for (const w of over) console.log(`  ${w.page}: ${w.bytes} bytes`);
  process.exit(1);
}
