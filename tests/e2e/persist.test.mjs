// Inputs that can be trusted and work that persists (issue 14, items 7, 3
// and 5): a bad upload never replaces a good one; the page's work survives
// a reload; the URL names the pair and mode; undo and redo of hand links;
// finding a pair.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './helpers.mjs';

let page, close;
const problems = [];

before(async () => {
  ({ page, close } = await openPage(problems, '#pair-diagram'));
});

after(async () => {
  await close?.();
  assert.deepEqual(problems, []);
});

/** Picks files for one input, as a user would. */
async function pick(slot, files) {
  await page.setInputFiles(`#file-${slot}`, files.map(({ name, text }) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) })));
}

const status = (slot) => page.locator(`#status-${slot}`).innerText();

async function waitForStatus(slot, cls, pattern) {
  await page.waitForFunction(([slot, cls, source]) => {
    const el = document.querySelector(`#status-${slot}`);
    return el && el.classList.contains(cls) && new RegExp(source).test(el.innerText);
  }, [slot, cls, pattern.source], { timeout: 60000 });
}

test('a malformed lex.e2f after a good one leaves the good table in use, and says so next to its input', async () => {
  // Tables over some of the sample's words (German source, Spanish target).
  const e2f = 'años Jahre 0.8\naniversarios Jahrestage 0.7\neditorial Editorial 0.9\n';
  const f2e = 'Jahre años 0.8\nJahrestage aniversarios 0.7\nEditorial editorial 0.9\n';
  await pick('lex-s2t', [{ name: 'lex.e2f', text: e2f }]);
  await pick('lex-t2s', [{ name: 'lex.f2e', text: f2e }]);
  await waitForStatus('lex-s2t', 'ok', /lex\.e2f: 3 entries/);
  await waitForStatus('lex-t2s', 'ok', /lex\.f2e: 3 entries/);
  await pick('lex-s2t', [{ name: 'lex.e2f', text: 'años Jahre 0.8\naniversarios Jahrestage\n' }]);
  await waitForStatus('lex-s2t', 'error', /lex\.e2f:2:/);
  assert.match(await status('lex-s2t'), /still in use: lex\.e2f: 3 entries/);
  // Training uses the good tables, not the page's own lexicon.
  await page.fill('#train-max-examples', '100');
  await page.click('#train');
  await page.waitForSelector('#job-note.ok', { timeout: 180000 });
  const note = await page.locator('#results-note').innerText();
  assert.match(note, /the model's Moses tables/);
  assert.match(note, /of the baseline: the uploaded Moses tables/);
});
