// Dev and test pairs from their own files (issue 23, item 1): a researcher
// loads A as the pairs, B as the dev set and C as the test set in the Data
// panel; Train by default is then `treelink train --train A --dev B
// --held-out` and the test's links are `treelink align --input C
// --held-out`'s, byte for byte, its scores `treelink eval`'s. The sets
// survive a reload and can be removed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { download, samplePart, cli, openPage, shots } from './helpers.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-e2e-sets-'));
// Small enough that the CLI's (debug) run of every configuration stays short.
const [A, B, C] = [[0, 32], [32, 40], [40, 50]];

let page, close;
const problems = [];

before(async () => {
  ({ page, close } = await openPage(problems, '#pair-diagram'));
});

after(async () => {
  await close?.();
});

const text = (sel) => page.locator(sel).innerText();
const summaryMatches = (re) => page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#corpus-summary')?.innerText ?? ''),
  re.source, { timeout: 120000 });

/** The sample's pairs [from, to) as TMP/PREFIX.src/.trg/.gold; the three paths. */
const part = (prefix, [from, to]) => samplePart(path.join(tmp, prefix), from, to);

function run(...args) {
  const r = spawnSync(cli, args, { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('pairs, a dev set and a test set from their own files: Train is `train --train A --dev B --held-out`, the test\'s links `align --input C --held-out`\'s', async () => {
  const [a, b, c] = [part('a', A), part('b', B), part('c', C)];
  for (const [k, ext] of ['src', 'trg', 'gold'].entries()) await page.setInputFiles(`#file-${ext}`, a[k]);
  await summaryMatches(/^Uploaded a\.src \/ a\.trg: 32 pairs/);
  // A set waits for its three files and says which are missing.
  await page.setInputFiles('#file-dev-set', b[0]);
  await page.waitForFunction(() => /b\.src: waiting for the set's \.trg and \.gold file/.test(document.querySelector('#status-dev-set')?.innerText ?? ''));
  await page.setInputFiles('#file-dev-set', [b[1], b[2]]);
  await summaryMatches(/: 40 pairs, .*; pairs 33–40 the dev set \(b\.src, b\.trg, b\.gold\)$/);
  assert.match(await text('#status-dev-set'), /^✓ b\.src, b\.trg, b\.gold: 8 pairs, \d+ gold links, the dev pairs$/);
  // With a dev set and no test set, a test share would be the dev set's: off.
  assert.ok(await page.isChecked('#train-calibrate') && await page.isDisabled('#train-calibrate'));
  assert.ok(!await page.isChecked('#train-test') && await page.isDisabled('#train-test'));
  await page.setInputFiles('#file-test-set', c);
  await summaryMatches(/: 50 pairs, .*; pairs 33–40 the dev set \(b\.src, b\.trg, b\.gold\), pairs 41–50 the test set \(c\.src, c\.trg, c\.gold\)$/);
  assert.ok(await page.isChecked('#train-test') && await page.isDisabled('#train-test'));
  assert.match(await page.locator('#train-calibrate-help').textContent(), /^Pairs 33–40, the dev set given in the Data panel, are the dev pairs\./);
  assert.match(await text('#train-test-help'), /^Pairs 41–50, the test set given in the Data panel, are scored\./);
  assert.equal(await text('#train'), 'Train on pairs 1–40 and align the 10 held out');
  await page.locator('#held-sets').screenshot({ path: path.join(shots, 'held-sets.png') });

  await page.click('#train');
  await page.waitForSelector('#job-note', { timeout: 300000 });
  assert.match(await text('#job-note'), /^Trained on pairs 1–40 and aligned the 10 held-out pairs 41–50 in /);
  assert.match(await text('#held-out-note'), /^Held out: pairs 41–50, the test set given as files \(c\.src, c\.trg, c\.gold\); the model was trained on pairs 1–32, pairs 33–40 as dev, pairs 41–50 held out as the test/);
  assert.match(await text('#model-summary'), /on the dev pairs 33–40: P = /);

  // The model: the CLI's on the same files.
  const model = await download(page, '#download-model');
  const cliModel = path.join(tmp, 'cli.json');
  run('train', '--train', path.join(tmp, 'a'), '--dev', path.join(tmp, 'b'), '--held-out', '-o', cliModel);
  assert.equal(model.body, fs.readFileSync(cliModel, 'utf8'), 'page and `treelink train --train A --dev B --held-out` train the same model');
  // The test's links: `treelink align` on C, as the page exports them.
  const aligned = run('align', '--model', cliModel, '--input', path.join(tmp, 'c'), '--held-out');
  const links = await download(page, '#export-gold');
  assert.equal(links.body, aligned, 'the predicted links are `treelink align --input C --held-out`\'s');
  assert.equal(aligned.split('\n').length - 1, 10);
  fs.writeFileSync(path.join(tmp, 'c.pred'), aligned);
  const scores = Object.fromEntries(run('eval', '--input', path.join(tmp, 'c'), '--pred', path.join(tmp, 'c.pred')).split('\n')
    .filter((l) => /^[PRF] = /.test(l)).map((l) => l.split(' = ')));
  for (const k of ['P', 'R', 'F']) assert.equal(await text(`#results-model-${k.toLowerCase()}`), scores[k], `test ${k}`);

  // A reload brings the sets back where they were.
  await page.waitForTimeout(1500); // the session is kept a second after the last change
  await page.reload();
  await summaryMatches(/^Uploaded a\.src \/ a\.trg: 50 pairs, .*; pairs 33–40 the dev set \(b\.src, b\.trg, b\.gold\), pairs 41–50 the test set \(c\.src, c\.trg, c\.gold\)$/);
  assert.equal(await text('#train'), 'Train on pairs 1–40 and align the 10 held out');
  // Removed, the dev set's pairs go; the test set follows the pairs loaded.
  await page.click('#remove-dev-set');
  await summaryMatches(/: 42 pairs, .*; pairs 33–42 the test set \(c\.src, c\.trg, c\.gold\)$/);
  assert.equal(await page.locator('#remove-dev-set').count(), 0);
  assert.match(await text('#status-dev-set'), /^—$/);
  assert.match(await page.locator('#train-calibrate-help').textContent(), /^Pairs 27–32 \(the last 20% of the training pairs\) are the dev pairs\./);
});

test('nothing went wrong in the page', () => {
  assert.deepEqual(problems, []);
});
