// Annotating in the page, at laptop and phone sizes: a model trained by
// `treelink train` is uploaded and aligns the sample; in *Annotate* each
// pair's proposal is `treelink align`'s links for it; a click removes a
// proposed link and the pair is decoded again without it; *Accept* keeps
// the links as hand links (exported as the hand links' gold file) and
// shows the pair the model is least sure of; a reload loses nothing. Then
// the researcher's loop: trained in the page on pairs with gold, a test set
// without gold annotated, and the model updated after each pair accepted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { placed, assertAccessible } from './seen.mjs';
import { download, sample, run, openPage, goToPair, samplePart, fillField, openAdvanced, lines, tree } from './helpers.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-annotate-'));
const model = path.join(tmp, 'model.json');
let page, close;
const problems = [];

before(async () => {
  samplePart(path.join(tmp, 'train'), 0, 60);
  // A quick configuration (no dev search): what matters is that page and CLI propose alike.
  run('train', '--train', path.join(tmp, 'train'), '--kernel', 'plain+dbtk-root', '--threads', '1', '-o', model);
  ({ page, close } = await openPage(problems, '#pair-diagram'));
});

after(async () => {
  await close?.();
});

const drawn = () => page.$$eval('#pair-diagram .link-group', (gs) => gs.map((g) => g.dataset.link).sort());
const cliLinks = run('align', '--model', model, '--input', sample).split('\n').map((l) => l.split(/\s+/).filter(Boolean).map((t) => t.replace(/\?$/, '')).sort());

for (const [size, viewport] of [['laptop', { width: 1366, height: 768 }], ['phone', { width: 390, height: 844 }]]) {
  test(`annotate on a ${size}: proposals are treelink align's, an edit decodes again, Accept keeps and moves on`, async () => {
    await page.setViewportSize(viewport);
    if (size === 'laptop') {
      await page.setInputFiles('#file-model', model);
      await page.click('#mode-annotate');
      await page.click('#annotate-align');
      await page.waitForFunction(() => /^The model proposes/.test(document.querySelector('#annotate-state')?.innerText ?? ''), null, { timeout: 120000 });
    }
    // A pair with at least three proposed links, not accepted yet.
    const k = cliLinks.findIndex((l, i) => l.length >= 3 && i > (size === 'laptop' ? 0 : 20));
    await goToPair(page, k + 1);
    await page.waitForFunction(() => /^The model proposes/.test(document.querySelector('#annotate-state').innerText));
    assert.deepEqual(await drawn(), cliLinks[k], `pair ${k + 1}: the page proposes treelink align's links`);
    // Remove one proposed link (by key on a laptop, by tap on a phone): it is gone, and the pair is decoded again.
    const removed = cliLinks[k][0];
    if (size === 'laptop') {
      await page.focus(`#pair-diagram .link-group[data-link="${removed}"]`);
      await page.keyboard.press('Enter');
    } else {
      await page.locator(`#pair-diagram path.link-hit[data-link="${removed}"]`).dispatchEvent('click');
    }
    await page.waitForFunction((l) => !document.querySelector(`#pair-diagram .link-group[data-link="${l}"]`), removed);
    assert.match(await page.locator('#annotate-feedback').innerText(), /^Removed .*; the pair is decoded again: \d+ links?\.$/);
    assert.match(await page.locator('#annotate-state').innerText(), /after your 1 edit\b/);
    const after = await drawn();
    assert.ok(!after.includes(removed));
    // On a phone the diagram stays where it was, the verdict under it.
    const inView = await page.locator('#pair-diagram').evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight;
    });
    assert.ok(inView, 'the diagram is in view after the edit');
    await page.mouse.move(0, 0);
    assert.match(await page.locator('#hover-info').innerText(), /^✓ Removed /, 'the line under the diagram says what the edit did');
    if (size === 'phone') assert.ok((await placed(page, '#hover-info')).inside, 'and it is in view');
    await assertAccessible(page, `annotating on a ${size}`);
    // Accept (the key a, or the button): the links become hand links; another pair is shown.
    if (size === 'laptop') await page.keyboard.press('a');
    else await page.click('#annotate-accept');
    await page.waitForFunction((n) => document.querySelector('.pair-nav').dataset.pair !== String(n), k + 1);
    assert.match(await page.locator('#annotate-progress').innerText(), size === 'laptop' ? /^Annotated 1 of 157 pairs/ : /^Annotated 2 of 157 pairs/);
    await goToPair(page, k + 1);
    assert.deepEqual(await drawn(), after, 'the accepted pair keeps its links');
    assert.match(await page.locator('#annotate-state').innerText(), /^Accepted:/);
  });
}

test('the annotated links are the hand links: exported, and kept over a reload', async () => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const before = await page.locator('#annotate-progress').innerText();
  await page.reload();
  await page.waitForSelector('#annotate-progress');
  await page.waitForFunction((t) => document.querySelector('#annotate-progress')?.innerText === t, before);
  const gold = await download(page, '#export-student');
  const lines = gold.body.split('\n');
  assert.equal(lines.filter((l) => l.trim()).length, 2, 'two pairs have hand links');
});

test('the gold as the annotator in the page: the edits and the static cost are treelink simulate-annotation\'s', async () => {
  await close();
  ({ page, close } = await openPage(problems, '#pair-diagram'));
  const a = samplePart(path.join(tmp, 'first'), 0, 40);
  const pool = samplePart(path.join(tmp, 'pool'), 40, 50);
  const prefix = (f) => f.replace(/\.src$/, '');
  const cli = run('simulate-annotation', '--train', prefix(a[0]), '--pool', prefix(pool[0]), '--order', 'file', '--no-update', '--kernel', 'plain+dbtk-root', '--threads', '1');
  const [, cliPairs, cliGold, cliEdits, cliStatic] = cli.match(/^pairs (\d+) {2}gold (\d+) {2}edits (\d+) {2}static (\d+)$/m).map(Number);
  const firstModel = path.join(tmp, 'first.json');
  run('train', '--train', prefix(a[0]), '--kernel', 'plain+dbtk-root', '--threads', '1', '-o', firstModel);
  for (const [k, ext] of ['src', 'trg', 'gold'].entries()) await page.setInputFiles(`#file-${ext}`, pool[k]);
  await page.waitForFunction(() => /, 10 pairs/.test(document.querySelector('#lede-pairs')?.innerText ?? ''));
  await page.setInputFiles('#file-model', firstModel);
  await page.click('#mode-annotate');
  await page.selectOption('#annotate-order', 'file');
  await page.click('#annotate-align');
  await page.waitForFunction(() => /^The model proposes/.test(document.querySelector('#annotate-state')?.innerText ?? ''), null, { timeout: 120000 });
  const [srcs, trgs, golds] = pool.map(lines);
  let [edits, statics, gold] = [0, 0, 0];
  for (let k = 0; k < 10; k++) {
    await page.waitForFunction((n) => document.querySelector('.pair-nav').dataset.pair === String(n), k + 1);
    const [s, t] = [tree(srcs[k]), tree(trgs[k])];
    const phrase = (l) => { const [a, b] = l.split('-').map(Number); return s.phrase(a) && t.phrase(b); };
    const want = new Set(golds[k].split(/\s+/).filter(Boolean).map((l) => l.replace(/\?$/, '')).filter(phrase));
    gold += want.size;
    const order = (x, y) => { const [a, b] = x.split('-').map(Number), [c, d] = y.split('-').map(Number); return a - c || b - d; };
    let pairEdits = 0;
    for (;;) {
      const shown = await page.$$eval('#pair-diagram .link-group', (gs) => gs.map((g) => [g.dataset.link, Number(g.getAttribute('aria-label').match(/posterior ([\d.]+)/)?.[1] ?? 0)]));
      const proposed = new Map(shown.filter(([l]) => phrase(l)));
      const wrong = [...proposed.keys()].filter((l) => !want.has(l)).sort(order);
      const missed = [...want].filter((l) => !proposed.has(l)).sort(order);
      if (pairEdits === 0) statics += wrong.length + missed.length;
      if (wrong.length) {
        const surest = wrong.reduce((best, l) => (proposed.get(l) > proposed.get(best) ? l : best));
        await page.locator(`#pair-diagram path.link-hit[data-link="${surest}"]`).dispatchEvent('click');
      } else if (missed.length) {
        const [a, b] = missed[0].split('-');
        await page.click(`#src-node-${a}`);
        await page.click(`#trg-node-${b}`);
      } else break;
      pairEdits += 1;
      await page.waitForFunction((n) => new RegExp(`after your ${n} edits?\\b`).test(document.querySelector('#annotate-state').innerText), pairEdits);
    }
    edits += pairEdits;
    await page.click('#annotate-accept');
  }
  assert.deepEqual({ pairs: 10, gold, edits, static: statics }, { pairs: cliPairs, gold: cliGold, edits: cliEdits, static: cliStatic });
  assert.match(await page.locator('#annotate-progress').innerText(), new RegExp(`^Annotated 10 of 10 pairs`));
});

test('trained in the page, a test set without gold annotated: the model learns from each pair accepted', async () => {
  await close();
  ({ page, close } = await openPage(problems, '#pair-diagram'));
  const a = samplePart(path.join(tmp, 'a'), 0, 40);
  // The pairs to annotate: no gold links.
  const c = samplePart(path.join(tmp, 'c'), 40, 50);
  fs.writeFileSync(c[2], '\n'.repeat(10));
  for (const [k, ext] of ['src', 'trg', 'gold'].entries()) await page.setInputFiles(`#file-${ext}`, a[k]);
  await page.waitForFunction(() => /, 40 pairs/.test(document.querySelector('#lede-pairs')?.innerText ?? ''));
  await page.setInputFiles('#file-test-set', c);
  await page.waitForFunction(() => /, 50 pairs/.test(document.querySelector('#lede-pairs')?.innerText ?? ''));
  await page.selectOption('#train-setting', 'kernel');
  await fillField(page, 'train-kernel', 'plain+dbtk-root');
  await openAdvanced(page);
  await page.selectOption('#train-solver', 'linear');
  await page.click('#train');
  await page.waitForSelector('#job-note', { timeout: 300000 });
  await page.click('#mode-annotate');
  await goToPair(page, 41);
  await page.waitForFunction(() => /^The model proposes/.test(document.querySelector('#annotate-state').innerText));
  assert.match(await page.locator('#annotate-learning').innerText(), /^After each pair accepted, the model is trained again/);
  await page.click('#annotate-accept');
  // The update: a job in the worker, the page free meanwhile; then every pair is proposed by the updated model.
  await page.waitForFunction(() => /^The model was updated 1 time with the pairs accepted \(the last with 1\)/.test(document.querySelector('#annotate-learning').innerText));
  await page.waitForFunction(() => /updated on \d+ pairs/.test(document.querySelector('#model-summary')?.innerText ?? ''), null, { timeout: 120000 });
  assert.match(await page.locator('#model-summary').innerText(), /updated on 41 pairs: its own and those annotated/);
  const shown = Number(await page.locator('.pair-nav').getAttribute('data-pair'));
  assert.ok(shown > 41 && shown <= 50, `a held-out pair is next: ${shown}`);
  await page.waitForFunction(() => /^The model proposes/.test(document.querySelector('#annotate-state').innerText));
});

test('nothing went wrong in the page', () => {
  assert.deepEqual(problems, []);
});
