// The page's Train by default is `treelink train --dev` without --kernel
// (issue 23, item 1): the engine's best configurations chosen on the dev
// pairs (the last 20% of the loaded pairs), with the stem back-off that goes
// with them; the model file is the CLI's, byte for byte, on the same split.
// The paper's settings are one click away, and the solver and the
// negatives per positive are offered.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { download, samplePart as part, cli, openPage, fillField, openAdvanced } from './helpers.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-e2e-defaults-'));
// 40 pairs keep the CLI's (debug) run of every configuration short; the page holds out 8 as dev.
const PAIRS = 40;
const DEV = 8;

let page, close;
const problems = [];

before(async () => {
  ({ page, close } = await openPage(problems, '#pair-diagram'));
});

after(async () => {
  await close?.();
});

const text = (sel) => page.locator(sel).innerText();


test('Train by default chooses on the dev pairs as `treelink train --dev` does, the same model byte for byte; the paper\'s settings are one choice away', async () => {
  part(path.join(tmp, 'forty'), 0, PAIRS);
  for (const ext of ['src', 'trg', 'gold']) await page.setInputFiles(`#file-${ext}`, path.join(tmp, `forty.${ext}`));
  await page.waitForFunction((n) => new RegExp(`\\b${n} pairs, \\d+ nodes, [1-9]\\d* gold links`).test(document.querySelector('#corpus-summary')?.innerText ?? ''),
    PAIRS, { timeout: 60000 });
  // What a user sees before choosing anything.
  assert.equal(await page.inputValue('#train-setting'), 'best');
  assert.ok(await page.isChecked('#train-calibrate'), 'the dev pairs held out by default');
  assert.ok(await page.isChecked('#train-stem-backoff') && await page.isDisabled('#train-stem-backoff'), 'the best setting\'s stem back-off');
  assert.match(await text('#train-setting-help'), /^Tries the paper's kernels and a fast linear one, and keeps the best on the dev pairs\. More in the guide below\.$/);
  assert.ok(!await page.$eval('#train-advanced', (d) => d.open), 'the expert settings are folded away');
  assert.match(await page.locator('#train-guide').textContent(), /As `treelink train --dev` without --kernel: the paper's kernels .* by SMO, and .* by the linear solver/);
  assert.match(await text('#spec-note'), /^5 configurations, the best on the dev pairs kept\.$/);
  assert.equal(await page.inputValue('#train-solver'), 'smo');
  assert.equal(await page.inputValue('#train-max-negative-ratio'), '6');
  assert.equal(await page.inputValue('#train-word-model'), 'dev');
  assert.match(await text('#train-panel'), /IBM1 \+ IBM2 both ways, grow-diag-final-and; the kept configuration also with the HMM after them, the better on the dev pairs kept\)/);

  // While it trains, how far choosing on dev is, in words, with the time left.
  await page.evaluate(() => {
    window.plans = [];
    new MutationObserver(() => {
      const plan = document.querySelector('#job-plan')?.innerText;
      if (plan && window.plans.at(-1) !== plan) window.plans.push(plan);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.click('#train');
  // The note says how the job ended (an error's text, if it failed).
  await page.waitForSelector('#job-note', { timeout: 300000 });
  assert.match(await text('#job-note'), new RegExp(`^Trained and aligned ${PAIRS} pairs`));
  const plans = await page.evaluate(() => window.plans);
  // Five configurations, the HMM lexicon, five folds of the threshold: eleven trainings.
  assert.ok(plans.some((p) => new RegExp(`^Choosing the best settings on ${DEV} dev pairs: [1-9]\\d* of 11 tried, about \\d+ s left\\.$`).test(p)), plans.join(' | '));
  assert.match(await text('#model-summary'), new RegExp(`on the dev pairs ${PAIRS - DEV + 1}–${PAIRS}: P = `));
  const model = await download(page, '#download-model');
  part(path.join(tmp, 'train'), 0, PAIRS - DEV);
  part(path.join(tmp, 'dev'), PAIRS - DEV, PAIRS);
  const cliModel = path.join(tmp, 'cli.json');
  const trained = spawnSync(cli, ['train', '--train', path.join(tmp, 'train'), '--dev', path.join(tmp, 'dev'), '-o', cliModel], { encoding: 'utf8' });
  assert.equal(trained.status, 0, trained.stderr);
  assert.equal(model.body, fs.readFileSync(cliModel, 'utf8'), 'page and `treelink train --dev` train the same model');
  // Each configuration tried, with its dev F, as the CLI prints them: the
  // five, then the kept one again with the HMM lexicon (the word model chosen on dev).
  const cliTried = [...trained.stderr.matchAll(/^treelink: (\S+(?: \(hmm lexicon\))?): dev P = [\d.]+ +R = [\d.]+ +F = ([\d.]+)/gm)].map((m) => `${m[1]} ${m[2]}`);
  assert.equal(cliTried.length, 6, trained.stderr);
  assert.match(cliTried[5], /^\S+ \(hmm lexicon\) [\d.]+$/);
  const pageTried = (await text('#model-summary')).match(/Configurations tried, dev F: (.*)\.$/)?.[1].split(', ');
  assert.deepEqual(pageTried, cliTried);

  // One choice: the paper's settings (`--preset paper`), without the stem back-off.
  await page.selectOption('#train-setting', 'paper');
  assert.equal(await page.inputValue('#train-setting'), 'paper');
  assert.match(await text('#train-setting-help'), /^The paper's kernels and settings; the kernel is chosen on the dev pairs\./);
  assert.equal(await page.inputValue('#train-word-model'), 'fast-align', 'the word model shown is the one that will run');
  assert.ok(!await page.isChecked('#train-stem-backoff') && !await page.isDisabled('#train-stem-backoff'));
  assert.match(await text('#spec-note'), /^4 configurations/);
  assert.match(await text('#train-panel'), /\(IBM1 \+ IBM2 both ways, grow-diag-final-and\)/, 'the paper\'s settings keep fast-align');
  // A kernel typed is trained alone; the linear solver trains on every example; negatives: inf.
  await page.selectOption('#train-setting', 'kernel');
  await fillField(page, 'train-kernel', 'plain+ctx+dbtk-root');
  assert.equal(await page.inputValue('#train-setting'), 'kernel');
  await openAdvanced(page);
  await page.selectOption('#train-solver', 'linear');
  assert.equal(await page.inputValue('#train-max-examples'), 'all');
  await fillField(page, 'train-max-negative-ratio', '-1');
  assert.match(await text('#train-max-negative-ratio-help'), /^expected inf or a number of negatives per positive greater than 0, found '-1'$/);
  assert.ok(await page.isDisabled('#train'));
  await fillField(page, 'train-max-negative-ratio', 'inf');
  assert.ok(!await page.isDisabled('#train'));
  assert.match(await text('#spec-note'), /^Components: plain, ctx, dbtk-root;/);
});

test('nothing went wrong in the page', () => {
  assert.deepEqual(problems, []);
});
