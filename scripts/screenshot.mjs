// Makes docs/screenshot.png, the README's picture of the page: the release
// build (run `trunk build --release` first) at a laptop's 1366×768, a small
// model trained on the built-in sample, SQUOIA dev pair 3 with a correct
// link selected and the inspector explaining it.
//   node scripts/screenshot.mjs [OUT.png]
import path from 'node:path';
import { root, openPage, goToPair, openAdvanced } from '../tests/e2e/helpers.mjs';

const out = process.argv[2] ?? path.join(root, 'docs/screenshot.png');
const problems = [];
const { page, close } = await openPage(problems, '#pair-diagram');
try {
  await page.setViewportSize({ width: 1366, height: 768 });
  await openAdvanced(page);
  await page.fill('#train-max-examples', '2000');
  await page.click('#train-advanced > summary');
  await page.click('#train');
  await page.waitForSelector('#job-note.ok', { timeout: 300000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await goToPair(page, 3);
  const correct = await page.locator('#pair-diagram path.link[data-status=correct]').nth(1).getAttribute('data-link');
  await page.locator(`#pair-diagram path.link-hit[data-link="${correct}"]`).dispatchEvent('click');
  await page.waitForSelector('#explain-verdict');
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  await page.screenshot({ path: out });
  if (problems.length) throw new Error(problems.join('\n'));
  console.log(`wrote ${out}`);
} finally {
  await close();
}
