// Prints the four Lighthouse scores of each report given and fails if one is under the minimum.
// Usage: node tests/quality/lighthouse-scores.mjs MIN REPORT.json...

import fs from 'node:fs';

const [min, ...reports] = process.argv.slice(2);
let failed = false;
for (const file of reports) {
  const lhr = JSON.parse(fs.readFileSync(file, 'utf8'));
  const scores = Object.values(lhr.categories).map((c) => [c.title, Math.round(c.score * 100)]);
  console.log(`lighthouse ${new URL(lhr.finalDisplayedUrl).pathname}: ${scores.map(([t, s]) => `${t} ${s}`).join(', ')}`);
  for (const [title, score] of scores) {
    if (score < Number(min)) {
      failed = true;
      const audits = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
        .map((a) => `    ${a.id}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`);
      console.log(`  ${title} is under ${min}; audits that did not pass:\n${audits.join('\n')}`);
    }
  }
}
process.exit(failed ? 1 : 0);
