// An exercise's round trip in the page, as a class would make it: the
// instructor picks three sample pairs (by number, and by adding what the
// find box finds) and exports the exercise; a student opens it (the file
// input), aligns by hand with one deliberately wrong link, checks (each
// link marked against the hidden key; the marks in view at 1366×768 and at
// 390×844) and exports the answers; a second student opens it by the
// page's address (?exercise=FILE.json on the same site); the instructor
// drops both answers files and reads the class table, whose rows (per
// student, per pair, the links most got wrong) equal `treelink exercise
// check` on the same files. An exercise with its key shown draws the key.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, shots, download, lines, sample, run, openPage, goToPair, samplePair3 } from './helpers.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-exercise-'));
let page, url, close;
const problems = [];

before(async () => {
  ({ page, url, close } = await openPage(problems, '#pair-diagram'));
});

after(async () => {
  await close?.();
  for (const f of ['e2e-week.exercise.json']) fs.rmSync(path.join(root, 'dist', f), { force: true });
});

const text = (sel) => page.locator(sel).innerText();
const link = async (s, t) => { await page.click(`#src-node-${s}`); await page.click(`#trg-node-${t}`); };

test('instructor → student → class table, with the same scores as treelink exercise check', async () => {
  // The instructor: a bad pair number is refused next to the form.
  await page.fill('#exercise-pairs', '3, 999');
  await page.click('#exercise-export');
  assert.match(await text('#exercise-form-error'), /pair 999 does not exist: the treebank has pairs 1 to 157/);
  // Pairs by number and by search: pair 1 with its own button in the find
  // box's results, then every pair with the word “zurück” (3 and 5; 3 is
  // listed already), all at once.
  await page.fill('#exercise-pairs', '3');
  await page.fill('#find-pair', '1');
  await page.click('#find-results li:has-text("Pair 1") button.find-add');
  await page.waitForFunction(() => document.querySelector('#exercise-pairs').value === '3, 1');
  await page.fill('#find-pair', 'zurück');
  await page.waitForFunction(() => /^2 pairs found/.test(document.querySelector('#find-summary').innerText));
  assert.equal(await text('#find-add-exercise'), 'Add these 2 pairs to the exercise');
  await page.click('#find-add-exercise');
  await page.waitForFunction(() => document.querySelector('#exercise-pairs').value === '3, 1, 5');
  assert.equal(await text('#find-added'), "1 pair added to the exercise's pairs (1 listed already): 3, 1, 5");
  await page.fill('#find-pair', '');
  await page.fill('#exercise-title', 'E2E week');
  await page.fill('#exercise-instructions', 'Link the noun phrases. <b>not bold</b>');
  const exercise = await download(page, '#exercise-export');
  assert.equal(exercise.name, 'e2e-week.exercise.json');
  const exFile = path.join(tmp, exercise.name);
  fs.writeFileSync(exFile, exercise.body);
  // The page's file equals the CLI's for the same pairs, title and text.
  const cliEx = path.join(tmp, 'cli.exercise.json');
  run('exercise', 'new', '--corpus', sample, '--pairs', '3,1,5', '--title', 'E2E week',
    '--instructions', 'Link the noun phrases. <b>not bold</b>', '-o', cliEx);
  assert.equal(exercise.body, fs.readFileSync(cliEx, 'utf8'));

  // A student opens it: three pairs, teaching mode, the key hidden.
  await page.setInputFiles('#file-exercise', exFile);
  await page.waitForFunction(() => /3 pairs, key of \d+ links \(hidden\)/.test(document.querySelector('#status-exercise')?.innerText ?? ''));
  assert.match(await text('#corpus-summary'), /Exercise 'E2E week'.*: 3 pairs, \d+ nodes, 0 gold links/);
  assert.equal(await page.getAttribute('#mode-teach', 'aria-pressed'), 'true');
  assert.equal(await text('#exercise-instructions-text'), 'Link the noun phrases. <b>not bold</b>');
  assert.equal(await page.locator('#exercise-instructions-text b').count(), 0, 'instructions are text');
  assert.equal(await page.locator('#teach-reveal').count(), 0, 'no way to show the hidden key');
  const { src, trg, gold, below: [a, b] } = samplePair3();
  // A phrase pair that is no key link, and that the criteria allow after (0,0) and (a,b).
  await link(0, 0);
  await link(a, b);
  // A deliberately wrong link: a phrase pair that is no key link, placed
  // as the criteria allow after (0,0) and (a,b) (below both or beside both).
  const key = new Set(gold.map(([s, t]) => `${s}-${t}`));
  const where = (t, n, m) => (t.below(m, n) ? 'below' : t.below(n, m) ? 'above' : 'apart');
  let wrong;
  for (let s = 1; s < src.nodes.length && !wrong; s++) {
    for (let t = 1; t < trg.nodes.length && !wrong; t++) {
      if (s !== a && t !== b && src.phrase(s) && trg.phrase(t) && !key.has(`${s}-${t}`) && where(src, s, a) === where(trg, t, b)) wrong = [s, t];
    }
  }
  await link(...wrong);
  assert.equal(await page.locator('#student-links li').count(), 3, 'the wrong link is drawn, not refused');
  await page.fill('#exercise-student', 'Ana');
  const keyPhrase = gold.filter(([s, t]) => src.phrase(s) && trg.phrase(t)).length;
  // At a laptop's and a phone's size: Check's marks come into view (on a
  // phone the diagram's, with what Check found said under it; the list is
  // below), the wrong link marked wrong.
  for (const size of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click('#exercise-check-button');
    await page.waitForSelector('#exercise-marks');
    await page.waitForTimeout(300); // the scroll into view
    const seen = size.width > 1000 ? ['#exercise-check h3', '#exercise-marks .mark-wrong']
      : ['.diagram-scroll', '#hover-info'];
    if (size.width <= 1000) assert.match(await page.locator('#hover-info').innerText(), /^Pair 1 checked: 2 correct, 1 wrong, \d+ missed/);
    const inView = await page.evaluate((seen) => seen.map((sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      return r.height > 0 && r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
    }), seen);
    assert.deepEqual(inView, seen.map(() => true), `Check's feedback (${seen}) is in the viewport at ${size.width}×${size.height}`);
    const marks = await page.locator('#exercise-marks li').allInnerTexts();
    assert.equal(marks.filter((m) => m.startsWith('✓ correct')).length, 2, marks.join('\n'));
    assert.equal(marks.filter((m) => m.startsWith('○ missed')).length, keyPhrase - 2);
    const wrongMarks = marks.filter((m) => m.startsWith('✗ wrong'));
    assert.equal(wrongMarks.length, 1, marks.join('\n'));
    assert.match(wrongMarks[0], new RegExp(`\\(${wrong[0]}\\) ↔ .* \\(${wrong[1]}\\)$`));
    // Marked on the diagram too: correct, wrong and missed links.
    assert.equal(await page.locator('#pair-diagram path.link[data-status=correct]').count(), 2);
    assert.equal(await page.locator('#pair-diagram path.link[data-status=wrong]').count(), 1);
    assert.equal(await page.locator('#pair-diagram path.link[data-status=missed]').count(), keyPhrase - 2);
    if (size.width > 1000) await page.locator('#workbench').screenshot({ path: path.join(shots, 'exercise-check.png') });
  }
  await page.setViewportSize({ width: 1500, height: 1000 });
  const ana = await download(page, '#exercise-answers');
  assert.equal(ana.name, 'e2e-week.ana.answers.json');
  const anaFile = path.join(tmp, ana.name);
  fs.writeFileSync(anaFile, ana.body);

  // A second student opens it by the address, from a file on the same site.
  fs.copyFileSync(exFile, path.join(root, 'dist', 'e2e-week.exercise.json'));
  // Another student's browser: nothing kept from Ana's visit.
  const fresh = async () => {
    await page.click('#start-fresh');
    await page.waitForFunction(() => /^Built-in sample/.test(document.querySelector('#corpus-summary').innerText));
  };
  await fresh();
  await page.goto(`${url}?exercise=e2e-week.exercise.json`);
  await page.waitForFunction(() => /3 pairs, key of/.test(document.querySelector('#status-exercise')?.innerText ?? ''));
  await link(0, 0);
  await page.waitForFunction(() => /^Exercise 'E2E week'/.test(document.querySelector('#corpus-summary')?.innerText ?? ''));
  await page.fill('#exercise-student', 'Ben');
  const ben = await download(page, '#exercise-answers');
  const benFile = path.join(tmp, ben.name);
  fs.writeFileSync(benFile, ben.body);
  // A missing file by address: the error sits next to the exercise input.
  await fresh();
  await page.goto(`${url}?exercise=no-such.json`);
  await page.waitForFunction(() => /no-such\.json: cannot open the exercise: the site answered HTTP 404/.test(document.querySelector('#status-exercise')?.innerText ?? ''));
  // The browser logs that 404 itself; it is the one expected.
  const logged = problems.findIndex((p) => /status of 404/.test(p));
  assert.ok(logged >= 0, problems.join('\n'));
  problems.splice(logged, 1);

  // The instructor: the exercise, then both answers files, make the class table.
  await page.setInputFiles('#file-exercise', exFile);
  await page.click('#exercise-grading summary');
  await page.waitForSelector('#file-answers');
  await page.setInputFiles('#file-answers', [anaFile, benFile]);
  await page.waitForSelector('#class-students');
  const rows = await page.locator('#class-students tbody tr').allInnerTexts();
  const table = run('exercise', 'check', exFile, anaFile, benFile);
  for (const student of ['Ana', 'Ben']) {
    const cliRow = table.split('\n').find((l) => l.startsWith(`${student}\t`)).split('\t');
    const pageRow = rows.find((r) => r.startsWith(student)).split('\t').map((c) => c.trim());
    // correct, drawn, key, P, R, F
    assert.deepEqual(pageRow.slice(1), [cliRow[5], cliRow[6], cliRow[7], cliRow[2], cliRow[3], cliRow[4]], `${student}: ${pageRow} vs ${cliRow}`);
  }
  // The per-pair rows and the links most students got wrong: the CLI's, row for row.
  const section = (title) => {
    const all = table.split('\n');
    const start = all.findIndex((l) => l.startsWith(`# ${title}`)) + 2; // the title, then the header
    const end = all.findIndex((l, i) => i >= start && l.startsWith('#'));
    return all.slice(start, end < 0 ? all.length : end).filter(Boolean).map((l) => l.split('\t'));
  };
  const cells = (sel) => page.locator(`${sel} tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText.trim())));
  const cliPairs = section('pairs');
  assert.deepEqual(cliPairs.map((r) => r[0]), ['3', '1', '5']);
  assert.deepEqual(await cells('#class-pairs'), cliPairs.map((r) => [r[0], r[4], r[5], r[6], r[1], r[2], r[3]]));
  const cliHardest = section('links most students');
  assert.ok(cliHardest.length > 0, table);
  assert.deepEqual(await cells('#class-hardest'), cliHardest);
  await page.locator('#exercise-panel').screenshot({ path: path.join(shots, 'exercise-class.png') });
  assert.deepEqual(problems, []);
});

test('an exercise with the key shown: the same file as the CLI\'s, and the key drawn as gold links', async () => {
  await page.click('#start-fresh');
  await page.waitForFunction(() => /^Built-in sample/.test(document.querySelector('#corpus-summary').innerText));
  await page.fill('#exercise-pairs', '2, 4');
  await page.fill('#exercise-title', 'Shown key');
  await page.check('#exercise-show-gold');
  const exercise = await download(page, '#exercise-export');
  const cliEx = path.join(tmp, 'shown.exercise.json');
  const instructions = await page.inputValue('#exercise-instructions');
  run('exercise', 'new', '--corpus', sample, '--pairs', '2,4', '--title', 'Shown key', '--instructions', instructions, '--show-gold', '-o', cliEx);
  assert.equal(exercise.body, fs.readFileSync(cliEx, 'utf8'));
  const exFile = path.join(tmp, exercise.name);
  fs.writeFileSync(exFile, exercise.body);
  await page.setInputFiles('#file-exercise', exFile);
  await page.waitForFunction(() => /2 pairs, key of \d+ links \(shown\)/.test(document.querySelector('#status-exercise')?.innerText ?? ''));
  // The exercise box says which kind of file is open (issue 28): the key, shown.
  assert.match(await text('#exercise-kind'), /with its key, shown while you align/);
  // The exercise's pairs are the sample's pairs 2 and 4: their gold links are drawn.
  for (const [k, n] of [[1, 2], [2, 4]]) {
    await goToPair(page, k);
    const gold = lines(`${sample}.gold`)[n - 1].split(' ').filter(Boolean);
    assert.equal(await page.locator('#pair-diagram path.link.gold').count(), gold.length, `exercise pair ${k}`);
  }
  await page.click('#exercise-close');
  assert.deepEqual(problems, []);
});
