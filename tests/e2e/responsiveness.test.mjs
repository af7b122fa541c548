// The page's thread stays free while a real training set loads (issue 13,
// item 2; issue 12's "every main-thread task under 200 ms"): the SQUOIA
// train split (2,728 pairs) is picked file by file as a user would, and
// every main-thread task over 50 ms (the browser's "long task") is counted
// and printed, from the first file to the corpus drawn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root, lines, longTasks, observeLongTasks, openPage } from './helpers.mjs';

const prefix = path.resolve(root, '../shared/data/squoia-de-es/bracketed/train');

let page, close;
const problems = [];

before(async () => {
  ({ page, close } = await openPage(problems, '#pair-diagram'));
  await observeLongTasks(page);
});

after(async () => {
  await close?.();
});

test('loading SQUOIA train (2,728 pairs) leaves the page responsive: long main-thread tasks printed', async () => {
  const pairs = lines(`${prefix}.src`).length;
  await page.evaluate(() => { window.longTasks = []; });
  const t0 = Date.now();
  for (const ext of ['src', 'trg', 'gold']) {
    await page.setInputFiles(`#file-${ext}`, `${prefix}.${ext}`);
    await page.waitForFunction((ext) => /^✓ train\./.test(document.querySelector(`#status-${ext}`).innerText), ext, { timeout: 60000 });
  }
  await page.waitForFunction((n) => new RegExp(`: ${n} pairs, `).test(document.querySelector('#corpus-summary').innerText), pairs, { timeout: 60000 });
  assert.match(await page.locator('#corpus-summary').innerText(), new RegExp(`^Uploaded train\\.src / train\\.trg: ${pairs} pairs, \\d+ nodes, [1-9]\\d* gold links$`));
  for (const p of [2, 1500, pairs]) {
    await page.fill('#pair-number', String(p));
    await page.press('#pair-number', 'Enter');
    await page.waitForFunction((p) => document.querySelector('#pair-number').value === String(p), p);
    await page.waitForSelector('#src-node-0');
  }
  // Long tasks are reported after they end: let the last one arrive.
  await page.waitForTimeout(300);
  const seconds = (Date.now() - t0) / 1000;
  const tasks = await longTasks(page);
  const longest = Math.max(0, ...tasks);
  const total = tasks.reduce((a, b) => a + b, 0);
  console.log(`SQUOIA train (${pairs} pairs): loaded and drawn in ${seconds.toFixed(1)} s; main-thread tasks over 50 ms: ${tasks.length}, longest ${longest.toFixed(0)} ms, together ${total.toFixed(0)} ms [${tasks.map((t) => t.toFixed(0)).join(', ')}]`);
  assert.deepEqual(problems, []);
});
