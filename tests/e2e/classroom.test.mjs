// Issue 28, as a class uses the page: nothing lost (a hand link or a
// setting reloaded at once, a failed write shown with what to do, two tabs
// that never overwrite each other silently, *Leave the exercise* bringing
// back what was shown, as a reload does) at a laptop's 1366×768; the phone
// student's path at 390×844 (an exercise opened by its picker, a drop or the
// address shows the diagram, *Check* brings its marks into view, no
// instructor control, nothing wider than the screen); every drop and export
// answering where it happened; and the key staying with the instructor (the
// page's student copy is the CLI's, without a trace of the key, and its
// answers are checked against the file with the key). Each assertion is
// about what a person sees: in view, not only in the DOM.
// Screenshots: target/e2e/classroom-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, shots, download, lines, sample, run, openPage, goToPair, samplePair3, classRowAndCli, openAdvanced } from './helpers.mjs';
import { LAPTOP, PHONE, assertInView, waitInView, assertNoSidewaysScroll, assertAccessible, drop, placed } from './seen.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-classroom-'));
let page, url, close;
const problems = [];

before(async () => {
  ({ page, url, close } = await openPage(problems, '#pair-diagram'));
  await sampleShown();
});

after(async () => {
  await close?.();
  for (const f of ['e2e-class.student.exercise.json']) fs.rmSync(path.join(root, 'dist', f), { force: true });
});

const text = (sel) => page.locator(sel).innerText();
const summary = () => text('#corpus-summary');
async function sampleShown(p = page) {
  await p.waitForFunction(() => /^Built-in sample.*: 157 pairs/.test(document.querySelector('#corpus-summary')?.innerText ?? ''));
}
async function startFresh() {
  await page.click('#start-fresh');
  await sampleShown();
}
async function viewport(size, p = page) {
  await p.setViewportSize(size);
  await p.evaluate(() => window.scrollTo(0, 0));
}
const link = async (s, t, p = page) => { await p.click(`#src-node-${s}`); await p.click(`#trg-node-${t}`); };
const links = (p = page) => p.locator('#student-links li').allInnerTexts();
/** The page reloaded, the kept session restored. */
async function reload(p = page) {
  await p.reload();
  await p.waitForSelector('#pair-diagram');
  await p.waitForFunction(() => !document.querySelector('#loading'));
}

/** A phrase link of sample pair `n` (1-based) allowed after none: its root link. */
const rootLink = [0, 0];

/** Files of an exercise over sample pairs 3, 1, 5: the keyed file and the student copy, as the CLI writes them. */
function exerciseFiles() {
  const keyed = path.join(tmp, 'e2e-class.exercise.json');
  const copy = path.join(tmp, 'e2e-class.student.exercise.json');
  run('exercise', 'new', '--corpus', sample, '--pairs', '3,1,5', '--title', 'E2E class', '-o', keyed, '--student-copy', copy);
  return { keyed, copy };
}

test('nothing lost: a hand link or a setting changed just before a reload is there after it', async () => {
  await viewport(LAPTOP);
  await startFresh();
  await page.click('#mode-teach');
  // Reloaded at once after each change, as a student closing the tab would.
  for (const [k, delay] of [[2, 0], [3, 50], [4, 150]]) {
    await goToPair(page, k);
    const before = (await links()).length;
    await link(...rootLink);
    await page.waitForFunction((n) => document.querySelectorAll('#student-links li').length === n + 1, before);
    await page.waitForTimeout(delay);
    await reload();
    assert.equal(await page.inputValue('#pair-number'), String(k), `the pair (reloaded ${delay} ms after)`);
    assert.equal((await links()).length, before + 1, `the link made ${delay} ms before the reload is kept`);
    await assertInView(page, '#student-links', 'the hand links after the reload');
  }
  // A setting, reloaded at once.
  await openAdvanced(page);
  await page.fill('#train-seed', '17');
  await page.waitForFunction(() => document.querySelector('#train-seed').value === '17');
  await reload();
  assert.equal(await page.inputValue('#train-seed'), '17', 'the setting is kept');
  assert.deepEqual(problems, []);
});

test('nothing lost: a write the browser refuses is shown, in view, with what to do; trying again keeps the work', async () => {
  await viewport(LAPTOP);
  await goToPair(page, 6);
  // The browser refuses every write from now on (a full disk, a private window).
  await page.evaluate(() => {
    window.realPut = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function () { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };
  });
  await link(...rootLink);
  await page.waitForSelector('#keeping');
  // Said above the diagram where the link was made, in the flow (it covers
  // nothing), the diagram still in view; and under it.
  await page.mouse.move(0, 0);
  await assertInView(page, '#keeping', 'the failed write');
  await assertInView(page, '.diagram-scroll', 'the diagram, with the failed write');
  await assertInView(page, '#hover-info', 'the failed write, under the diagram');
  assert.match(await text('#hover-info'), /^⚠ Your work is not kept in this browser: what to do is said above the diagram/);
  const said = await text('#keeping');
  assert.match(said, /Your work is not kept in this browser: The quota has been exceeded\. \(QuotaExceededError\)/);
  assert.match(said, /export your links/);
  await assertInView(page, '#keep-again', 'what to do: try again');
  await page.screenshot({ path: path.join(shots, 'classroom-not-kept.png') });
  await page.evaluate(() => { IDBObjectStore.prototype.put = window.realPut; });
  await page.click('#keep-again');
  await page.waitForSelector('#keeping', { state: 'detached' });
  await reload();
  await goToPair(page, 6);
  assert.equal((await links()).length, 1, 'kept once the browser writes again');
  assert.deepEqual(problems, []);
});

test('nothing lost: two tabs never overwrite each other silently', async () => {
  await viewport(LAPTOP);
  await goToPair(page, 7);
  const other = await page.context().newPage();
  other.on('pageerror', (e) => problems.push(`page error (second tab): ${e.message}`));
  await other.setViewportSize(LAPTOP);
  await other.goto(`${url}#pair=7&mode=teach`);
  await other.waitForSelector('#pair-diagram');
  await other.waitForFunction(() => !document.querySelector('#loading'));
  // Both tabs show the kept work; each makes a change: a link on pair 7 here, one on pair 8 there.
  await link(...rootLink);
  await page.waitForFunction(() => document.querySelectorAll('#student-links li').length === 1);
  await page.waitForTimeout(300);
  await goToPair(other, 8);
  await link(...rootLink, other);
  // The second tab's change would overwrite the first's: it is not written, and it says so.
  await other.waitForSelector('#keeping');
  await assertInView(other, '#keeping', 'the second tab');
  assert.match(await other.locator('#keeping').innerText(), /Another tab or window changed the work/);
  // The banner never covers the diagram: scrolled to it, each node drawn is what a click there hits (issue 43).
  await other.evaluate(() => document.querySelector('.diagram-scroll').scrollIntoView());
  const covered = await other.evaluate(() => [...document.querySelectorAll('#pair-diagram g.node')].filter((g) => {
    const r = g.querySelector('rect:not(.node-hit)').getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    // Drawn where its box shows it (not panned out of it), on the screen.
    const box = document.querySelector('.diagram-scroll').getBoundingClientRect();
    const top = Math.max(0, box.top), left = Math.max(0, box.left);
    if (x < left || y < top || x > Math.min(innerWidth, box.right) || y > Math.min(innerHeight, box.bottom)) return false;
    return !g.contains(document.elementFromPoint(x, y));
  }).map((g) => g.id));
  assert.deepEqual(covered, [], 'nodes under something else in the second tab');
  await assertAccessible(other, 'the second tab, scrolled to the diagram');
  await other.evaluate(() => window.scrollTo(0, 0));
  await other.screenshot({ path: path.join(shots, 'classroom-other-tab.png') });
  // Its user keeps this tab's work: written over the other's, on purpose.
  await other.click('#keep-this');
  await other.waitForSelector('#keeping', { state: 'detached' });
  // The first tab's next change is refused in turn; it loads what the other kept.
  await page.click('#teach-clear');
  await page.waitForSelector('#keeping');
  await assertInView(page, '#keeping', 'the first tab');
  await Promise.all([page.waitForNavigation(), page.click('#load-kept')]);
  await page.waitForSelector('#pair-diagram');
  await page.waitForFunction(() => !document.querySelector('#loading'));
  // (The address still names pair 7: it wins over the kept pair.)
  await goToPair(page, 8);
  assert.equal((await links()).length, 1, "the second tab's link");
  await goToPair(page, 7);
  assert.equal((await links()).length, 0, "the first tab's link was not kept: the second tab's work replaced it, as asked");
  await other.close();
  assert.deepEqual(problems, []);
});

test('nothing lost: leaving an exercise brings back the pairs, links, pair and mode shown before it, as a reload does', async () => {
  await viewport(LAPTOP);
  await startFresh();
  await page.click('#mode-teach');
  await goToPair(page, 9);
  await link(...rootLink);
  const before = { summary: await summary(), links: await links() };
  const { keyed } = exerciseFiles();
  await page.setInputFiles('#file-exercise', keyed);
  await page.waitForSelector('#exercise-box');
  assert.match(await summary(), /^Exercise 'E2E class'/);
  await link(...rootLink);
  // Reloaded in the exercise: the exercise, with its link.
  await reload();
  await page.waitForSelector('#exercise-box');
  assert.equal((await links()).length, 1);
  assert.equal(await text('#exercise-close'), 'Leave the exercise (back to the built-in sample)');
  await page.click('#exercise-close');
  await page.waitForSelector('#exercise-box', { state: 'detached' });
  const shown = { summary: await summary(), links: await links(), pair: await page.inputValue('#pair-number') };
  assert.deepEqual(shown, { ...before, pair: '9' }, 'what was shown before the exercise');
  await assertInView(page, '#student-links', 'the hand links brought back');
  await reload();
  assert.deepEqual({ summary: await summary(), links: await links(), pair: await page.inputValue('#pair-number') }, shown,
    'a reload shows what is shown');
  // The exercise again: its own link comes back with it.
  await page.setInputFiles('#file-exercise', keyed);
  await page.waitForSelector('#exercise-box');
  assert.equal((await links()).length, 1, "the exercise's link, kept when it was left");
  await page.click('#exercise-close');
  assert.deepEqual(problems, []);
});

/**
 * At a phone's size, what a finger taps in the diagram is at least 24 × 24
 * px (WCAG 2.2's target size): each node (its box or its wider target) and
 * each link (its stroke); the zoom tools too; no fold control is offered
 * beside a node; words are drawn at 12 px or more.
 */
async function assertTouchSized(what, { links = true } = {}) {
  const sizes = await page.evaluate(() => {
    const svg = document.querySelector('#pair-diagram');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const nodes = [...svg.querySelectorAll('g.node')].map((g) => {
      const rs = [...g.querySelectorAll('rect')].map((r) => r.getBoundingClientRect());
      return { id: g.id, w: Math.max(...rs.map((r) => r.width)), h: Math.max(...rs.map((r) => r.height)) };
    });
    const links = [...svg.querySelectorAll('path.link-hit')].map((p) => parseFloat(getComputedStyle(p).strokeWidth) * scale);
    const tools = [...document.querySelectorAll('#diagram-figure .zoom-tools button')].map((b) => {
      const r = b.getBoundingClientRect();
      return { id: b.id, w: r.width, h: r.height };
    });
    const folds = [...svg.querySelectorAll('g.fold')].filter((f) => f.getBoundingClientRect().width > 0).length;
    const words = [...svg.querySelectorAll('text.word')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    return { nodes, links, tools, folds, words };
  });
  const small = sizes.nodes.filter((n) => n.w < 24 || n.h < 24);
  assert.deepEqual(small, [], `${what}: node targets under 24 px`);
  assert.ok((sizes.links.length > 0 || !links) && sizes.links.every((w) => w >= 24), `${what}: link targets ${sizes.links}`);
  assert.deepEqual(sizes.tools.filter((b) => b.w < 24 || b.h < 24), [], `${what}: zoom tools under 24 px`);
  assert.equal(sizes.folds, 0, `${what}: fold controls shown`);
  assert.ok(Math.min(...sizes.words) >= 12, `${what}: words at ${Math.min(...sizes.words)} px`);
}

test("the phone student's path: each way of opening shows the diagram, a tap never moves it away, targets a finger can hit, no instructor control, nothing wider than the screen", async () => {
  const { keyed, copy } = exerciseFiles();
  await viewport(PHONE);
  await startFresh();
  const diagramShown = async (how) => {
    await page.waitForSelector('#exercise-box');
    await page.waitForTimeout(300);
    const p = await placed(page, '.diagram-scroll');
    assert.ok(p.top >= -1 && p.top < p.height / 2 && p.bottom > p.height / 2,
      `${how}: the diagram fills the screen's middle (${JSON.stringify(p)})`);
    await assertNoSidewaysScroll(page, how);
    // The first pair opens with its roots in view, not its left edge (issue 43).
    for (const root of ['#src-node-0', '#trg-node-0']) {
      const r = await placed(page, root);
      assert.ok(r.left >= p.left - 1 && r.right <= p.right + 1, `${how}: ${root} in the diagram's box (${JSON.stringify([r, p])})`);
    }
  };
  // 1. By its picker, at the bottom of the page (4,000 px below the diagram).
  await page.locator('#file-exercise').scrollIntoViewIfNeeded();
  await page.setInputFiles('#file-exercise', keyed);
  await diagramShown('opened by its picker');
  await page.screenshot({ path: path.join(shots, 'classroom-phone-opened.png') });
  // What a finger taps is 24 × 24 px at least, and words are 12 px or more (issue 43).
  await assertTouchSized('the first pair of the exercise', { links: false });
  // Linking, undoing and checking never move the diagram away; what each
  // tap did is said under it, in view with it (issue 43).
  const diagramStays = async (what, said) => {
    await page.mouse.move(0, 0); // a finger lifts: nothing stays hovered
    await page.waitForFunction((said) => new RegExp(said).test(document.querySelector('#hover-info').innerText), said.source, { timeout: 5000 })
      .catch(async (e) => assert.fail(`${what}: the line under the diagram says ${await text('#hover-info')}`));
    await page.waitForTimeout(300); // a scroll the tap might start
    await assertInView(page, '.diagram-scroll', `${what}: the diagram`);
    await assertInView(page, '#hover-info', `${what}: what it did`);
  };
  await link(...rootLink);
  await diagramStays('a link', /^✓ Linked/);
  await assertTouchSized('with a link');
  await page.click('#teach-undo');
  await diagramStays('undo', /^✓ Undone/);
  await link(...rootLink);
  await page.click('#exercise-check-button');
  await diagramStays('Check', /^Pair 1 checked: 1 correct, 0 wrong, \d+ missed, marked on the links/);
  await assertInView(page, '#pair-diagram path.link[data-status=correct]', "Check's mark on the diagram");
  await page.screenshot({ path: path.join(shots, 'classroom-phone-check-diagram.png') });
  // The marks' list is in the exercise box below.
  await page.locator('#exercise-check').scrollIntoViewIfNeeded();
  await waitInView(page, '#exercise-marks .mark-correct', "Check's first mark");
  // The scores fit the exercise's box; no instructor control on the student's path.
  const fits = await page.evaluate(() => document.querySelector('#exercise-scores').getBoundingClientRect().right
    <= document.querySelector('#exercise-box').getBoundingClientRect().right + 1);
  assert.ok(fits, "the P/R/F table fits the exercise's box");
  await assertNoSidewaysScroll(page, 'after Check');
  await page.screenshot({ path: path.join(shots, 'classroom-phone-checked.png') });
  for (const sel of ['#teach-vs-model', '#file-answers', '#exercise-export', '#exercise-pairs']) {
    assert.equal(await page.locator(sel).isVisible(), false, `a student sees no ${sel}`);
  }
  // 2. By a drop on the Data panel: the student copy, which cannot be checked.
  await page.locator('#loader').scrollIntoViewIfNeeded();
  await drop(page, '#loader', [{ name: 'e2e-class.student.exercise.json', text: fs.readFileSync(copy, 'utf8') }]);
  await page.waitForFunction(() => /student copy/.test(document.querySelector('#exercise-kind')?.innerText ?? ''));
  await diagramShown('opened by a drop');
  // Which kind of file is open: said above the diagram (in view), and in the exercise box below it.
  await assertInView(page, '#exercise-line', 'which kind of file is open');
  assert.match(await text('#exercise-line'), /^Exercise 'E2E class' \(e2e-class\.student\.exercise\.json\): a student copy, without the key/);
  assert.match(await text('#exercise-kind'), /A student copy, without the key: .* export your answers for your instructor/);
  assert.equal(await page.locator('#exercise-check-button').count(), 0, 'no Check without the key');
  assert.equal(await page.locator('#exercise-grading').count(), 0, 'no answers input');
  // 3. By the address, from a file on the same site.
  fs.copyFileSync(copy, path.join(root, 'dist', 'e2e-class.student.exercise.json'));
  await startFresh();
  await page.goto(`${url}?exercise=e2e-class.student.exercise.json`);
  await diagramShown('opened by the address');
  await assertNoSidewaysScroll(page, 'the address');
  await page.click('#exercise-close');
  assert.deepEqual(problems, []);
});

test('every drop and export answers where it happened: what was read, what it made, a link to it; a drop that waits says why', async () => {
  const { keyed } = exerciseFiles();
  await viewport(LAPTOP);
  await startFresh();
  // Answers made on the copy, by two students (the CLI's answer files).
  const keyLines = (n) => lines(`${sample}.gold`)[n - 1];
  const answersFile = (student, linksText) => {
    const l = path.join(tmp, `${student}.links`);
    fs.writeFileSync(l, linksText);
    const out = path.join(tmp, `${student}.answers.json`);
    run('exercise', 'answer', keyed, l, '--student', student, '-o', out);
    return { name: `${student}.answers.json`, text: fs.readFileSync(out, 'utf8') };
  };
  const ana = answersFile('ana', `${keyLines(3).replaceAll('?', '')}\n0-0\n\n`);
  const ben = answersFile('ben', '0-0\n\n0-0\n');
  // Answers before their exercise: they wait, and say why, where they were dropped.
  await page.locator('#loader').scrollIntoViewIfNeeded();
  await drop(page, '#loader', [ana]);
  await page.waitForFunction(() => /waiting for their exercise/.test(document.querySelector('#drop-report')?.innerText ?? ''));
  await assertInView(page, '#drop-report', 'answers dropped before their exercise');
  assert.match(await text('#drop-report'), /ana\.answers\.json → Students' answers.*: ✗ waiting for their exercise: open their exercise \(the file with the key\)/);
  // A file that fits no input: said there too.
  await drop(page, '#loader', [{ name: 'notes.txt', text: 'hello' }]);
  await page.waitForFunction(() => /notes\.txt: ✗ notes\.txt: expected a \.src/.test(document.querySelector('#drop-report')?.innerText ?? ''));
  await assertInView(page, '#drop-report', 'a file that fits no input');
  // The exercise opens (the diagram comes into view) and the waiting answers are checked.
  await page.setInputFiles('#file-exercise', keyed);
  await page.waitForSelector('#exercise-box');
  await page.waitForSelector('#class-students');
  // The second student's answers, dropped: the report says what they made, with a link to it.
  await page.locator('#loader').scrollIntoViewIfNeeded();
  await drop(page, '#loader', [ben]);
  await page.waitForFunction(() => /✓ 2 answers files checked against e2e-class\.exercise\.json/.test(document.querySelector('#drop-report')?.innerText ?? ''));
  await assertInView(page, '#drop-report', 'answers dropped');
  await page.screenshot({ path: path.join(shots, 'classroom-drop.png') });
  await page.click('#drop-report a.built');
  await waitInView(page, '#class-students caption', 'the class table, after its link');
  assert.match(await text('#class-students caption'), /Class: 2 students/);
  await page.click('#exercise-close');
  // Trees dropped: the report links to the pairs shown.
  await page.locator('#loader').scrollIntoViewIfNeeded();
  await drop(page, '#loader', [{ name: 'x.src', text: '(S (A a))\n' }, { name: 'x.trg', text: '(T (B b))\n' }]);
  await page.waitForFunction(() => /See the pairs shown/.test(document.querySelector('#drop-report')?.innerText ?? ''));
  await assertInView(page, '#drop-report', 'trees dropped');
  await startFresh();
  // Exports: an exercise with no pairs says what to give; one with pairs says what it made.
  await page.locator('#exercise-export').scrollIntoViewIfNeeded();
  await page.fill('#exercise-pairs', '');
  await page.click('#exercise-export');
  await waitInView(page, '#exercise-form-error', 'an exercise of no pairs');
  assert.equal(await text('#exercise-form-error'), '✗ an exercise needs at least one pair: give pair numbers from 1 to 157');
  await page.fill('#exercise-pairs', '3, 1');
  await page.fill('#exercise-title', 'Said');
  const made = await download(page, '#exercise-export');
  await waitInView(page, '#exercise-exported', 'the exercise exported');
  assert.match(await text('#exercise-exported'), new RegExp(`^✓ Downloaded ${made.name.replace('.', '\\.')}: 'Said', 2 pairs, key of \\d+ links \\(hidden\\) \\(pairs 3, 1\\)`));
  // The Export panel: each file says what it holds, by its button.
  await page.locator('#export-svg').scrollIntoViewIfNeeded();
  const svg = await download(page, '#export-svg');
  await waitInView(page, '#export-note', 'the diagram exported');
  assert.equal(await text('#export-note'), `✓ Downloaded ${svg.name}: pair 1 as the diagram draws it (folded as shown), with its 1 link.`);
  assert.deepEqual(problems, []);
});

test('the key stays with the instructor: the page writes the student copy the CLI writes, and it leaks nothing of the key', async () => {
  const { keyed, copy } = exerciseFiles();
  await viewport(LAPTOP);
  await startFresh();
  await page.locator('#exercise-pairs').scrollIntoViewIfNeeded();
  await page.fill('#exercise-pairs', '3, 1, 5');
  await page.fill('#exercise-title', 'E2E class');
  await page.fill('#exercise-instructions', '');
  const student = await download(page, '#exercise-export-student');
  assert.equal(student.name, 'e2e-class.student.exercise.json');
  assert.equal(student.body, fs.readFileSync(copy, 'utf8'), "the page's copy is the CLI's");
  await waitInView(page, '#exercise-exported', 'the student copy exported');
  assert.match(await text('#exercise-exported'), /a student copy without the key \(pairs 3, 1, 5\); answers to it are checked against e2e-class\.exercise\.json, the file with the key\.$/);
  // Nothing of the key: no key field, not one key line of the keyed file.
  const json = JSON.parse(student.body);
  assert.equal(json.key_withheld, true);
  assert.ok(json.pairs.every((p) => !('key' in p)), 'no key in any pair');
  for (const p of JSON.parse(fs.readFileSync(keyed, 'utf8')).pairs) assert.ok(!student.body.includes(`"${p.key}"`), p.key);
  // A student opens it: the page says which kind it is; answers exported from it check against the keyed file.
  await page.setInputFiles('#file-exercise', { name: student.name, mimeType: 'application/json', buffer: Buffer.from(student.body) });
  await page.waitForSelector('#exercise-kind');
  await assertInView(page, '#exercise-kind', 'the kind of file open');
  assert.match(await text('#status-exercise'), /a student copy without the key/);
  const [a, b] = samplePair3().below;
  await link(0, 0);
  await link(a, b);
  await page.fill('#exercise-student', 'Cleo');
  const answers = await download(page, '#exercise-answers');
  const answersFile = path.join(tmp, answers.name);
  fs.writeFileSync(answersFile, answers.body);
  // The instructor: the keyed file, then the answers: the class table equals `treelink exercise check`.
  await page.setInputFiles('#file-exercise', keyed);
  await page.waitForFunction(() => /key of \d+ links/.test(document.querySelector('#status-exercise')?.innerText ?? ''));
  await page.click('#exercise-grading summary');
  await page.setInputFiles('#file-answers', answersFile);
  await page.waitForSelector('#class-students');
  const { row, cli } = await classRowAndCli(page, keyed, answersFile, 'Cleo');
  assert.deepEqual(row, cli);
  assert.equal(row[1], '2', 'both links are correct against the key');
  await page.click('#exercise-close');
  assert.deepEqual(problems, []);
});
