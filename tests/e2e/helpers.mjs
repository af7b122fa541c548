// Shared by the end-to-end tests: serving dist/ from a sub-path with a plain
// static server, launching Debian's headless Chromium, reading downloads, and
// a small reader of bracketed trees (pre-order ids and sub-tree ranges).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const shots = path.join(root, 'target/e2e');
fs.mkdirSync(shots, { recursive: true });

/** Serves a directory holding dist/ as /treelink/, on a free loopback port. */
export async function serve() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-site-'));
  fs.symlinkSync(path.join(root, 'dist'), path.join(dir, 'treelink'));
  const proc = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('static server did not start')), 10000);
    proc.stdout.on('data', (chunk) => {
      const m = /port (\d+)/.exec(chunk.toString());
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    });
    proc.on('exit', (code) => reject(new Error(`static server exited with ${code}`)));
  });
  return { proc, url: `http://127.0.0.1:${port}/treelink/` };
}

/** Headless Chromium with a fresh profile; `problems` collects errors and requests leaving `baseUrl`. */
export async function browser(baseUrl, problems) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1500, height: 1000 },
    acceptDownloads: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  // No request may leave the origin (data: and blob: URLs are made in the page).
  const local = (u) => u.startsWith(baseUrl) || u.startsWith('data:') || u.startsWith('blob:');
  context.on('request', (r) => { if (!local(r.url())) problems.push(`request to ${r.url()}`); });
  return { context, page };
}

/** Clicks `selector` and returns the text (or, `binary`, the bytes) of the file it downloads, and its name. */
export async function download(page, selector, binary = false) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const file = await dl.path();
  return { name: dl.suggestedFilename(), file, body: binary ? fs.readFileSync(file) : fs.readFileSync(file, 'utf8') };
}

/** The lines of a text file, without the empty string after a final newline. */
export const lines = (file) => fs.readFileSync(file, 'utf8').split('\n').filter((l, i, a) => i < a.length - 1 || l !== '');

/** Writes the built-in sample's pairs [from, to) as PREFIX.src, .trg and .gold; returns the three paths. */
export function samplePart(prefix, from, to) {
  return ['src', 'trg', 'gold'].map((ext) => {
    const file = `${prefix}.${ext}`;
    fs.writeFileSync(file, lines(`${sample}.${ext}`).slice(from, to).join('\n') + '\n');
    return file;
  });
}

/** Parses one bracketed tree: for each labelled node (pre-order id) its label, parent and sub-tree end. */
export function tree(text) {
  const nodes = [];
  const stack = [];
  const tokens = text.match(/\(|\)|[^\s()]+/g);
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === '(') {
      const label = tokens[i + 1];
      if (label === '(' || label === undefined) { stack.push(-1); continue; } // unlabelled wrapper
      const id = nodes.length;
      nodes.push({ label, parent: stack.filter((n) => n >= 0).at(-1) ?? null, end: null, children: 0 });
      stack.push(id);
      i += 1;
    } else if (tokens[i] === ')') {
      const id = stack.pop();
      if (id >= 0) nodes[id].end = nodes.length;
    } else if (stack.length) {
      nodes[stack.at(-1)].word = tokens[i];
    }
  }
  for (const n of nodes) if (n.parent !== null) nodes[n.parent].children += 1;
  // `below(a, d)`: d is a proper descendant of a.
  return { nodes, below: (a, d) => a < d && d < nodes[a].end, phrase: (n) => nodes[n].word === undefined };
}

/** The native CLI the pages are checked against (built by `cargo build --bin treelink`). */
export const cli = path.join(root, 'target/debug/treelink');
/** The built-in sample's prefix. */
export const sample = path.join(root, 'www/sample/dev');

/** Runs the CLI; its stdout. */
export const run = (...args) => execFileSync(cli, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/**
 * Serves dist/, opens the page in a fresh Chromium and waits for `ready`;
 * `close()` ends both. `problems` collects page errors and foreign requests.
 * With `cores`, the page sees that many (its pool of job workers is sized by them).
 */
export async function openPage(problems, ready, { cores } = {}) {
  if (!fs.existsSync(path.join(root, 'dist/index.html'))) throw new Error('run `trunk build --release` first');
  const { proc, url } = await serve();
  const { context, page } = await browser(url, problems);
  // The page sizes its pool of job workers by navigator.hardwareConcurrency.
  if (cores) await context.addInitScript((n) => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }), cores);
  await page.goto(url);
  await page.waitForSelector(ready);
  return { page, url, close: async () => { await context.close(); proc.kill(); } };
}

/**
 * Collects the duration of every long task (over 50 ms) of the page's
 * thread in `window.longTasks`, from now on; `longTasks(page)` reads them.
 */
export async function observeLongTasks(page) {
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); })
      .observe({ type: 'longtask', buffered: false });
  });
}

/** The long tasks observed since `observeLongTasks` or the last `window.longTasks = []`. */
export const longTasks = (page) => page.evaluate(() => window.longTasks);

/** Selects pair `n` (1-based) with the pair number field. */
export async function goToPair(page, n) {
  await page.fill('#pair-number', String(n));
  await page.press('#pair-number', 'Enter');
  // The page shows pair n: its navigation and, when aligning by hand, its list of hand links.
  await page.waitForFunction((n) => document.querySelector('.pair-nav')?.dataset.pair === String(n)
    && [...document.querySelectorAll('#student-links')].every((l) => l.dataset.pair === String(n)), n);
}

/** Types `value` into the input `#id` and waits until the page shows it. */
export async function fillField(page, id, value) {
  // The kernel is typed with "a kernel I type" chosen; the expert settings are under Advanced.
  if (id === 'train-kernel' && !await page.$('#train-kernel')) await page.selectOption('#train-setting', 'kernel');
  if (await page.$eval(`#${id}`, (e) => !!e.closest('#train-advanced'))) await openAdvanced(page);
  await page.fill(`#${id}`, value);
  await page.waitForFunction(([id, value]) => document.getElementById(id).value === value, [id, value]);
}

/**
 * Sample pair 3 (the tests' worked pair): its trees, its gold links as
 * [source, target] numbers, and the first gold link between phrase nodes
 * below both roots (allowed after the roots' link).
 */
export function samplePair3() {
  const src = tree(lines(`${sample}.src`)[2]);
  const trg = tree(lines(`${sample}.trg`)[2]);
  const gold = lines(`${sample}.gold`)[2].split(' ').map((l) => l.replace('?', '').split('-').map(Number));
  const below = gold.find(([s, t]) => s > 0 && t > 0 && src.phrase(s) && trg.phrase(t));
  return { src, trg, gold, below };
}

/**
 * The class table's first row, and `treelink exercise check`'s row of
 * `student` for the same files in the table's column order (name,
 * correct, wrong, missed, P, R, F).
 */
export async function classRowAndCli(page, exercise, answers, student) {
  const row = (await page.locator('#class-students tbody tr').first().innerText()).split('\t').map((c) => c.trim());
  const cli = run('exercise', 'check', exercise, answers).split('\n').find((l) => l.startsWith(`${student}\t`)).split('\t');
  return { row, cli: [student, cli[5], cli[6], cli[7], cli[2], cli[3], cli[4]] };
}

/**
 * The Train panel set to the paper's best kernel on every loaded pair, with
 * no dev pairs (`treelink train --train PAIRS --kernel K`): the quick model
 * most tests need, instead of the default choice on dev.
 */
export async function kernelOnAllPairs(page) {
  await page.selectOption('#train-setting', 'kernel');
  await openAdvanced(page);
  await page.uncheck('#train-calibrate');
}

/** Opens the Train panel's Advanced settings (closed by default). */
export async function openAdvanced(page) {
  if (!await page.$eval('#train-advanced', (d) => d.open)) await page.click('#train-advanced > summary');
  await page.waitForFunction(() => document.querySelector('#train-advanced').open);
}
