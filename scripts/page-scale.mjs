// The page at classroom scale (issue 11, item 6): loads SQUOIA train
// (2,728 pairs) through the file pickers, trains with the page's default
// settings, and prints the load time, the training time, the peak memory of
// the browser and every main-thread task over 50 ms. A benchmark, not a test:
// it asserts nothing about time, it measures.
//
//   trunk build --release && node scripts/page-scale.mjs [DATA_DIR] [--cores N]
//
// With --cores N the page sees N cores (navigator.hardwareConcurrency), so
// its pool has N job workers (default: what the machine says).
//
// Memory is the proportional set size (PSS, /proc/PID/smaps_rollup: shared
// pages split between the processes sharing them) of Chromium's processes
// started by this script, sampled every 200 ms: the renderer (the page and
// its two workers run in it) and all of them together.
import fs from 'node:fs';
import path from 'node:path';
import { root, lines, longTasks, observeLongTasks, openPage } from '../tests/e2e/helpers.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--cores');
const cores = at >= 0 ? Number(args.splice(at, 2)[1]) : undefined;
const data = path.resolve(args[0] ?? path.join(root, '../shared/data'));
const prefix = path.join(data, 'squoia-de-es/bracketed/train');

/** The processes below this one, with their command lines. */
function descendants() {
  const parent = new Map();
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  const below = (pid) => { for (let p = parent.get(pid); p; p = parent.get(p)) if (p === process.pid) return true; return false; };
  return [...parent.keys()].filter(below).map((pid) => {
    let cmd = '';
    try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { /* gone */ }
    return { pid, cmd };
  });
}

/** PSS in MB of a process (0 if it is gone). */
function pss(pid) {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch { return 0; }
}

const peak = { renderer: 0, all: 0 };
function sample() {
  let all = 0;
  for (const { pid, cmd } of descendants().filter((p) => p.cmd.includes('chrom'))) {
    const mb = pss(pid);
    all += mb;
    if (cmd.includes('--type=renderer')) peak.renderer = Math.max(peak.renderer, mb);
  }
  peak.all = Math.max(peak.all, all);
}

const problems = [];
const { page, close } = await openPage(problems, '#pair-diagram', { cores });
const sampler = setInterval(sample, 200);
try {
  await observeLongTasks(page);
  const pairs = lines(`${prefix}.src`).length;
  const gold = lines(`${prefix}.gold`).reduce((n, l) => n + l.split(' ').filter(Boolean).length, 0);
  const t0 = Date.now();
  await page.setInputFiles('#file-src', `${prefix}.src`);
  await page.setInputFiles('#file-trg', `${prefix}.trg`);
  await page.setInputFiles('#file-gold', `${prefix}.gold`);
  const loaded = `: ${pairs} pairs, \\d+ nodes, ${gold} gold links`;
  await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#corpus-summary').innerText), loaded, { timeout: 300000 });
  const loadSeconds = (Date.now() - t0) / 1000;
  await page.waitForTimeout(300);
  const loadTasks = await longTasks(page);
  const loadPeak = { ...peak };
  await page.evaluate(() => { window.longTasks = []; window.stages = new Set(); });
  // Every stage the progress bar shows.
  await page.evaluate(() => new MutationObserver(() => {
    const stage = document.querySelector('#job-stage')?.innerText;
    if (stage) window.stages.add(stage.replace(/\d[\d,.]*/g, 'N'));
  }).observe(document.body, { subtree: true, childList: true, characterData: true }));
  const settings = await page.evaluate(() => [...document.querySelectorAll('#train-panel input')]
    .filter((i) => i.id && i.type !== 'file' && i.type !== 'checkbox').map((i) => `${i.id.replace(/^train-/, '')}=${i.value}`));
  const t1 = Date.now();
  await page.click('#train');
  await page.waitForSelector('#job-note.ok, #job-note.error', { timeout: 3 * 3600 * 1000 });
  const trainSeconds = (Date.now() - t1) / 1000;
  const note = await page.locator('#job-note').innerText();
  await page.waitForTimeout(300);
  const trainTasks = await longTasks(page);
  const stages = await page.evaluate(() => [...window.stages]);
  const fmt = (tasks) => `${tasks.length} over 50 ms, longest ${Math.max(0, ...tasks).toFixed(0)} ms`;
  const workers = await page.evaluate(() => navigator.hardwareConcurrency);
  console.log(`SQUOIA train, ${pairs} pairs, ${gold} gold links; the page sees ${workers} cores`);
  console.log(`load (three pickers to pairs drawn): ${loadSeconds.toFixed(1)} s; main-thread tasks: ${fmt(loadTasks)}; peak PSS renderer ${loadPeak.renderer.toFixed(0)} MB, all Chromium ${loadPeak.all.toFixed(0)} MB`);
  console.log(`train with the page's defaults (${settings.join(', ')}): ${trainSeconds.toFixed(1)} s; main-thread tasks: ${fmt(trainTasks)}`);
  console.log(`  result: ${note}`);
  console.log(`  progress stages shown: ${stages.join(' | ')}`);
  console.log(`peak PSS over the whole run: renderer ${peak.renderer.toFixed(0)} MB, all Chromium ${peak.all.toFixed(0)} MB`);
  if (problems.length) console.log(`problems: ${problems.join('; ')}`);
} finally {
  clearInterval(sampler);
  await close();
}
