// A first model in seconds (issue 38, item 2): the default Train (the best
// settings chosen on the dev pairs) first shows a fast model's links on the
// built-in sample, labelled as such, then the chosen model's results replace
// them; a cancel takes the first model's links away. How fast is measured
// by scripts/page-first-model.mjs, not here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './helpers.mjs';

let page, close;
const problems = [];

before(async () => {
  ({ page, close } = await openPage(problems, '#pair-diagram'));
  await page.waitForFunction(() => /\b157 pairs\b/.test(document.querySelector('#corpus-summary')?.innerText ?? ''));
});

after(async () => {
  await close?.();
});

const text = (sel) => page.locator(sel).innerText();
/** The model's links drawn for the pair shown (right or wrong), and what the counts say. */
const drawn = async () => ({
  links: await page.locator('#pair-diagram path.link.correct, #pair-diagram path.link.wrong').count(),
  said: Number(await page.getAttribute('#pair-counts', 'data-predicted')),
});

test('the default Train shows a first model\'s links, labelled, then the chosen model\'s replace them; a cancel takes them away', async () => {
  // What the page shows, in order: the first model's label, then the job's note.
  await page.evaluate(() => {
    window.shown = [];
    new MutationObserver(() => {
      const now = document.querySelector('#pair-preview') ? 'first model' : document.querySelector('#job-note') ? 'note' : null;
      if (now && window.shown.at(-1) !== now) window.shown.push(now);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  // Cancelled once the first model is shown: its links go, nothing half done stays.
  await page.click('#train');
  await page.waitForSelector('#pair-preview', { timeout: 120000 });
  await page.click('#cancel-job');
  await page.waitForSelector('#job-note.error');
  assert.match(await text('#job-note'), /^Cancelled after/);
  assert.equal(await page.locator('#pair-preview, #results-preview').count(), 0, 'the first model\'s links went with its job');
  assert.equal(await page.locator('#pair-counts').count(), 0, 'no results: none before the job');
  assert.ok(await page.locator('#pair-diagram path.link.gold').count() > 0, 'the gold links are drawn again');

  await page.evaluate(() => { window.shown = []; });
  await page.click('#train');
  await page.waitForSelector('#pair-preview', { timeout: 120000 });
  // Labelled in the diagram's line and in the results, while the job still runs.
  assert.equal(await text('#pair-preview'), 'First model, while the best settings are chosen:');
  assert.match(await text('#results-preview'),
    /^First model, while the best settings are chosen: .*plain\+ctx\+unk\+orth\+chain\+node\+dbtk-root.*\. The best model on the dev pairs replaces it when it is done; the baseline runs with it\.$/s);
  assert.match(await text('#results-model'), /^the first model/);
  assert.equal(await page.locator('#results-baseline').count(), 0, 'no baseline for the first model');
  assert.doesNotMatch(await text('#pair-counts'), /baseline/);
  assert.equal(await page.locator('#job-note').count(), 0, 'the job still runs');
  assert.ok(await page.locator('#cancel-job').isVisible());
  const first = await drawn();
  assert.ok(first.links > 0 && first.links === first.said, JSON.stringify(first));

  // The chosen model replaces them.
  await page.waitForSelector('#job-note', { timeout: 300000 });
  assert.match(await text('#job-note'), /^Trained and aligned 157 pairs/);
  assert.equal(await page.locator('#pair-preview, #results-preview').count(), 0);
  assert.match(await text('#results-note'), /^Model: .*Configurations tried, dev F: /s);
  assert.match(await text('#pair-counts'), /\(baseline F [\d.]+\)\.$/);
  const chosen = await drawn();
  assert.ok(chosen.links > 0 && chosen.links === chosen.said, JSON.stringify(chosen));
  assert.deepEqual(await page.evaluate(() => window.shown), ['first model', 'note'], 'the first model, then the chosen one');
});

test('nothing went wrong in the page', () => {
  assert.deepEqual(problems, []);
});
