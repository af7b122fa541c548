// End-to-end tests: the release build in dist/, served from a sub-path by a
// plain static server, driven in Debian's headless Chromium by playwright-core.
// Numbers read off the page (kernel values, link counts, P/R/F, the model file)
// are checked against the native CLI on the same data. Screenshots of the main
// views go to target/e2e/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, shots, download, lines, tree, cli, sample, run, openPage, goToPair as goTo, fillField, samplePair3, kernelOnAllPairs } from './helpers.mjs';

const data = path.resolve(root, '../shared/data');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-e2e-'));
// Small enough to train in a few seconds on 2 cores, in the page and natively.
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
const goToPair = (n) => goTo(page, n);

const setField = (id, value) => fillField(page, id, value);

/** Trains in the page with the paper's settings but few examples, and waits for the alignment. */
async function trainSmall() {
  await kernelOnAllPairs(page);
  await setField('train-kernel', 'plain+dbtk-root+ibtk-rgsst');
  await setField('train-max-examples', MAX_EXAMPLES);
  await page.click('#train');
  await page.waitForSelector('#job-note.ok', { timeout: 120000 });
  assert.match(await text('#job-note'), /^Trained and aligned 157 pairs/);
}

test('the built-in sample loads, from a sub-path, with its gold links drawn', async () => {
  assert.match(await text('#corpus-summary'), /157 pairs, \d+ nodes, 1218 gold links/);
  const gold = lines(`${sample}.gold`);
  const src = lines(`${sample}.src`);
  await goToPair(3);
  const drawn = await page.locator('#pair-diagram path.link.gold').count();
  assert.equal(drawn, gold[2].split(' ').filter(Boolean).length);
  // One box per labelled node: count the brackets of the line.
  const nodes = (src[2].match(/\(/g) || []).length;
  assert.equal(await page.locator('#pair-diagram g.tree.src g.node').count(), nodes);
  assert.match(await page.locator('footer').innerText(), /Apache License 2\.0/);
  // The text alternative lists the same links.
  assert.equal(await page.locator('#link-table tbody tr').count(), drawn);
  await page.screenshot({ path: path.join(shots, 'sample.png'), fullPage: true });
});

test('clicking a source node then a target node shows every kernel value, equal to the native CLI, and its Δ table', async () => {
  await goToPair(3);
  const gold = lines(`${sample}.gold`)[2].split(' ');
  // A gold-linked source node, with a target node that is not its gold partner.
  const [s, t] = gold.find((l) => !l.startsWith('0-')).split('-').map(Number);
  const other = t === 1 ? 2 : 1;
  await page.click(`#src-node-${s}`);
  await page.click(`#trg-node-${other}`);
  await page.waitForSelector('#kernel-table');
  assert.ok(await page.locator(`#src-node-${s}.selected`).count() === 1, 'the source node is highlighted');
  assert.ok(await page.locator('#pair-diagram .node.in-selection').count() >= 2, 'both sub-trees are highlighted');
  const dir = fs.mkdtempSync(path.join(tmp, 'k-'));
  for (const id of ['x-source', 'x-target', 'y-source', 'y-target']) {
    fs.writeFileSync(path.join(dir, id), (await text(`#${id}`)) + '\n');
  }
  // The comparison defaulted to the gold link of the selected source node.
  assert.notEqual(await text('#x-target'), await text('#y-target'));
  let checked = 0;
  for (const kind of ['ibtk', 'dbtk']) {
    for (const space of ['sst', 'rdsst', 'rgsst', 'root']) {
      for (const norm of ['raw', 'norm']) {
        const args = ['btk', '--kind', kind, '--space', space, ...(norm === 'norm' ? ['--normalize'] : []),
          ...['x-source', 'x-target', 'y-source', 'y-target'].map((f) => path.join(dir, f))];
        const native = run(...args).trim();
        const shown = await page.getAttribute(`#k-${kind}-${space}-${norm}`, 'data-value');
        assert.equal(shown, native, `${kind} ${space} ${norm}`);
        checked += 1;
      }
    }
  }
  assert.equal(checked, 16);
  assert.notEqual(await page.getAttribute('#k-dbtk-sst-raw', 'data-value'), '0', 'a non-trivial value');
  // The Δ tables make up the kernels: iBTK-SST = Σ Δ (source) + Σ Δ (target), iBTK-RgSST = Δ of the roots.
  const value = async (sel) => Number(await page.getAttribute(sel, 'data-value'));
  assert.equal(await value('#delta-src-sum') + await value('#delta-trg-sum'), await value('#k-ibtk-sst-raw'));
  assert.equal(await value('#delta-src-sum') * await value('#delta-trg-sum'), await value('#k-dbtk-sst-raw'));
  const roots = await page.locator('table.delta tr.root-pair td[data-value]').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
  assert.equal(roots.reduce((a, b) => a + b, 0), await value('#k-ibtk-rgsst-raw'));
  await page.screenshot({ path: path.join(shots, 'kernels.png'), fullPage: true });
  await page.click('#clear-selection');
});

test('training runs in the worker with progress, an ETA and a cancel button, and the page stays responsive', async () => {
  await goToPair(1);
  // Every stage and count the page shows while the worker trains.
  await page.evaluate(() => {
    window.seen = [];
    new MutationObserver(() => {
      const stage = document.querySelector('#job-stage');
      if (stage) window.seen.push([stage.innerText, document.querySelector('#job-count')?.innerText ?? '',
        document.querySelector('#job-eta')?.innerText ?? '']);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // A long job (all 6000 examples with the SST kernel) to cancel.
  await setField('train-kernel', 'plain+ibtk-sst');
  await setField('train-max-examples', '6000');
  await page.click('#train');
  await page.waitForSelector('#job-progress');
  await page.waitForFunction(() => window.seen.some(([stage]) => /features|SVM|kernel/.test(stage)), null, { timeout: 60000 });
  assert.ok(await page.locator('#train').isDisabled(), 'one job at a time');
  // The page answers while the worker computes: change the pair and see it at once.
  const started = Date.now();
  await page.click('#next-pair');
  await page.waitForFunction(() => document.querySelector('#pair-number').value === '2', null, { timeout: 2000 });
  const latency = Date.now() - started;
  assert.ok(latency < 1500, `the page took ${latency} ms to answer a click during training`);
  assert.equal(await page.locator('#job').count(), 1, 'still training');
  await page.screenshot({ path: path.join(shots, 'training.png') });
  await page.click('#cancel-job');
  await page.waitForSelector('#job-note.error');
  assert.match(await text('#job-note'), /^Cancelled after [\d.]+ s/);
  assert.equal(await page.locator('#job').count(), 0);
  assert.equal(await page.locator('#results-table').count(), 0, 'nothing half-done is shown');
  // A fresh worker trains the small model to the end; its stages were all shown.
  await page.evaluate(() => { window.seen = []; });
  await trainSmall();
  const stages = await page.evaluate(() => [...new Set(window.seen.map(([s]) => s.replace(/^.*: /, '')))]);
  for (const s of ['lexical model', 'features', 'SVM (SMO)', 'aligning', 'baseline (Tinsley et al.)']) {
    assert.ok(stages.includes(s), `stage ${s} shown (saw ${stages.join(', ')})`);
  }
  const counted = await page.evaluate(() => window.seen.filter(([, count, eta]) => /^\d+\/\d+ \(\d+%\)$/.test(count) && /s left|estimating/.test(eta)).length);
  assert.ok(counted > 0, 'counts and an ETA were shown');
  // SMO has no total: the page shows its largest error against ε instead.
  const smo = await page.evaluate(() => window.seen.filter(([s, , eta]) => /SVM \(SMO\)/.test(s) && /now \d+\.\d{4}, falls below ε = 0\.001/.test(eta)).length);
  assert.ok(smo > 0, 'the KKT violation was shown during SMO');
  assert.match(await text('#model-summary'), /trained in this page — kernel plain\+dbtk-root\+ibtk-rgsst, \d+ support vectors from 800 examples/);
  await page.screenshot({ path: path.join(shots, 'trained.png'), fullPage: true });
});

test('the model trained in the page is the CLI\'s, and the diagram\'s links and the results equal `treelink align` and `eval`', async () => {
  const model = await download(page, '#download-model');
  assert.equal(model.name, 'treelink-model.json');
  fs.writeFileSync(path.join(tmp, 'page-model.json'), model.body);
  // The same training natively: the same model file, byte for byte.
  run('train', '--train', sample, '--max-examples', MAX_EXAMPLES, '-o', path.join(tmp, 'cli-model.json'));
  assert.equal(model.body, fs.readFileSync(path.join(tmp, 'cli-model.json'), 'utf8'), 'page and CLI train the same model');
  // The CLI aligns with the page's model.
  const aligned = run('align', '--model', path.join(tmp, 'page-model.json'), '--input', sample);
  fs.writeFileSync(path.join(tmp, 'cli.pred'), aligned);
  const predicted = aligned.split('\n').slice(0, -1);
  assert.equal(predicted.length, 157);
  const gold = lines(`${sample}.gold`);
  for (const n of [1, 3, 4, 7, 20]) {
    await goToPair(n);
    const cliLinks = predicted[n - 1].split(' ').filter(Boolean);
    const goldLinks = new Set(gold[n - 1].split(' ').filter(Boolean).map((l) => l.replace('?', '')));
    const drawn = await page.locator('#pair-diagram path.link').evaluateAll((ps) => ps.map((p) => [p.dataset.link, p.dataset.status]));
    const predictedDrawn = drawn.filter(([, s]) => s === 'correct' || s === 'wrong').map(([l]) => l).sort();
    assert.deepEqual(predictedDrawn, [...cliLinks].sort(), `pair ${n}: the predicted links`);
    assert.deepEqual(drawn.filter(([, s]) => s === 'correct').map(([l]) => l).sort(), cliLinks.filter((l) => goldLinks.has(l)).sort(), `pair ${n}: correct`);
    assert.equal(drawn.filter(([, s]) => s === 'missed').length, [...goldLinks].filter((l) => !cliLinks.includes(l)).length, `pair ${n}: missed`);
    assert.equal(await page.getAttribute('#pair-counts', 'data-predicted'), String(cliLinks.length));
  }
  // Corpus scores as `treelink eval` prints them, for the model and the baseline.
  const evalOf = (pred) => Object.fromEntries(run('eval', '--input', sample, '--pred', pred).split('\n')
    .filter((l) => /^[PRF] = /.test(l)).map((l) => l.split(' = ')));
  const modelScores = evalOf(path.join(tmp, 'cli.pred'));
  fs.writeFileSync(path.join(tmp, 'baseline.pred'), run('baseline', '--input', sample));
  const baselineScores = evalOf(path.join(tmp, 'baseline.pred'));
  for (const k of ['P', 'R', 'F']) {
    assert.equal(await text(`#results-model-${k.toLowerCase()}`), modelScores[k], `model ${k}`);
    assert.equal(await text(`#results-baseline-${k.toLowerCase()}`), baselineScores[k], `baseline ${k}`);
  }
  // The other way round: a model file from the CLI, uploaded and used to align in the page.
  run('train', '--train', sample, '--max-examples', '300', '--kernel', 'plain+ibtk-rgsst', '-o', path.join(tmp, 'cli-300.json'));
  await page.setInputFiles('#file-model', path.join(tmp, 'cli-300.json'));
  await page.waitForSelector('#status-model.ok');
  assert.match(await text('#model-summary'), /uploaded cli-300\.json — kernel plain\+ibtk-rgsst/);
  await page.click('#align');
  await page.waitForFunction(() => /uploaded cli-300\.json/.test(document.querySelector('#results-note')?.innerText ?? ''), null, { timeout: 120000 });
  assert.match(await text('#job-note'), /^Aligned 157 pairs/);
  fs.writeFileSync(path.join(tmp, 'cli-300.pred'), run('align', '--model', path.join(tmp, 'cli-300.json'), '--input', sample));
  const scores300 = evalOf(path.join(tmp, 'cli-300.pred'));
  for (const k of ['P', 'R', 'F']) assert.equal(await text(`#results-model-${k.toLowerCase()}`), scores300[k], `uploaded model ${k}`);
  // Back to the page's own model for the next tests.
  await page.setInputFiles('#file-model', path.join(tmp, 'page-model.json'));
  await page.waitForSelector('#status-model.ok');
  await page.click('#align');
  await page.waitForFunction(() => /uploaded page-model\.json/.test(document.querySelector('#results-note')?.innerText ?? ''), null, { timeout: 120000 });
  for (const k of ['P', 'R', 'F']) assert.equal(await text(`#results-model-${k.toLowerCase()}`), modelScores[k]);
  // The per-pair list sorts to put the worst pairs first.
  await page.click('#sort-f');
  const firstF = Number(await page.locator('#pair-table tbody tr:first-child td.f').innerText());
  const fs_ = await page.locator('#pair-table tbody td.f').evaluateAll((tds) => tds.map((td) => Number(td.innerText)));
  assert.equal(firstF, Math.min(...fs_));
  await page.locator('#results-panel').screenshot({ path: path.join(shots, 'results.png') });
  await page.click('#sort-pair');
});

test('explaining a link: features, each component\'s share of D, the posterior and the search step', async () => {
  await goToPair(4);
  const predicted = lines(path.join(tmp, 'cli.pred'))[3].split(' ');
  const link = predicted[1];
  // Hovering a link shows its posterior.
  await page.locator(`#pair-diagram path.link-hit[data-link="${link}"]`).dispatchEvent('mouseenter');
  const hovered = await text('#hover-info');
  const posterior = /posterior (\d\.\d{3})/.exec(hovered)[1];
  // Clicking it (here through the diagram's text alternative) explains it.
  await page.evaluate(() => { document.querySelector('details.link-table').open = true; });
  await page.click(`#link-table button:text-is("${link}")`);
  await page.waitForSelector('#explain-parts');
  assert.match(await text('#explain-verdict'), /^Classified aligned: D = /);
  assert.equal(Number(await page.getAttribute('#explain-posterior', 'data-value')).toFixed(3), posterior);
  const parts = await page.locator('#explain-parts tbody td[data-value]').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
  assert.equal(parts.length, 4, 'plain, dbtk-root, ibtk-rgsst and −ρ');
  const d = Number(await page.getAttribute('#explain-value', 'data-value'));
  assert.ok(Math.abs(parts.reduce((a, b) => a + b, 0) - d) < 1e-9, 'D = Σ parts − ρ');
  assert.ok(d > 0);
  assert.match(await text('#explain-search'), /offered at step \d+ of \d+, and taken as link \d+ of the pair/);
  assert.equal(await page.locator('#explain-features tr').count(), 10);
  assert.equal(await page.locator('#explain-checks tbody tr').count(), 7);
  await page.locator('#workbench').screenshot({ path: path.join(shots, 'explain.png') });
  // A candidate the search refused: find one in the step list and explain it.
  await page.click('#mode-steps');
  const row = page.locator('#step-table tbody tr', { hasText: 'blocked by' }).first();
  const candidate = await row.locator('td').nth(1).innerText();
  const [s, t] = [...candidate.matchAll(/\((\d+)\)/g)].map((m) => Number(m[1]));
  await page.click('#mode-inspect');
  await page.click(`#src-node-${s}`);
  await page.click(`#trg-node-${t}`);
  await page.waitForSelector('#explain-search');
  assert.match(await text('#explain-search'), /blocked by the earlier link .+ under criterion \((i|ii|iii)\)/);
  // A POS node is no candidate.
  const src = tree(lines(`${sample}.src`)[3]);
  const pos = src.nodes.findIndex((n) => n.word !== undefined);
  await page.click(`#src-node-${pos}`);
  await page.waitForFunction(() => /Not a candidate/.test(document.querySelector('#explain-verdict')?.innerText ?? ''));
  await page.click('#clear-selection');
});

test('teaching mode: links by hand, a criteria-breaking link refused with its reason, scores, and the search step by step', async () => {
  await goToPair(3);
  await page.click('#mode-teach');
  const { src, trg, gold, below: [a, b] } = samplePair3();
  const link = async (s, t) => { await page.click(`#src-node-${s}`); await page.click(`#trg-node-${t}`); };
  // Two gold links: the roots, and one below them (a, b).
  await link(0, 0);
  await link(a, b);
  assert.equal(await page.locator('#student-links li').count(), 2);
  assert.match(await text('#teach-message'), /^Linked/);
  // (i): the root is linked already.
  await link(0, b === 1 ? 2 : 1);
  assert.match(await text('#teach-message'), /^Refused .*criterion \(i\) a node can only be linked once/);
  // (ii): below a on the source side, but not below b on the target side (nor above it).
  const c = src.nodes.findIndex((_, n) => src.below(a, n));
  const d = trg.nodes.findIndex((_, n) => n > 0 && n !== b && !trg.below(b, n) && !trg.below(n, b));
  assert.ok(c > 0 && d > 0, 'the pair has such nodes');
  await link(c, d);
  assert.match(await text('#teach-message'), /^Refused .*criterion \(ii\) descendants of a linked node may only link to descendants of its counterpart/);
  assert.equal(await page.locator('#teach-message.refused').count(), 1);
  assert.equal(await page.locator('#student-links li').count(), 2, 'refused links are not added');
  assert.equal(await page.locator('#pair-diagram path.link[data-status=student]').count(), 2);
  // Scored against gold (both are gold links) and against the model.
  assert.equal(await text('#teach-vs-gold .p'), '100.00');
  const goldPhrase = gold.filter(([s, t]) => src.phrase(s) && trg.phrase(t)).length;
  assert.equal(await text('#teach-vs-gold .r'), (200 / goldPhrase).toFixed(2));
  assert.match(await text('#teach-vs-model'), /\d+\.\d\d/);
  // Clicking a student link removes it.
  await page.locator(`#pair-diagram path.link-hit[data-link="${a}-${b}"]`).dispatchEvent('click');
  assert.equal(await page.locator('#student-links li').count(), 1);
  await link(a, b);
  await page.check('#teach-reveal');
  await page.locator('#workbench').screenshot({ path: path.join(shots, 'teach.png') });
  // Step through the model's search.
  await page.click('#mode-steps');
  const total = Number(/of (\d+)/.exec(await text('#step-counter'))[1]);
  assert.ok(total > 1);
  assert.match(await text('#step-counter'), new RegExp(`^Step 1 of ${total}$`));
  assert.equal(await page.locator('#pair-diagram path.link[data-status=current]').count(), 1);
  assert.equal(await page.locator('#pair-diagram path.link[data-status=taken]').count(), 0);
  await page.click('#step-next');
  assert.match(await text('#step-counter'), /^Step 2 of/);
  assert.match(await text('#step-text'), /^Step 2: candidate .+ with posterior \d\.\d{4} is (taken|refused)/);
  await page.click('#step-last');
  // Drawn: the links taken before the last step (one of them as its blocker, if it was refused).
  const taken = await page.locator('#step-table tbody tr', { hasText: 'taken' }).count();
  const lastTaken = /is taken/.test(await text('#step-text'));
  const drawn = await page.locator('#pair-diagram path.link[data-status=taken], #pair-diagram path.link[data-status=blocker]').count();
  assert.equal(drawn, taken - (lastTaken ? 1 : 0));
  assert.equal(await page.locator('#pair-diagram path.link[data-status=blocker]').count(), lastTaken ? 0 : 1);
  await page.locator('#workbench').screenshot({ path: path.join(shots, 'steps.png') });
  await page.click('#mode-inspect');
});

test('exporting links (gold format, STA XML), the diagram (SVG, PNG) and results (CSV), and importing the links back', async () => {
  await goToPair(4);
  // Predicted links in the gold format: exactly what `treelink align` printed.
  const gold = await download(page, '#export-gold');
  assert.equal(gold.name, 'treelink-predicted.gold');
  assert.equal(gold.body, fs.readFileSync(path.join(tmp, 'cli.pred'), 'utf8'));
  // The diagram: standalone SVG with the drawn links, and a PNG.
  const drawnLinks = await page.locator('#pair-diagram path.link').count();
  const svg = await download(page, '#export-svg');
  assert.equal(svg.name, 'treelink-pair-4.svg');
  assert.match(svg.body, /^<\?xml[^>]*>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.equal((svg.body.match(/data-link=/g) || []).length, drawnLinks);
  // Links are drawn beneath the words, and the words carry a white halo
  // over them: in the page and in the SVG file.
  const drawing = await page.evaluate(() => {
    const d = document.querySelector('#pair-diagram');
    const links = d.querySelectorAll('path.link');
    const firstWord = d.querySelector('text.word');
    const s = getComputedStyle(firstWord);
    return {
      beneath: Boolean(links[links.length - 1].compareDocumentPosition(firstWord) & Node.DOCUMENT_POSITION_FOLLOWING),
      halo: [s.paintOrder, s.stroke, s.strokeWidth],
    };
  });
  assert.ok(drawnLinks > 0 && drawing.beneath, 'the page draws every link before (beneath) the words');
  assert.deepEqual(drawing.halo, ['stroke', 'rgb(255, 255, 255)', '4px']);
  assert.ok(svg.body.lastIndexOf(' data-link=') < svg.body.indexOf('<text class="word'), 'the SVG draws the links beneath the words');
  assert.match(svg.body, /\.tl-diagram \.word, \.tl-diagram \.node text \{ paint-order: stroke; stroke: #ffffff; stroke-width: 4px;/);
  const png = await download(page, '#export-png', true);
  assert.equal(png.name, 'treelink-pair-4.png');
  assert.deepEqual([...png.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
  assert.ok(png.body.length > 10000);
  fs.writeFileSync(path.join(shots, 'export-pair-4.png'), png.body);
  fs.writeFileSync(path.join(shots, 'export-pair-4.svg'), svg.body);
  // Results as CSV: one row per pair, then the corpus row with the scores shown.
  const csv = await download(page, '#export-csv');
  const rows = csv.body.trim().split('\n');
  assert.equal(rows.length, 1 + 157 + 1);
  const corpus = rows.at(-1).split(',');
  assert.equal(corpus[0], 'corpus');
  assert.deepEqual(corpus.slice(6, 9), [await text('#results-model-p'), await text('#results-model-r'), await text('#results-model-f')]);
  // The last column carries the page's training-data warning on the scores.
  assert.equal(rows[0].split(',').at(-1), 'model_on_training_data');
  assert.equal(corpus.at(-1), (await page.locator('#results-caution').count()) > 0 ? 'yes' : 'no');
  const curve = await download(page, '#export-curve');
  assert.match(curve.body, /^threshold,predicted,correct,P,R,F\n0\.9/);
  // Re-import the predicted links as gold: the model now scores 100.
  await page.setInputFiles('#file-gold', gold.file);
  await page.waitForFunction(() => /\+ gold links from /.test(document.querySelector('#corpus-summary').innerText));
  const nLinks = gold.body.split(/\s+/).filter(Boolean).length;
  assert.match(await text('#corpus-summary'), new RegExp(`157 pairs, \\d+ nodes, ${nLinks} gold links`));
  for (const k of ['p', 'r', 'f']) assert.equal(await text(`#results-model-${k}`), '100.00');
  // STA XML with its two TigerXML treebanks; importing the three gives the same corpus and links.
  const sta = await download(page, '#export-sta');
  const tigerSrc = await download(page, '#export-tiger-src');
  const tigerTrg = await download(page, '#export-tiger-trg');
  assert.match(sta.body, /<treealign/);
  // A model's links: each with its posterior as prob, good above 0.5.
  const aligns = sta.body.match(/<align [^>]*>/g) || [];
  assert.equal(aligns.length, nLinks);
  for (const a of aligns) {
    const [, type, prob] = /type="(good|fuzzy)" prob="([0-9.e-]+)"/.exec(a) ?? [];
    assert.ok(type, `a type and its posterior: ${a}`);
    assert.equal(type === 'good', Number(prob) > 0.5, a);
  }
  await page.click('#load-sample');
  await page.waitForFunction(() => /1218 gold links/.test(document.querySelector('#corpus-summary').innerText));
  const named = (d, name) => { const f = path.join(tmp, name); fs.copyFileSync(d.file, f); return f; };
  await page.setInputFiles('#file-tiger', [named(sta, sta.name), named(tigerSrc, tigerSrc.name), named(tigerTrg, tigerTrg.name)]);
  await page.waitForFunction((n) => new RegExp(`157 pairs, \\d+ nodes, ${n} gold links`).test(document.querySelector('#corpus-summary').innerText), nLinks);
  assert.match(await text('#status-tiger'), /157/);
  for (const k of ['p', 'r', 'f']) assert.equal(await text(`#results-model-${k}`), '100.00', 'same trees: the alignment still applies');
  await page.click('#load-sample');
  await page.waitForFunction(() => /1218 gold links/.test(document.querySelector('#corpus-summary').innerText));
});

test('bad uploads show precise errors next to the input and keep everything else loaded', async () => {
  const modelBefore = await text('#model-summary');
  const summaryBefore = await text('#corpus-summary');
  // A model file that is not JSON, and one that is not a model.
  await page.setInputFiles('#file-model', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{\n  "format": "treelink-alignment-model",\n  "version": 1,\n  oops\n}\n') });
  await page.waitForSelector('#status-model.error');
  assert.match(await text('#status-model'), /broken\.json:4:3: expected a treelink alignment model \(JSON\): key must be a string/);
  await page.setInputFiles('#file-model', { name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"a": 1}') });
  await page.waitForFunction(() => /other\.json:1:1: expected a treelink alignment model \(\"format\": \"treelink-alignment-model\", \"version\": 1\), found \"format\": none/.test(document.querySelector('#status-model').innerText));
  assert.equal(await text('#model-summary'), modelBefore, 'the model in hand is kept');
  // A Moses table with a bad probability, and word links that do not fit the sentences.
  await page.setInputFiles('#file-lex-s2t', { name: 'lex.e2f', mimeType: 'text/plain', buffer: Buffer.from('haus das 0.5\nthe der 1.5\n') });
  await page.waitForSelector('#status-lex-s2t.error');
  assert.match(await text('#status-lex-s2t'), /lex\.e2f:2:9: expected a probability p\(x\|y\) between 0 and 1 .*found '1\.5'/);
  await page.setInputFiles('#file-word-align', { name: 'aligned.grow-diag', mimeType: 'text/plain', buffer: Buffer.from('0-0 1-1\n') });
  await page.waitForSelector('#status-word-align.error');
  assert.match(await text('#status-word-align'), /aligned\.grow-diag:2:1: expected 157 lines of word links \(one per sentence pair\), found 1/);
  assert.equal(await text('#corpus-summary'), summaryBefore);
  assert.ok(await page.locator('#results-table').isVisible(), 'the results are kept');
  // Bracketed trees and gold links (by picker).
  const nl = path.join(data, 'lingua-align-nl-en-125/bracketed');
  await page.setInputFiles('#file-src', path.join(nl, 'all.src'));
  await page.setInputFiles('#file-trg', path.join(nl, 'all.trg'));
  await page.setInputFiles('#file-gold', path.join(nl, 'all.gold'));
  await page.waitForFunction(() => /125 pairs, \d+ nodes, 1380 gold links/.test(document.querySelector('#corpus-summary').innerText));
  assert.match(await text('#status-src'), /all\.src: 125 trees/);
  // The refused word links were never in use; checked again with the new pairs, they are refused for these.
  assert.match(await text('#status-word-align'), /expected 125 lines/);
  // A malformed gold file: an error with line and column, and nothing lost.
  await page.setInputFiles('#file-gold', { name: 'broken.gold', mimeType: 'text/plain', buffer: Buffer.from('0-0\n0-0 7x3\n') });
  await page.waitForSelector('#status-gold.error');
  assert.match(await text('#status-gold'), /broken\.gold:2:5: expected a link/);
  assert.match(await text('#corpus-summary'), /125 pairs/);
  // A malformed tree file likewise.
  await page.setInputFiles('#file-src', { name: 'bad.src', mimeType: 'text/plain', buffer: Buffer.from('(S (NP (DT the) (NN dog))\n') });
  await page.waitForSelector('#status-src.error');
  assert.match(await text('#status-src'), /bad\.src:2:1: expected '\)' to close '\(S' opened at 1:1/);
  assert.match(await text('#corpus-summary'), /125 pairs/);
  assert.ok(await page.locator('#pair-diagram').isVisible());
  assert.match(await text('#model-summary'), /trained in this page|uploaded page-model/);
  await page.locator('#loader').screenshot({ path: path.join(shots, 'bad-uploads.png') });
});

test('training with uploaded Moses tables, and aligning with uploaded word alignments, give the CLI\'s model and scores', async () => {
  // The Dutch–English corpus from the previous test is loaded; its GIZA++/Moses tables go in their slots.
  const nl = path.join(data, 'lingua-align-nl-en-125');
  const prefix = path.join(nl, 'bracketed/all');
  const e2f = path.join(nl, 'raw/moses/lex.0-0.e2f');
  const f2e = path.join(nl, 'raw/moses/lex.0-0.f2e');
  await page.setInputFiles('#file-lex-s2t', e2f);
  await page.setInputFiles('#file-lex-t2s', f2e);
  await page.waitForFunction(() => /lex\.0-0\.f2e: \d+ entries(;|$)/.test(document.querySelector('#status-lex-t2s').innerText));
  assert.match(await text('#status-lex-s2t'), new RegExp(`lex\\.0-0\\.e2f: ${lines(e2f).length} entries(;|$)`));
  assert.match(await text('#train-panel'), /Lexicon: the uploaded Moses tables lex\.0-0\.e2f and lex\.0-0\.f2e/);
  await setField('train-max-examples', '300');
  await page.click('#train');
  await page.waitForSelector('#job-note.ok', { timeout: 120000 });
  assert.match(await text('#job-note'), /^Trained and aligned 125 pairs/);
  const model = await download(page, '#download-model');
  run('train', '--train', prefix, '--lex-s2t', e2f, '--lex-t2s', f2e, '--max-examples', '300', '-o', path.join(tmp, 'nl.json'));
  assert.equal(model.body, fs.readFileSync(path.join(tmp, 'nl.json'), 'utf8'), 'page and CLI train the same model');
  fs.writeFileSync(path.join(tmp, 'nl.pred'), run('align', '--model', path.join(tmp, 'nl.json'), '--input', prefix));
  const scores = Object.fromEntries(run('eval', '--input', prefix, '--pred', path.join(tmp, 'nl.pred')).split('\n')
    .filter((l) => /^[PRF] = /.test(l)).map((l) => l.split(' = ')));
  for (const k of ['P', 'R', 'F']) assert.equal(await text(`#results-model-${k.toLowerCase()}`), scores[k], `model ${k}`);
  assert.match(await text('#results-note'), /baseline: the uploaded Moses tables/);
  // Word alignments given for the corpus replace the aligner's, as `align --word-align`.
  // (A made-up one: word i with word i, as far as both sentences go.)
  const count = (file) => lines(file).map((l) => tree(l).nodes.filter((n) => n.word !== undefined).length);
  const [ns, nt] = [count(`${prefix}.src`), count(`${prefix}.trg`)];
  const diagonal = ns.map((n, k) => Array.from({ length: Math.min(n, nt[k]) }, (_, i) => `${i}-${i}`).join(' '));
  const words = path.join(tmp, 'diagonal.align');
  fs.writeFileSync(words, diagonal.join('\n') + '\n');
  await page.setInputFiles('#file-word-align', words);
  await page.waitForSelector('#status-word-align.ok');
  const total = diagonal.join(' ').split(' ').filter(Boolean).length;
  assert.match(await text('#status-word-align'), new RegExp(`diagonal\\.align: 125 lines, ${total} word links`));
  await page.click('#align');
  await page.waitForFunction(() => /with the uploaded word alignment/.test(document.querySelector('#results-note')?.innerText ?? ''), null, { timeout: 120000 });
  fs.writeFileSync(path.join(tmp, 'nl-words.pred'), run('align', '--model', path.join(tmp, 'nl.json'), '--input', prefix, '--word-align', words));
  const given = Object.fromEntries(run('eval', '--input', prefix, '--pred', path.join(tmp, 'nl-words.pred')).split('\n')
    .filter((l) => /^[PRF] = /.test(l)).map((l) => l.split(' = ')));
  for (const k of ['P', 'R', 'F']) assert.equal(await text(`#results-model-${k.toLowerCase()}`), given[k], `model ${k} with word links`);
});

test('drag and drop of .src/.trg/.gold files, and a label containing <script> is shown as text, also in the SVG export', async () => {
  const files = {
    'tiny.src': '(S (<script>window.pwned=1</script> a) (NP (NN b)))\n',
    'tiny.trg': '(S (X a) (NP (NN b)))\n',
    'tiny.gold': '0-0 2-2\n',
  };
  const dt = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const [name, body] of Object.entries(files)) dt.items.add(new File([body], name, { type: 'text/plain' }));
    return dt;
  }, files);
  await page.dispatchEvent('#loader', 'drop', { dataTransfer: dt });
  await page.waitForFunction(() => /1 pair, 8 nodes, 2 gold links/.test(document.querySelector('#corpus-summary').innerText));
  const label = await page.locator('#src-node-1 text').first().textContent();
  assert.equal(label, '<script>window.pwned=1</script>');
  assert.equal(await page.evaluate(() => document.querySelectorAll('#workbench script').length), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  const svg = await download(page, '#export-svg');
  assert.ok(svg.body.includes('&lt;script&gt;window.pwned=1&lt;/script&gt;'));
  assert.ok(!svg.body.includes('<script'), 'no markup from the label');
  await page.locator('#workbench').screenshot({ path: path.join(shots, 'script-label.png') });
});

test('a TigerXML pair with its STA alignment imports to the same corpus as the bracketed files', async () => {
  const raw = path.join(data, 'squoia-de-es/raw');
  // As the shared data's bracketed files were made (the default keeps every link).
  await page.check('#tiger-bracketed');
  await page.setInputFiles('#file-tiger', ['LAI_SQUOIA_DE.xml', 'LAI_SQUOIA_ES.xml', 'LAI_alignments_squoia_de_es.xml'].map((f) => path.join(raw, f)));
  await page.waitForFunction(() => /157 pairs, \d+ nodes, 1218 gold links/.test(document.querySelector('#corpus-summary').innerText), null, { timeout: 30000 });
  assert.match(await text('#status-tiger'), /157/);
  const first = lines(`${sample}.src`)[0];
  assert.equal(await page.locator('#x-source').count(), 0, 'the selection was cleared');
  await page.click('#src-node-0');
  await page.click('#trg-node-0');
  assert.equal(await text('#x-source'), first);
  await page.uncheck('#tiger-bracketed');
});

test('the nl-en TigerXML set imports English→Dutch (its treebanks\' order); swap makes it the bracketed Dutch→English corpus', async () => {
  const raw = path.join(data, 'lingua-align-nl-en-125/raw');
  const bracketed = path.join(data, 'lingua-align-nl-en-125/bracketed/all');
  await page.check('#tiger-bracketed');
  await page.setInputFiles('#file-tiger', ['nl-en_125.xml', 'ep-00-12-15.125.en.tiger', 'ep-00-12-15.125.nl.tiger'].map((f) => path.join(raw, f)));
  await page.waitForFunction(() => /125 pairs, \d+ nodes, \d+ gold links/.test(document.querySelector('#corpus-summary').innerText), null, { timeout: 30000 });
  await goToPair(1);
  const words = (line) => tree(line).nodes.filter((n) => n.word !== undefined).map((n) => n.word).join(' ');
  const [nl, en] = [words(lines(`${bracketed}.src`)[0]), words(lines(`${bracketed}.trg`)[0])];
  const sentence = (side) => page.locator(`.sentence[lang="${side}"]`).getAttribute('title');
  assert.deepEqual([await sentence('src'), await sentence('trg')], [en, nl], 'imported English→Dutch');
  const gold = lines(`${bracketed}.gold`).reduce((n, l) => n + l.split(' ').filter(Boolean).length, 0);
  await page.click('#swap-sides');
  await page.waitForFunction(() => /\(sides swapped\)/.test(document.querySelector('#corpus-summary').innerText));
  assert.deepEqual([await sentence('src'), await sentence('trg')], [nl, en], 'swapped: Dutch→English');
  assert.match(await text('#corpus-summary'), new RegExp(`125 pairs, \\d+ nodes, ${gold} gold links`));
  // The gold links of pair 1, drawn, are the bracketed file's.
  const drawn = await page.$$eval('#pair-diagram path.link.gold', (ps) => ps.map((p) => p.dataset.link).sort());
  assert.deepEqual(drawn, lines(`${bracketed}.gold`)[0].split(' ').filter(Boolean).map((l) => l.replace('?', '')).sort());
  await page.click('#swap-sides');
  assert.deepEqual([await sentence('src'), await sentence('trg')], [en, nl], 'and back');
  await page.uncheck('#tiger-bracketed');
});

test('keyboard: pairs by n / p, nodes by Tab and Enter, and the focus is visible', async () => {
  await page.click('#load-sample');
  await page.waitForFunction(() => /1218 gold links/.test(document.querySelector('#corpus-summary').innerText));
  await goToPair(5);
  await page.locator('#pair-diagram').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('n');
  assert.equal(await page.inputValue('#pair-number'), '6');
  await page.keyboard.press('p');
  assert.equal(await page.inputValue('#pair-number'), '5');
  await page.focus('#src-node-0');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#src-node-0.selected').count(), 1);
  const outline = await page.evaluate(() => getComputedStyle(document.querySelector('#src-node-0 rect')).strokeWidth);
  assert.equal(outline, '4px', 'the focused node is drawn with a thick outline');
  await page.focus('#next-pair');
  const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.equal(ring, 'solid');
});

test('nothing went wrong in the page', () => {
  assert.deepEqual(problems, []);
});
