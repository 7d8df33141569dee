// axe-core in Debian's chromium: every URL given must have no violation, in light and dark
// mode, and the first one also with its search dialog open and showing results.
// Usage: node tests/quality/axe.mjs URL...

import { AxeBuilder } from '@axe-core/playwright';
import { chromium } from 'playwright-core';

const urls = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let failed = 0;
try {
  for (const colorScheme of ['light', 'dark']) {
    const context = await browser.newContext({ colorScheme });
    for (const url of urls) {
      const page = await context.newPage();
      await page.goto(url);
      await check(page, `axe ${colorScheme.padEnd(5)} ${new URL(url).pathname}`);
      if (url === urls[0]) {
        await page.keyboard.press('/');
        await page.locator('#search-input').fill(process.env.AXE_QUERY || 'tcp');
        await page.locator('.search-results[aria-busy="false"]').waitFor({ state: 'attached', timeout: 15_000 });
        await check(page, `axe ${colorScheme.padEnd(5)} ${new URL(url).pathname} (search open)`);
      }
      await page.close();
    }
    await context.close();
  }
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);

/// Runs axe on the page as it is now and prints what it finds.
async function check(page, label) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  if (violations.length === 0) {
    console.log(`${label}: no violation`);
  } else {
    failed += violations.length;
    console.log(`${label}: ${violations.length} violation(s)`);
    for (const v of violations) {
      console.log(`  ${v.id} (${v.impact}): ${v.help}`);
      for (const n of v.nodes.slice(0, 5)) console.log(`    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ')}`);
    }
  }
}
