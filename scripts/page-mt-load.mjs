// How long the page takes to load a translation model (issue 11, item 5):
// picks MODEL in the Translate panel's model input and times until the
// page says it is loaded (the model's summary next to the input), RUNS
// times, each in a fresh page. A benchmark, not a test: it prints, it
// asserts nothing about time.
//
//   trunk build --release && node scripts/page-mt-load.mjs MODEL [RUNS]
//
// The model is read in the job worker; the page's own thread only sends
// the file and shows the summary (its tasks over 50 ms are printed too).
import path from 'node:path';
import { longTasks, observeLongTasks, openPage } from '../tests/e2e/helpers.mjs';

const model = path.resolve(process.argv[2] ?? 'ms.tlmt');
const runs = Number(process.argv[3] ?? 3);

for (let run = 1; run <= runs; run++) {
  const problems = [];
  const { page, close } = await openPage(problems, '#pair-diagram');
  try {
    await observeLongTasks(page);
    const t0 = Date.now();
    await page.setInputFiles('#file-mt-model', model);
    await page.waitForFunction(() => /system, .*phrase pairs/.test(document.querySelector('#status-mt-model.ok')?.innerText ?? ''), null, { timeout: 300000 });
    const seconds = (Date.now() - t0) / 1000;
    const status = await page.evaluate(() => document.querySelector('#status-mt-model').innerText);
    const tasks = (await longTasks(page)).map((d) => Math.round(d));
    console.log(`run ${run}: ${seconds.toFixed(2)} s to load ${path.basename(model)}; main-thread tasks over 50 ms: ${tasks.length ? tasks.join(', ') + ' ms' : 'none'}`);
    if (run === 1) console.log(`  the page: ${status.replace(/\s+/g, ' ').trim()}`);
    if (problems.length) console.log(`  problems: ${problems.join('; ')}`);
  } finally {
    await close();
  }
}
