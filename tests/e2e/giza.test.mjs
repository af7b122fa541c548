// GIZA++ t-tables of word ids with their two .vcb vocabularies in the page
// (issue 40, item 6), as `--lex-s2t F --lex-t2s F --vcb S.vcb T.vcb`: a
// table of ids before its vocabularies is refused in words and the tables
// in use stay; the two vocabularies, given in either order, are told apart
// by the pairs' words; the tables then read, and report the entries and
// coverage the Moses tables of the same entries report.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lines, openPage, sample, tree } from './helpers.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-e2e-giza-'));

let page, close;
const problems = [];

before(async () => {
  ({ page, close } = await openPage(problems, '#pair-diagram'));
});

after(async () => {
  await close?.();
  assert.deepEqual(problems, []);
});

const text = (sel) => page.locator(sel).innerText();
const words = (file) => lines(file).map((l) => tree(l).nodes.filter((n) => n.word !== undefined).map((n) => n.word));

/**
 * The same entries as Moses tables of words and as GIZA++ tables of ids
 * with their vocabularies (ids from 2, in order of first occurrence), from
 * the sample's first 40 pairs: word k of the source with word k of the target.
 */
function tables() {
  const [src, trg] = [words(`${sample}.src`), words(`${sample}.trg`)];
  const vocab = (sentences) => {
    const ids = new Map();
    for (const w of sentences.flat()) if (!ids.has(w)) ids.set(w, ids.size + 2);
    return ids;
  };
  const [sv, tv] = [vocab(src), vocab(trg)];
  const pairs = new Map();
  const digits = /^\d+$/; // a Moses table starting with numbers would read as ids
  for (let k = 0; k < 40; k++) {
    for (let i = 0; i < Math.min(src[k].length, trg[k].length); i++) {
      const [s, t] = [src[k][i], trg[k][i]];
      if (!digits.test(s) && !digits.test(t)) pairs.set(`${s} ${t}`, [s, t]);
    }
  }
  const bySource = new Map();
  const byTarget = new Map();
  for (const [s, t] of pairs.values()) {
    bySource.set(s, (bySource.get(s) ?? 0) + 1);
    byTarget.set(t, (byTarget.get(t) ?? 0) + 1);
  }
  const p = (n) => String(1 / n);
  const entries = [...pairs.values()];
  const files = {
    'lex.e2f': entries.map(([s, t]) => `${t} ${s} ${p(bySource.get(s))}`),
    'lex.f2e': entries.map(([s, t]) => `${s} ${t} ${p(byTarget.get(t))}`),
    // GIZA++ -s src.vcb -t trg.vcb: `s t p(t|s)`; the other way: `t s p(s|t)`.
    's2t.t3.final': entries.map(([s, t]) => `${sv.get(s)} ${tv.get(t)} ${p(bySource.get(s))}`),
    't2s.t3.final': entries.map(([s, t]) => `${tv.get(t)} ${sv.get(s)} ${p(byTarget.get(t))}`),
    'de.vcb': [...sv].map(([w, id]) => `${id} ${w} 1`),
    'es.vcb': [...tv].map(([w, id]) => `${id} ${w} 1`),
  };
  const paths = {};
  for (const [name, body] of Object.entries(files)) {
    paths[name] = path.join(tmp, name);
    fs.writeFileSync(paths[name], body.join('\n') + '\n');
  }
  return { paths, entries: entries.length, sourceTypes: sv.size, targetTypes: tv.size };
}

/** Gives `file` to input `slot` and waits for its status to name it. */
async function give(slot, files, name) {
  await page.setInputFiles(`#file-${slot}`, files);
  await page.waitForFunction(([id, name]) => {
    const status = document.querySelector(`#status-${id}`)?.innerText ?? '';
    return status.includes(name) && !status.includes('checking');
  }, [slot, name], { timeout: 30000 }).catch(async (e) => {
    // Say what the page showed instead.
    const shown = await page.evaluate(() => [...document.querySelectorAll('#loader .status')].map((s) => `${s.id}: ${s.innerText}`));
    throw new Error(`${e.message}\nthe Data panel's statuses:\n${shown.join('\n')}`);
  });
  return text(`#status-${slot}`);
}

test('GIZA++ id tables wait for their two vocabularies, then report what the Moses tables of the same entries do', async () => {
  const { paths, entries, sourceTypes, targetTypes } = tables();
  await page.waitForFunction(() => /1218 gold links/.test(document.querySelector('#corpus-summary').innerText));
  await give('lex-s2t', paths['lex.e2f'], 'lex.e2f');
  await give('lex-t2s', paths['lex.f2e'], 'lex.f2e');
  // Read once both are in (alone, a table says it waits for the other).
  const moses = { 'lex-s2t': await text('#status-lex-s2t'), 'lex-t2s': await text('#status-lex-t2s') };
  assert.match(moses['lex-s2t'], new RegExp(`^✓ lex\\.e2f: ${entries} entries; covers \\d+ of ${sourceTypes} source word types`));
  assert.match(moses['lex-t2s'], new RegExp(`^✓ lex\\.f2e: ${entries} entries; covers \\d+ of ${targetTypes} target word types`));

  // Without the vocabularies: refused in words, the Moses table still in use.
  const refused = await give('lex-s2t', paths['s2t.t3.final'], 's2t.t3.final');
  assert.match(refused, /^✗ s2t\.t3\.final:1:1: a GIZA\+\+ t-table of word ids \(not words\): expected its two vocabulary files/);
  assert.match(refused, /still in use: lex\.e2f: /);

  // One vocabulary waits for the other; both, target's first: told apart by the words.
  assert.match(await give('vcb', paths['es.vcb'], 'es.vcb'), /es\.vcb: waiting for the other vocabulary/);
  const vcb = await give('vcb', [paths['es.vcb'], paths['de.vcb']], 'source de.vcb');
  assert.equal(vcb, `✓ source de.vcb: ${sourceTypes} words, 100% of the source tokens; target es.vcb: ${targetTypes} words, 100% of the target tokens`);

  // The refused table was read again with them: the Moses table's report under its own name.
  await page.waitForFunction(() => document.querySelector('#status-lex-s2t').innerText.startsWith('✓ s2t.t3.final'));
  const s2t = await text('#status-lex-s2t');
  assert.equal(s2t.replace('s2t.t3.final', 'lex.e2f'), moses['lex-s2t']);
  const t2s = await give('lex-t2s', paths['t2s.t3.final'], 't2s.t3.final');
  assert.equal(t2s.replace('t2s.t3.final', 'lex.f2e'), moses['lex-t2s']);
  // They are the lexicon Train and align use now.
  assert.match(await text('#train-panel'), /Lexicon: the uploaded Moses tables s2t\.t3\.final and t2s\.t3\.final/);
});
