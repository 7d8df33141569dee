// Prints the four Lighthouse scores of one page's reports and fails if the median score of a
// category is under the minimum. Lighthouse's own guidance for its variance is to run it
// several times and take the median (as Lighthouse CI's numberOfRuns does); run.sh runs a page
// once and twice more only if that run is under the minimum, so a decision is on one run or
// on the median of three, every run printed.
// Usage: node tests/quality/lighthouse-scores.mjs MIN REPORT.json...   (the reports of one page)

import fs from 'node:fs';

const [min, ...reports] = process.argv.slice(2);
const runs = reports.map((file) => JSON.parse(fs.readFileSync(file, 'utf8')));
const path = new URL(runs[0].finalDisplayedUrl).pathname;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[(s.length - 1) >> 1];
};
const judged = Object.entries(runs[0].categories).map(([key, category]) => {
  const scores = runs.map((lhr) => Math.round(lhr.categories[key].score * 100));
  return { title: category.title, scores, score: median(scores) };
});
const shown = ({ title, scores, score }) =>
  `${title} ${score}${scores.length > 1 ? ` (median of ${scores.join(', ')})` : ''}`;
console.log(`lighthouse ${path}: ${judged.map(shown).join(', ')}`);
let failed = false;
for (const { title, scores, score } of judged) {
  if (score < Number(min)) {
    failed = true;
    const lhr = runs[scores.indexOf(score)];
    const audits = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
      .map((a) => `    ${a.id}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    const which = runs.length > 1 ? ' in the median run' : '';
    console.log(`  ${title} is under ${min}; audits that did not pass${which}:\n${audits.join('\n')}`);
  }
}
process.exit(failed ? 1 : 0);
