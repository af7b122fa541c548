// Issue 28's accessibility: axe-core (every rule, the experimental ones
// included) finds no violation on the first screen, after training, in
// every mode, with a translation and with a class table; a keyboard user
// reaches a target node from the source root with a few arrow keys (not a
// Tab per node), within a tree and across to the other; links are in the
// Tab order with their description, and the arrow keys walk them; the
// scrolling boxes are focusable. At a laptop's 1366×768 and a phone's 390×844.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sample, run, openPage, goToPair, kernelOnAllPairs, openAdvanced } from './helpers.mjs';
import { LAPTOP, PHONE, assertAccessible, assertInView } from './seen.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-a11y-'));
let page, close;
const problems = [];

before(async () => {
  ({ page, close } = await openPage(problems, '#pair-diagram'));
  await page.waitForFunction(() => /: 157 pairs/.test(document.querySelector('#corpus-summary')?.innerText ?? ''));
});

after(async () => {
  await close?.();
});

async function viewport(size) {
  await page.setViewportSize(size);
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** axe-core in each mode: Inspect with a node pair selected, Align by hand with a link, Step through the search. */
async function everyMode(what) {
  await page.click('#mode-inspect');
  await assertAccessible(page, `${what}, Inspect`);
  await page.click('#src-node-0');
  await page.click('#trg-node-0');
  await page.waitForSelector('#kernel-table');
  await assertAccessible(page, `${what}, Inspect with a node pair`);
  await page.click('#clear-selection');
  await page.click('#mode-teach');
  await page.click('#src-node-0');
  await page.click('#trg-node-0');
  await assertAccessible(page, `${what}, Align by hand`);
  await page.click('#teach-clear');
  await page.click('#mode-steps');
  await assertAccessible(page, `${what}, Step through the search`);
  await page.click('#mode-inspect');
}

test('axe-core: no violation on the first screen, in every mode, after training, with a translation and a class table', async () => {
  for (const size of [LAPTOP, PHONE]) {
    await viewport(size);
    await assertAccessible(page, `${size.width}: the first screen`);
  }
  await viewport(LAPTOP);
  await everyMode('before training');
  await kernelOnAllPairs(page);
  await openAdvanced(page);
  await page.fill('#train-max-examples', '300');
  await page.click('#train');
  await page.waitForSelector('#job-note.ok', { timeout: 120000 });
  await assertAccessible(page, 'after training');
  await everyMode('after training');
  // A translation (a model from `treelink mt-train`, uploaded).
  const model = path.join(tmp, 'ms.json');
  run('mt-train', '--train', sample, '--system', 'ms', '-o', model);
  await page.setInputFiles('#file-mt-model', model);
  await page.waitForFunction(() => /RM pairs/.test(document.querySelector('#status-mt-model.ok')?.innerText ?? ''), null, { timeout: 60000 });
  await page.click('#translate-pair');
  await page.waitForSelector('#mt-nbest', { timeout: 60000 });
  await assertAccessible(page, 'with a translation');
  // A class table.
  const exercise = path.join(tmp, 'a11y.exercise.json');
  run('exercise', 'new', '--corpus', sample, '--pairs', '2,4', '--title', 'A11y', '-o', exercise);
  const links = path.join(tmp, 'ana.links');
  fs.writeFileSync(links, '0-0\n0-0\n');
  const answers = path.join(tmp, 'ana.answers.json');
  run('exercise', 'answer', exercise, links, '--student', 'Ana', '-o', answers);
  await page.setInputFiles('#file-exercise', exercise);
  await page.waitForSelector('#exercise-box');
  await page.click('#exercise-grading summary');
  await page.setInputFiles('#file-answers', answers);
  await page.waitForSelector('#class-students');
  await page.click('#exercise-check-button');
  await assertAccessible(page, 'with a class table and a check');
  await viewport(PHONE);
  await assertAccessible(page, '390: with a class table and a check');
  await viewport(LAPTOP);
  await page.click('#exercise-close');
  assert.deepEqual(problems, []);
});

test('by keyboard: arrow keys reach a target node from the source root, links are in the Tab order with their description', async () => {
  await viewport(LAPTOP);
  await page.click('#mode-inspect');
  // A long pair (55/62 words): a Tab per node would be ~100 presses.
  await goToPair(page, 4);
  const stops = await page.locator('#pair-diagram [tabindex="0"]').count();
  assert.equal(stops, 2, 'one node and one link in the Tab order');
  await page.focus('#src-node-0');
  const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
  let presses = 0;
  while (!(await focused()).startsWith('trg-node-') && presses < 40) {
    await page.keyboard.press('ArrowDown');
    presses += 1;
  }
  const reached = await focused();
  assert.match(reached, /^trg-node-\d+$/, `crossed to the target tree (${reached})`);
  assert.ok(presses < 20, `${presses} presses from the source root to the target tree`);
  await assertInView(page, `#${reached}`, 'the node reached');
  // Within the target tree: ↓ runs to its root (drawn at the bottom), ← → along a row.
  while ((await focused()) !== 'trg-node-0' && presses < 60) {
    await page.keyboard.press('ArrowDown');
    presses += 1;
  }
  assert.equal(await focused(), 'trg-node-0', 'the target root');
  await page.keyboard.press('ArrowUp');
  const child = await focused();
  await page.keyboard.press('ArrowRight');
  assert.notEqual(await focused(), child, 'its neighbour in the row');
  // Enter clicks the node; Tab goes on to the one link in the Tab order, named by its description.
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute(`#${await focused()}`, 'aria-pressed'), 'true');
  await page.focus('#pair-diagram .link-group[tabindex="0"]');
  const name = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  // (Trained above: the model's links, marked against gold.)
  const described = /^(correct predicted|wrong predicted|missed (fuzzy )?gold) link \d+-\d+: \S+ ↔ \S+/;
  assert.match(name, described);
  await page.keyboard.press('ArrowRight');
  const next = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  assert.ok(next !== name && described.test(next), `the next link (${next})`);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#kernel-table');
  // The scrolling boxes take the focus (the diagram's, the tables').
  const unfocusable = await page.evaluate(() => [...document.querySelectorAll('.diagram-scroll, .table-scroll, .inspector')]
    .filter((el) => el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth)
    .filter((el) => el.tabIndex < 0 && !el.querySelector('button, a[href], input, select, [tabindex="0"]'))
    .map((el) => el.className));
  assert.deepEqual(unfocusable, []);
  assert.deepEqual(problems, []);
});
