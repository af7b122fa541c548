// How long the page's model takes to learn from a pair accepted in
// *Annotate* (issue 42, item 2): opens the built page, loads the first N
// pairs of SQUOIA train (with gold) and the first 20 pairs of SQUOIA test as
// the test set without gold, trains with the defaults, then accepts the
// model's proposal for a held-out pair, three times, and prints the time
// from each Accept to the updated model's proposals (the update trains the
// kept configuration again on the pairs it saw and those accepted, then
// aligns every pair, in the job workers). A benchmark: it asserts nothing
// about time.
//
//   trunk build --release && node scripts/page-annotation-update.mjs [--pairs N]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPage, lines, root } from '../tests/e2e/helpers.mjs';

const at = process.argv.indexOf('--pairs');
const pairs = at >= 0 ? Number(process.argv[at + 1]) : 500;
const squoia = path.join(root, '../shared/data/squoia-de-es/bracketed');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-update-'));
const part = (from, name, n, gold) => ['src', 'trg', 'gold'].map((ext) => {
  const file = path.join(tmp, `${name}.${ext}`);
  const text = ext === 'gold' && !gold ? Array(n).fill('') : lines(`${squoia}/${from}.${ext}`).slice(0, n);
  fs.writeFileSync(file, text.join('\n') + '\n');
  return file;
});
const train = part('train', 'train', pairs, true);
const pool = part('test', 'pool', 20, false);

const problems = [];
const { page, close } = await openPage(problems, '#pair-diagram');
try {
  for (const [k, ext] of ['src', 'trg', 'gold'].entries()) await page.setInputFiles(`#file-${ext}`, train[k]);
  await page.waitForFunction((n) => new RegExp(`, ${n} pairs`).test(document.querySelector('#lede-pairs')?.innerText ?? ''), pairs);
  await page.setInputFiles('#file-test-set', pool);
  await page.waitForFunction((n) => new RegExp(`, ${n} pairs`).test(document.querySelector('#lede-pairs')?.innerText ?? ''), pairs + 20);
  let t = Date.now();
  await page.click('#train');
  await page.waitForSelector('#job-note', { timeout: 1800000 });
  console.log(`SQUOIA train pairs 1–${pairs}, test pairs 1–20 held out without gold; the page sees ${await page.evaluate(() => navigator.hardwareConcurrency)} cores`);
  console.log(`trained with the defaults in ${((Date.now() - t) / 1000).toFixed(1)} s: ${await page.locator('#model-summary').innerText()}`);
  await page.click('#mode-annotate');
  await page.fill('#pair-number', String(pairs + 1));
  await page.press('#pair-number', 'Enter');
  for (let update = 1; update <= 3; update++) {
    await page.waitForFunction(() => /^The model proposes/.test(document.querySelector('#annotate-state')?.innerText ?? ''));
    // The stages the progress bar names during the update, by the page's clock.
    await page.evaluate(() => {
      window.stages = [];
      window.stagesObserver?.disconnect();
      window.stagesObserver = new MutationObserver(() => {
        const stage = document.querySelector('#job-stage')?.innerText.replace(/^[^:]*: /, '');
        if (stage && window.stages.at(-1)?.[0] !== stage) window.stages.push([stage, performance.now()]);
      });
      window.stagesObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
      window.accepted = performance.now();
    });
    t = Date.now();
    await page.click('#annotate-accept');
    // The updated model is in hand and its alignment in: the job's progress is gone.
    await page.waitForFunction((n) => new RegExp(`updated on ${n} pairs`).test(document.querySelector('#model-summary')?.innerText ?? '')
      && !document.querySelector('#job-stage'), pairs + update, { timeout: 600000 });
    console.log(`update ${update} (${pairs + update} pairs): ${((Date.now() - t) / 1000).toFixed(1)} s from Accept to the updated model's proposals`);
    const { stages, accepted } = await page.evaluate(() => ({ stages: window.stages, accepted: window.accepted }));
    console.log(`  stages: ${stages.map(([stage, at]) => `${((at - accepted) / 1000).toFixed(1)} s ${stage}`).join(' | ')}`);
  }
} finally {
  await close();
}
if (problems.length) console.log(`problems: ${problems.join('; ')}`);
