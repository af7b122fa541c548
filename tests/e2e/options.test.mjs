// End-to-end tests of the training options beyond the paper (issue 9):
// Lingua-Align's context features (`ctx` in the kernel spec), the HMM word
// model of the in-engine lexicon, and the threshold on D calibrated on
// held-out pairs. The page's model file and links must be the CLI's, byte
// for byte, on the same pairs with the same options: the page holds out the
// last 20% of the loaded pairs, so the CLI gets them as its --dev file.
// Then a held-out test (issue 14): the last 20% aligned and scored alone,
// without the training-data warning that scores of training pairs carry.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { shots, download, lines, sample, run, openPage, goToPair, fillField } from './helpers.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-e2e-opts-'));
const KERNEL = 'plain+ctx+dbtk-root+ibtk-rgsst';
const MAX_EXAMPLES = '800';

let page, close;
const problems = [];

before(async () => {
  ({ page, close } = await openPage(problems, '#pair-diagram'));
});

after(async () => {
  await close?.();
});

const text = (sel) => page.locator(sel).innerText();

const setField = (id, value) => fillField(page, id, value);

/** Writes the first `n` lines of the sample's files to PREFIX.src/.trg/.gold, or (`rest`) the others. */
function split(prefix, n, rest) {
  for (const ext of ['src', 'trg', 'gold']) {
    const all = lines(`${sample}.${ext}`);
    const part = rest ? all.slice(n) : all.slice(0, n);
    fs.writeFileSync(`${prefix}.${ext}`, part.join('\n') + '\n');
  }
}

test('ctx + HMM + a threshold calibrated on the held-out pairs: the page trains the CLI\'s model and draws its links', async () => {
  const pairs = lines(`${sample}.src`).length;
  const dev = Math.floor(pairs * 0.2);
  // A kernel I type: the kernel list offers the context kernel, with what it is.
  await page.selectOption('#train-setting', 'kernel');
  const presets = await page.$$eval('#kernel-presets option', (os) => os.map((o) => [o.value, o.label]));
  assert.ok(presets.some(([v, l]) => v === KERNEL && /Lingua-Align/.test(l)), JSON.stringify(presets));
  await setField('train-kernel', KERNEL);
  assert.match(await text('#spec-note'), /Components: plain, ctx, dbtk-root, ibtk-rgsst; θ = 0\.250, 0\.250, 0\.250, 0\.250\./);
  await setField('train-max-examples', MAX_EXAMPLES);
  await page.selectOption('#train-word-model', 'hmm');
  assert.match(await text('#train-panel'), /IBM1 \+ IBM2 \+ HMM both ways/);
  assert.match(await page.locator('#train-guide').textContent(), /Vogel et al\. 1996/);
  await page.check('#train-calibrate');
  assert.match(await text('#train-calibrate-help'), new RegExp(`^Pairs ${pairs - dev + 1}–${pairs} \\(the last 20% of the training pairs\\) are the dev pairs\\.`));
  // Every stage the page shows while the worker trains (the same progress as without the options).
  await page.evaluate(() => {
    window.seen = [];
    new MutationObserver(() => {
      const stage = document.querySelector('#job-stage');
      if (stage) window.seen.push(stage.innerText.replace(/^.*: /, ''));
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.click('#train');
  await page.waitForSelector('#cancel-job');
  await page.waitForSelector('#job-note.ok', { timeout: 300000 });
  assert.match(await text('#job-note'), new RegExp(`^Trained and aligned ${pairs} pairs`));
  const stages = new Set(await page.evaluate(() => window.seen));
  for (const s of ['lexical model', 'features', 'SVM (SMO)', 'tuning pruning on dev', 'aligning']) {
    assert.ok(stages.has(s), `stage ${s} shown (saw ${[...stages].join(', ')})`);
  }
  // What was chosen on the dev pairs, as `train --dev` prints it.
  assert.match(await text('#model-summary'), /kernel plain\+ctx\+dbtk-root\+ibtk-rgsst, .*on the dev pairs 127–157: P = [\d.]+ +R = [\d.]+ +F = [\d.]+.*, with the pruning quantile [\d.]+ and the threshold on D -?\d+\.\d{3} chosen on them\.$/);

  // The CLI on the same split with the same options: the same model file.
  const model = await download(page, '#download-model');
  split(path.join(tmp, 'train'), pairs - dev, false);
  split(path.join(tmp, 'dev'), pairs - dev, true);
  const cliModel = path.join(tmp, 'cli.json');
  run('train', '--train', path.join(tmp, 'train'), '--dev', path.join(tmp, 'dev'), '--kernel', KERNEL,
    '--word-model', 'hmm', '--max-examples', MAX_EXAMPLES, '-o', cliModel);
  assert.equal(model.body, fs.readFileSync(cliModel, 'utf8'), 'page and CLI train the same model');
  // The model keeps the HMM for `align` (which re-trains its lexicon), and a threshold chosen on dev.
  assert.match(model.body, /"hmm_iterations":\s*5\b/);

  // Its links on every pair are `treelink align`'s; the scores `treelink eval`'s.
  const aligned = run('align', '--model', cliModel, '--input', sample);
  fs.writeFileSync(path.join(tmp, 'cli.pred'), aligned);
  const predicted = aligned.split('\n').slice(0, -1);
  assert.equal(predicted.length, pairs);
  for (const n of [1, 4, 20, pairs - dev + 1, pairs]) {
    await goToPair(page, n);
    const drawn = await page.locator('#pair-diagram path.link').evaluateAll((ps) => ps.map((p) => [p.dataset.link, p.dataset.status]));
    const predictedDrawn = drawn.filter(([, s]) => s === 'correct' || s === 'wrong').map(([l]) => l).sort();
    assert.deepEqual(predictedDrawn, predicted[n - 1].split(' ').filter(Boolean).sort(), `pair ${n}: the predicted links`);
  }
  const scores = Object.fromEntries(run('eval', '--input', sample, '--pred', path.join(tmp, 'cli.pred')).split('\n')
    .filter((l) => /^[PRF] = /.test(l)).map((l) => l.split(' = ')));
  for (const k of ['P', 'R', 'F']) assert.equal(await text(`#results-model-${k.toLowerCase()}`), scores[k], `model ${k}`);

  // The errors by kind are `treelink eval --errors`'s; an example opens its pair with the link selected.
  const errors = run('eval', '--input', sample, '--pred', path.join(tmp, 'cli.pred'), '--errors');
  const cliKinds = [];
  let miss = null;
  for (const line of errors.split('\n')) {
    const head = line.match(/^\d+ (wrong|missed) links, by kind:$/);
    if (head) { miss = head[1]; continue; }
    const row = line.match(/^ +(\d+) +[\d.]+% +(.+)$/);
    if (miss && row) cliKinds.push(`${miss} — ${row[2]}: ${row[1]}`);
    if (/^By label pair/.test(line)) break;
  }
  assert.equal(cliKinds.length, 6, errors);
  await page.evaluate(() => { document.querySelector('#errors').open = true; });
  const pageKinds = await page.locator('#errors-kinds tbody tr').evaluateAll((rows) =>
    rows.map((r) => `${r.querySelector('th').innerText}: ${r.querySelector('td.count').innerText}`));
  assert.deepEqual(pageKinds, cliKinds);
  const example = page.locator('#errors-kinds button.error-example').first();
  const [pairOf, linkOf] = [await example.getAttribute('data-pair'), await example.getAttribute('data-link')];
  assert.ok(errors.includes(`pair ${pairOf}, ${linkOf} `), `the example ${linkOf} of pair ${pairOf} is one the CLI lists`);
  await example.click();
  await page.waitForFunction((n) => document.querySelector('.pair-nav')?.dataset.pair === n, pairOf);
  assert.deepEqual(await page.locator('#pair-diagram path.link.selected').evaluateAll((ps) => ps.map((p) => p.dataset.link)), [linkOf]);

  // The explanation lists the context features' share of D, and the calibrated threshold.
  await goToPair(page, 4);
  const link = predicted[3].split(' ').filter(Boolean)[0];
  await page.evaluate(() => { document.querySelector('details.link-table').open = true; });
  await page.click(`#link-table button:text-is("${link}")`);
  await page.waitForSelector('#explain-parts');
  const components = await page.locator('#explain-parts tbody th, #explain-parts tbody td:first-child').allInnerTexts();
  assert.ok(components.some((c) => /ctx/.test(c)), `ctx listed (${components.join(', ')})`);
  assert.match(await text('#explain-verdict'), /^Classified aligned: D = /);
  await page.locator('#train-panel').screenshot({ path: path.join(shots, 'train-options.png') });
});

/** Waits until the text of `sel` matches `re`. */
const until = (sel, re) => page.waitForFunction(([sel, src]) => new RegExp(src).test(document.querySelector(sel)?.innerText ?? ''),
  [sel, re.source], { timeout: 300000 });
const warnings = () => page.locator('#job-caution, #results-caution, #pair-caution').count();

test('a held-out test: the last 20% aligned and scored alone, without the training-data warning', async () => {
  const pairs = lines(`${sample}.src`).length;
  const first = pairs - Math.floor(pairs * 0.2) + 1;
  await setField('train-max-examples', '300');
  await page.uncheck('#train-calibrate');
  await page.check('#train-test');
  assert.match(await text('#train-test-help'), new RegExp(`^Pairs ${first}–${pairs} \\(the last 20%\\) are held out and scored\\.`));
  assert.equal(await text('#train'), `Train on pairs 1–${first - 1} and align the ${pairs - first + 1} held out`);
  await page.click('#train');
  await until('#job-note.ok', /^Trained on pairs/);
  assert.match(await text('#job-note'), new RegExp(`^Trained on pairs 1–${first - 1} and aligned the ${pairs - first + 1} held-out pairs ${first}–${pairs} in `));
  assert.match(await text('#held-out-note'), new RegExp(`^Held out: pairs ${first}–${pairs}`));
  await goToPair(page, first + 2);
  await until('#pair-counts', /^This pair, a held-out pair: \d+ links? predicted/);
  assert.equal(await warnings(), 0, 'no training-data warning on held-out scores');
  await goToPair(page, 3);
  await until('#pair-counts', /trained the model of the held-out test/);
  // The same model aligning every pair: the training pairs' scores carry the warning, the held-out pairs' do not.
  await page.click('#align');
  await until('#job-note.ok', new RegExp(`^Aligned ${pairs} pairs`));
  await until('#pair-counts', /^This pair: \d+ links? predicted/);
  assert.match(await text('#pair-caution'), /^⚠ Scored on pairs the model was trained on/);
  assert.equal(await page.locator('#job-caution').count(), 1);
  await goToPair(page, first + 2);
  await until('#pair-counts', /^This pair: \d+ links? predicted/);
  assert.equal(await page.locator('#pair-caution').count(), 0, 'a held-out pair: its scores are not training data');
});

test('nothing went wrong in the page', () => {
  assert.deepEqual(problems, []);
});
