// The page's job workers as a pool (issue 25, item 3): the page starts as
// many job workers as navigator.hardwareConcurrency says, and shares a
// Train job (training, the lexicons, the searches and the baseline), an
// alignment with an uploaded model and Translate all across them. Whatever
// their number, the results are those of one worker, byte for byte: the
// model file, the links, the results table and the translations, here
// with 1, 2 and 3 workers. One progress bar shows the job, and one Cancel
// stops every worker. (How fast: scripts/page-scale.mjs and docs/speed.md.)
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { download, sample, run, openPage, fillField, goToPair } from './helpers.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-e2e-pool-'));
const problems = [];
const opened = [];

after(async () => {
  for (const close of opened) await close();
});

/** A fresh page seeing `cores` cores, with the built-in sample loaded. */
async function pageWith(cores) {
  const { page, close } = await openPage(problems, '#pair-diagram', { cores });
  opened.push(close);
  await page.waitForFunction(() => /157 pairs/.test(document.querySelector('#corpus-summary')?.innerText ?? ''));
  assert.equal(await page.evaluate(() => navigator.hardwareConcurrency), cores);
  return page;
}

/** Trains with the page's defaults but 800 examples (`test`: with a held-out test), and what it gives. */
async function trained(page, { test: heldOut = false } = {}) {
  await fillField(page, 'train-max-examples', '800');
  if (heldOut) await page.check('#train-test');
  await page.click('#train');
  await page.waitForSelector('#job-note.ok', { timeout: 300000 });
  const note = (await page.locator('#job-note').innerText()).replace(/ in [\d.]+ s/, '');
  const model = (await download(page, '#download-model')).body;
  const links = (await download(page, '#export-gold')).body;
  const csv = (await download(page, '#export-csv')).body;
  // An explanation comes from the worker that aligned the pair.
  await goToPair(page, heldOut ? 150 : 40);
  await page.click('#src-node-0');
  await page.click('#trg-node-0');
  await page.waitForSelector('#explain-verdict');
  await page.waitForSelector('#explain-search');
  const explanation = [await page.locator('#explain-verdict').innerText(), await page.locator('#explain-search').innerText(),
    await page.locator('#explain-value').getAttribute('data-value').catch(() => '')].join(' | ');
  return { note, model, links, csv, explanation };
}

test('Train gives the same model, links, results and explanations on 1, 2 and 3 job workers', async () => {
  const one = await trained(await pageWith(1));
  assert.match(one.note, /^Trained and aligned 157 pairs/);
  assert.equal(one.links.split('\n').length, 158);
  for (const cores of [2, 3]) {
    const pooled = await trained(await pageWith(cores));
    for (const k of Object.keys(one)) assert.equal(pooled[k], one[k], `${k} with ${cores} workers`);
  }
  // And the links are `treelink align`'s with that model (one worker's, as the CLI's).
  fs.writeFileSync(path.join(tmp, 'model.json'), one.model);
  assert.equal(one.links, run('align', '--model', path.join(tmp, 'model.json'), '--input', sample));
  assert.deepEqual(problems, []);
});

test('a held-out test is aligned alike on one and on two job workers', async () => {
  const one = await trained(await pageWith(1), { test: true });
  const two = await trained(await pageWith(2), { test: true });
  for (const k of Object.keys(one)) assert.equal(two[k], one[k], k);
  assert.deepEqual(problems, []);
});

test('one progress bar and one Cancel for the pool; after a cancel it trains to the same end', async () => {
  const page = await pageWith(2);
  await page.evaluate(() => {
    window.bars = new Set();
    new MutationObserver(() => window.bars.add(document.querySelectorAll('#job-progress').length))
      .observe(document.body, { subtree: true, childList: true });
  });
  await fillField(page, 'train-max-examples', '800');
  await page.click('#train');
  await page.waitForFunction(() => /aligning|baseline|SMO|features/.test(document.querySelector('#job-stage')?.innerText ?? ''), null, { timeout: 120000 });
  await page.click('#cancel-job');
  await page.waitForSelector('#job-note.error');
  assert.match(await page.locator('#job-note').innerText(), /^Cancelled after/);
  assert.deepEqual([...await page.evaluate(() => [...window.bars])].filter((n) => n > 1), [], 'never two bars');
  await page.click('#train');
  await page.waitForSelector('#job-note.ok', { timeout: 300000 });
  const model = (await download(page, '#download-model')).body;
  assert.equal(model, fs.readFileSync(path.join(tmp, 'model.json'), 'utf8'), 'the model of one worker');
  assert.deepEqual(problems, []);
});

test('Translate all on two job workers gives `treelink translate`\'s translations', async () => {
  const model = path.join(tmp, 'phrase.json');
  run('mt-train', '--train', sample, '--system', 'phrase', '-o', model);
  const page = await pageWith(2);
  await page.setInputFiles('#file-mt-model', model);
  await page.waitForFunction(() => /uploaded phrase\.json/.test(document.querySelector('#mt-summary')?.innerText ?? ''), null, { timeout: 60000 });
  await page.click('#translate-all');
  await page.waitForSelector('#mt-corpus-bleu', { timeout: 300000 });
  await page.click('#mt-corpus summary');
  const rows = await page.$$eval('#mt-corpus-table tbody tr', (trs) => trs.map((tr) => tr.querySelectorAll('td')[2].innerText));
  const hyps = run('translate', '--model', model, '--input', `${sample}.src`);
  assert.deepEqual(rows, hyps.replace(/\n$/, '').split('\n'));
  assert.deepEqual(problems, []);
});
