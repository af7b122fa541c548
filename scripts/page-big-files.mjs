// How the page takes a valid but huge corpus (issue 12, item 3): SQUOIA
// train repeated to about MB megabytes of trees per side, with its gold
// links, picked in the Data panel's three pickers of the release page
// (headless Chromium). Prints how long until the page shows the corpus (or
// an error), the page's status lines, its longest main-thread tasks and
// whether the pair diagram still draws. A benchmark, not a test: it prints,
// it asserts nothing.
//
//   trunk build --release && node scripts/page-big-files.mjs [MB]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { longTasks, observeLongTasks, openPage } from '../tests/e2e/helpers.mjs';

const mb = Number(process.argv[2] ?? 50);
const prefix = path.resolve('../shared/data/squoia-de-es/bracketed/train');
const [src, trg, gold] = ['src', 'trg', 'gold'].map((e) => fs.readFileSync(`${prefix}.${e}`, 'utf8'));
const times = Math.max(1, Math.round((mb * 1e6) / Buffer.byteLength(src)));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-big-'));
const files = [src, trg, gold].map((text, i) => {
  const file = path.join(tmp, `big.${['src', 'trg', 'gold'][i]}`);
  fs.writeFileSync(file, text.repeat(times));
  return file;
});
const size = (f) => (fs.statSync(f).size / 1e6).toFixed(1);
console.log(`SQUOIA train ×${times}: ${size(files[0])} MB source, ${size(files[1])} MB target, ${size(files[2])} MB gold`);

const problems = [];
const { page, close } = await openPage(problems, '#pair-diagram');
try {
  await observeLongTasks(page);
  const t0 = Date.now();
  await page.setInputFiles('#file-src', files[0]);
  await page.setInputFiles('#file-trg', files[1]);
  await page.setInputFiles('#file-gold', files[2]);
  const pairs = (src.match(/\n/g) ?? []).length * times;
  // Done when the corpus is shown, or when an input is refused and nothing
  // has been checked for 5 s (gold links checked before their target trees
  // arrive are refused for the pairs shown, then checked again with them).
  await page.waitForFunction(
    (n) => {
      const gold = document.querySelector('#status-gold');
      const settled = gold && (gold.classList.contains('ok') || gold.classList.contains('error'));
      if (settled && new RegExp(`: ${n} pairs, \\d+ nodes, [1-9]\\d* gold links`).test(document.querySelector('#corpus-summary')?.innerText ?? '')) return true;
      const checking = [...document.querySelectorAll('[id^="status-"]')].some((e) => /checking|reading/.test(e.innerText));
      if (checking || document.querySelectorAll('[id^="status-"].error').length === 0) {
        window.quietSince = undefined;
        return false;
      }
      window.quietSince ??= Date.now();
      return Date.now() - window.quietSince > 5000;
    },
    pairs,
    { timeout: 900000, polling: 500 },
  );
  const seconds = (Date.now() - t0) / 1000;
  const summary = await page.locator('#corpus-summary').innerText();
  const statuses = await page.$$eval('[id^="status-"]', (els) => els.map((e) => `${e.id}: ${e.innerText.trim()}`).filter((l) => !l.endsWith('—')));
  console.log(`after ${seconds.toFixed(1)} s: ${summary.replace(/\s+/g, ' ').trim()}`);
  for (const s of statuses) console.log(`  ${s}`);
  await page.fill('#pair-number', String(pairs));
  await page.press('#pair-number', 'Enter');
  const drawn = await page.waitForSelector('#src-node-0', { timeout: 60000 }).then(() => true, () => false);
  const tasks = (await longTasks(page)).sort((a, b) => b - a).slice(0, 5).map((d) => Math.round(d));
  console.log(`the last pair drawn: ${drawn}; longest main-thread tasks: ${tasks.length ? tasks.join(', ') + ' ms' : 'none over 50 ms'}`);
  if (problems.length) console.log(`problems: ${problems.join('; ')}`);
} finally {
  await close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
