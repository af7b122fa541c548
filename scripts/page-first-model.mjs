// A first model in seconds (issue 38, item 2): opens the built page on the
// built-in sample (157 pairs), clicks Train with the defaults (the best
// settings chosen on the dev pairs) and prints the time from the click to
// the first model's links in the diagram, and to the chosen model's
// results. A benchmark, not a test: it asserts nothing about time.
//
//   trunk build --release && node scripts/page-first-model.mjs [--runs N] [--cores N]
//
// With --cores N the page sees N cores (navigator.hardwareConcurrency), so
// its pool has N job workers (default: what the machine says).
import { openPage } from '../tests/e2e/helpers.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const runs = option('--runs', 1);
const cores = option('--cores', undefined);

const problems = [];
for (let run = 1; run <= runs; run++) {
  // A fresh page each run: the first Train of a visit starts the job workers.
  const { page, close } = await openPage(problems, '#pair-diagram', { cores });
  try {
    await page.waitForFunction(() => /\b157 pairs\b/.test(document.querySelector('#corpus-summary')?.innerText ?? ''));
    const workers = await page.evaluate(() => navigator.hardwareConcurrency);
    if (run === 1) console.log(`built-in sample, 157 pairs; the page sees ${workers} cores; Train with the defaults, on a fresh page each run`);
    // The moments the first model's label and the chosen model's note appear, by the page's clock.
    await page.evaluate(() => {
      window.seen = { stages: [] };
      const observer = new MutationObserver(() => {
        const now = performance.now();
        if (!window.seen.preview && document.querySelector('#pair-preview')) {
          window.seen.preview = now;
          window.seen.previewText = document.querySelector('#results-preview')?.innerText;
        }
        if (!window.seen.final && document.querySelector('#job-note')) window.seen.final = now;
        // Each stage the progress bar names before the first model shows (with one worker, the first model's own).
        const stage = document.querySelector('#job-stage')?.innerText.replace(/^[^:]*: /, '');
        if (!window.seen.preview && stage && window.seen.stages.at(-1)?.[0] !== stage) window.seen.stages.push([stage, now]);
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const clicked = await page.evaluate(() => { document.querySelector('#train').click(); return performance.now(); });
    await page.waitForSelector('#job-note', { timeout: 600000 });
    const seen = await page.evaluate(() => window.seen);
    const note = await page.locator('#job-note').innerText();
    const s = (t) => (t === undefined ? 'never' : `${((t - clicked) / 1000).toFixed(1)} s`);
    console.log(`run ${run}: first model's links drawn after ${s(seen.preview)}; the chosen model's results after ${s(seen.final)}`);
    if (seen.previewText) console.log(`  first model: ${seen.previewText}`);
    console.log(`  stages shown before it: ${seen.stages.map(([stage, t]) => `${s(t)} ${stage}`).join(' | ')}`);
    console.log(`  chosen model: ${note}`);
  } finally {
    await close();
  }
}
if (problems.length) console.log(`problems: ${problems.join('; ')}`);
