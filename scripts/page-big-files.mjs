// How the page takes a valid but huge corpus (issue 12, item 3): SQUOIA
// train repeated to about MB megabytes of trees per side, with its gold
// links, picked in the Data panel's three pickers of the release page
// (headless Chromium). Prints how long until the page shows the corpus (or
// an error), the page's status lines, its longest main-thread tasks and
// whether the pair diagram still draws. A benchmark, not a test: it prints,
// it asserts nothing.
//
//   trunk build --release && node scripts/page-big-files.mjs [MB] [--reload] [--profile FILE]
//
// With --reload, the page is then reloaded and the time until the kept
// session shows the corpus again is printed, with the longest tasks after
// the page's first (observed from then on).
//
// With --profile, the page's thread is sampled (Chrome DevTools' profiler,
// every 1 ms) from the first pick to the last pair drawn and the profile
// written to FILE; `node scripts/profile-analyse.mjs FILE` prints what its
// longest busy stretches spent their time on. (Function names in the wasm
// need a build that keeps them: `data-keep-debug` on the `rel="rust"` links.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { longTasks, observeLongTasks, openPage } from '../tests/e2e/helpers.mjs';

const args = process.argv.slice(2);
const profileAt = args.indexOf('--profile');
const profileFile = profileAt >= 0 ? args.splice(profileAt, 2)[1] : null;
const reloadAt = args.indexOf('--reload');
const reload = reloadAt >= 0 && Boolean(args.splice(reloadAt, 1));
const mb = Number(args[0] ?? 50);
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
  const cdp = profileFile ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
    await cdp.send('Profiler.start');
    // Where the profile's clock is in the page's (the long tasks' times are the page's).
    fs.writeFileSync(`${profileFile}.start`, String(await page.evaluate(() => {
      window.longTaskTimes = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTaskTimes.push([e.startTime, e.duration]); })
        .observe({ type: 'longtask', buffered: false });
      return performance.now();
    })));
  }
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
  // The session is kept (IndexedDB) after the corpus shows: until its
  // texts are kept, its tasks count too.
  const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
  const keptBytes = () => page.evaluate(async () => {
    const db = await new Promise((ok, no) => { const r = indexedDB.open('treelink', 1); r.onsuccess = () => ok(r.result); r.onerror = no; });
    const texts = await new Promise((ok) => { const r = db.transaction('kept').objectStore('kept').get('session-texts'); r.onsuccess = () => ok(r.result); r.onerror = () => ok(null); });
    db.close();
    return Array.isArray(texts) ? texts.reduce((n, b) => n + b.size, 0) : 0;
  });
  let kept = null;
  for (let waited = 0; waited < 300; waited++) {
    if (await keptBytes() === bytes) { kept = (Date.now() - t0) / 1000; break; }
    await page.waitForTimeout(1000);
  }
  console.log(kept ? `the session's ${(bytes / 1e6).toFixed(1)} MB of files kept after ${kept.toFixed(1)} s` : 'the session\'s files were not kept within 5 minutes');
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    fs.writeFileSync(profileFile, JSON.stringify(profile));
    fs.writeFileSync(`${profileFile}.tasks`, JSON.stringify(await page.evaluate(() => window.longTaskTimes)));
    console.log(`profile written to ${profileFile}`);
  }
  const tasks = (await longTasks(page)).sort((a, b) => b - a).slice(0, 5).map((d) => Math.round(d));
  console.log(`the last pair drawn: ${drawn}; longest main-thread tasks: ${tasks.length ? tasks.join(', ') + ' ms' : 'none over 50 ms'}`);
  if (reload) {
    // The next visit: the kept session restored, its files checked again.
    await page.evaluate(() => { window.longTasks = []; });
    const t1 = Date.now();
    await page.reload();
    await observeLongTasks(page);
    const back = await page.waitForFunction(
      (n) => new RegExp(`: ${n} pairs, \\d+ nodes, [1-9]\\d* gold links`).test(document.querySelector('#corpus-summary')?.innerText ?? ''),
      pairs, { timeout: 120000, polling: 500 },
    ).then(() => true, async (e) => {
      const shown = await page.evaluate(() => [...document.querySelectorAll('#corpus-summary, [id^="status-"], [role="status"], .keep-problem')].map((el) => `${el.id || el.className}: ${el.innerText.trim()}`));
      console.log(`not restored: ${e.message.split('\n')[0]}; the page shows ${JSON.stringify(shown)}`);
      console.log(await page.evaluate(async () => {
        const db = await new Promise((ok, no) => { const r = indexedDB.open('treelink', 1); r.onsuccess = () => ok(r.result); r.onerror = no; });
        const get = (k) => new Promise((ok) => { const r = db.transaction('kept').objectStore('kept').get(k); r.onsuccess = () => ok(r.result); r.onerror = () => ok(`error ${r.error}`); });
        const texts = await get('session-texts');
        const index = await get('session-files-index');
        const out = [`index ${String(index).slice(0, 200)}`, `revision ${await get('revision')}`];
        for (const b of texts ?? []) {
          const t = performance.now();
          try { const buf = await b.arrayBuffer(); out.push(`blob ${b.size}: read ${buf.byteLength} in ${Math.round(performance.now() - t)} ms`); } catch (e) { out.push(`blob ${b.size}: ${e}`); }
        }
        return out.join('\n');
      }));
      return false;
    });
    const restored = (await longTasks(page)).sort((a, b) => b - a).slice(0, 5).map((d) => Math.round(d));
    console.log(`reloaded: ${back ? `the ${pairs} pairs shown again after ${((Date.now() - t1) / 1000).toFixed(1)} s` : 'the pairs did not come back'}; longest main-thread tasks after the first: ${restored.length ? restored.join(', ') + ' ms' : 'none over 50 ms'}`);
  }
  if (problems.length) console.log(`problems: ${problems.join('; ')}`);
} finally {
  await close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
