// How long the page's Translate Train takes with its defaults on the
// built-in sample (issue 41, item 4): the last 20% held out as dev pairs,
// every configuration left open tried and tuned on them, as `treelink
// mt-train --train A --dev B`. Prints, per system, the time from the click
// to the model in hand and the configuration dev chose. A benchmark: it
// asserts nothing about time.
//
//   trunk build --release && node scripts/page-translate-train.mjs
import { openPage } from '../tests/e2e/helpers.mjs';

const problems = [];
const { page, close } = await openPage(problems, '#translate-panel');
try {
  console.log(`the page sees ${await page.evaluate(() => navigator.hardwareConcurrency)} cores; Translate trains in one worker`);
  for (const system of ['phrase', 'ms']) {
    await page.selectOption('#mt-system', system);
    const plan = await page.locator('#mt-plan').innerText();
    const t = Date.now();
    await page.click('#mt-train');
    await page.waitForSelector('#job-stage');
    await page.waitForFunction(() => !document.querySelector('#job-stage')
      && /^Trained a translation model/.test(document.querySelector('#mt-note')?.innerText ?? ''), null, { timeout: 1800000 });
    const seconds = ((Date.now() - t) / 1000).toFixed(1);
    console.log(`${system}: ${seconds} s. ${plan} ${await page.locator('#mt-summary').innerText()}`);
  }
  if (problems.length) console.log(`problems in the page: ${problems.join('; ')}`);
} finally {
  await close();
}
