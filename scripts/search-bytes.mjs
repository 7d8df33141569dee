// How many bytes the search of a built site fetches for a query, as static/search.js fetches
// them: the language's index.json, the chunks holding the query's words, and the texts of the
// results it shows (one file per page in the index of version 1, the bundles holding them in
// version 2). Counts each file once, raw and gzip-compressed at level 6 (what a static host
// sends), and prints the median and 90th percentile over the queries.
//
// node scripts/search-bytes.mjs SITE LANG [QUERY…]
// Without queries, samples 40 one-word and 40 two-word queries (seeded) from the pages' texts.

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const [site, lang, ...given] = process.argv.slice(2);
if (!site || !lang) {
  console.error('usage: node scripts/search-bytes.mjs SITE LANG [QUERY…]');
  process.exit(2);
}
const dir = path.join(site, 'search', lang);
// search.js: results shown, results looked at for a phrase, chunks for a prefix.
const MAX = 8;
const PHRASE = 16;
const CHUNKS = 4;
const WORD = /[\p{Alphabetic}\p{N}\p{M}]+/gu;
const fold = (w) => w.toLowerCase().normalize('NFC').normalize('NFD').replace(/\p{M}/gu, '').replace(/đ/g, 'd');

const sizes = new Map();
function read(name) {
  const bytes = fs.readFileSync(path.join(dir, name));
  if (!sizes.has(name)) sizes.set(name, [bytes.length, zlib.gzipSync(bytes, { level: 6 }).length]);
  return JSON.parse(bytes);
}
const entry = read('index.json');

function chunksFor(key, last) {
  const exact = !last || key.length < 2;
  return entry.chunks
    .filter((c) => (exact ? c[0] <= key && key <= c[1] : c[1] >= key && c[0] <= key + '\uffff'))
    .slice(0, CHUNKS)
    .map((c) => c[2]);
}

// page → score for one word (the last one also as a prefix), and the chunks read.
function match(key, last) {
  const names = chunksFor(key, last);
  const found = new Map();
  for (const name of names) {
    const chunk = read(name);
    for (const k of Object.keys(chunk)) {
      if (!(k === key || (last && key.length >= 2 && k.startsWith(key)))) continue;
      for (const postings of Object.values(chunk[k])) {
        for (let i = 0; i < postings.length; i += 2) {
          found.set(postings[i], Math.max(found.get(postings[i]) || 0, postings[i + 1]));
        }
      }
    }
  }
  return { names, found };
}

function textFiles(ids) {
  if (!entry.bundles) return ids.map((id) => `f/${entry.set}/${id}.json`);
  const firsts = [];
  let first = 0;
  for (const n of entry.bundles) { firsts.push(first); first += n; }
  return ids.map((id) => {
    let b = 0;
    while (b + 1 < firsts.length && firsts[b + 1] <= id) b++;
    return `f/${entry.set}/${b}.json`;
  });
}

// The files one query fetches.
function fetched(query) {
  const keys = [...new Set((query.match(WORD) || []).map(fold))];
  const files = new Set(['index.json']);
  const each = keys.map((k, i) => match(k, i === keys.length - 1));
  each.forEach((m) => m.names.forEach((n) => files.add(n)));
  const pages = [...each[0].found.keys()]
    .filter((id) => each.every((m) => m.found.has(id)))
    .map((id) => [id, each.reduce((s, m) => s + m.found.get(id), 0)])
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, keys.length > 1 ? PHRASE : MAX)
    .map(([id]) => id);
  textFiles(pages).forEach((f) => { read(f); files.add(f); });
  return { files, results: pages.length };
}

// The pages' texts, from the fragments (version 1) or the bundles (version 2).
function texts() {
  const at = (name) => JSON.parse(fs.readFileSync(path.join(dir, name)));
  if (!entry.bundles) return Array.from({ length: entry.pages }, (_, i) => at(`f/${entry.set}/${i}.json`).text);
  return entry.bundles.flatMap((_, b) => at(`f/${entry.set}/${b}.json`).map((f) => f.text));
}

// Queries a reader might type: a word of four letters or more from a page, or that word and
// the next, from pages and places picked by a seeded generator.
function sample() {
  let seed = 0x6d65617375726564n;
  const next = () => {
    seed ^= seed << 13n; seed &= (1n << 64n) - 1n;
    seed ^= seed >> 7n;
    seed ^= seed << 17n; seed &= (1n << 64n) - 1n;
    return Number(seed % 1000003n);
  };
  const pages = texts().map((t) => (t.match(WORD) || []).filter((w) => w.length >= 4 && !/\p{N}/u.test(w)));
  const pick = (n) => {
    const words = pages[next() % pages.length];
    const i = next() % Math.max(1, words.length - 1);
    return words.slice(i, i + n).join(' ');
  };
  return [...Array.from({ length: 40 }, () => pick(1)), ...Array.from({ length: 40 }, () => pick(2))].filter(Boolean);
}

const queries = given.length ? given : sample();
const rows = queries.map((q) => {
  const { files, results } = fetched(q);
  const [raw, gz] = [...files].reduce((s, f) => [s[0] + sizes.get(f)[0], s[1] + sizes.get(f)[1]], [0, 0]);
  return { q, results, files: files.size, raw, gz };
});
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
if (given.length) for (const r of rows) console.log(`${r.q}: ${r.results} results, ${r.files} files, ${r.raw} B raw, ${r.gz} B gzip`);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `${site} ${lang} (index v${entry.version}, ${entry.pages} pages, ${queries.length} queries, median ${pct(rows.map((r) => r.results), 0.5)} results): ` +
    `median ${kb(pct(rows.map((r) => r.raw), 0.5))} raw / ${kb(pct(rows.map((r) => r.gz), 0.5))} gzip, ` +
    `p90 ${kb(pct(rows.map((r) => r.raw), 0.9))} / ${kb(pct(rows.map((r) => r.gz), 0.9))}, ` +
    `median ${pct(rows.map((r) => r.files), 0.5)} files`,
);
