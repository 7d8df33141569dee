// No template text reaches a reader: no HTML page of the built site shows `{{` outside code.
// Code (`<pre>`, `<code>`), scripts, styles and comments are removed; what is left (text and
// attribute values, such as a tooltip) must hold no `{{`. And code must not hold an injection
// an author put in backticks: `{{ name.path }}` where `name` is a published experiment
// (`experiments/<name>/` in the site). Prints each page and line found.
// Usage: node tests/quality/template-text.mjs SITE_DIR
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const site = process.argv[2];
if (!site) {
  console.error("usage: node tests/quality/template-text.mjs SITE_DIR");
  process.exit(2);
}

function* htmlFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(path);
    else if (entry.name.endsWith(".html")) yield path;
  }
}

// Blanks an element's content but keeps its newlines, so the line numbers stay true.
const blank = (s) => s.replace(/[^\n]/g, " ");
const hidden = /<!--[\s\S]*?-->|<(pre|code|script|style)\b[\s\S]*?<\/\1\s*>/gi;

const injection = /\{\{\s*([A-Za-z0-9_-]+)\.[^}]*\}\}/g;
const isExperiment = (name) => name === "machine" || existsSync(join(site, "experiments", name));

let found = 0;
let pages = 0;
for (const file of htmlFiles(site)) {
  pages += 1;
  const html = readFileSync(file, "utf8");
  for (const [i, line] of html.split("\n").entries()) {
    for (const m of line.matchAll(injection)) {
      if (isExperiment(m[1])) {
        found += 1;
        console.error(`${relative(site, file)}:${i + 1}: an injection shown as code: ${m[0]}`);
      }
    }
  }
  const shown = html.replace(hidden, blank);
  shown.split("\n").forEach((line, i) => {
    if (line.includes("{{")) {
      found += 1;
      console.error(`${relative(site, file)}:${i + 1}: template text outside code: ${line.trim().slice(0, 160)}`);
    }
  });
}
if (found > 0) {
  console.error(`template text: ${found} finding(s)`);
  process.exit(1);
}
console.log(`template text: no {{ outside code in ${pages} pages`);
