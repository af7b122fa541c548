// Research I/O in the page (issue 24): a TigerXML set renamed by the user
// imports the same way round whatever order its files come in; a set with a
// file that does not read says which and where; a Latin-1 or gzipped file of
// the set reads; the import's changes are listed; the pairs export as
// bracketed files with their original ids, and the gold links as STA for
// the original treebanks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { root, download, openPage } from './helpers.mjs';

const raw = path.resolve(root, '../shared/data/lingua-align-nl-en-125/raw');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-e2e-io-'));

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

/** The nl-en set under the names a user gave it: nl.xml, en.xml, align.sta.xml. */
function renamed() {
  const files = { 'nl.xml': 'ep-00-12-15.125.nl.tiger', 'en.xml': 'ep-00-12-15.125.en.tiger', 'align.sta.xml': 'nl-en_125.xml' };
  return Object.fromEntries(Object.entries(files).map(([to, from]) => {
    const file = path.join(tmp, to);
    fs.copyFileSync(path.join(raw, from), file);
    return [to, file];
  }));
}

async function sample() {
  await page.click('#load-sample');
  await page.waitForFunction(() => /1218 gold links/.test(document.querySelector('#corpus-summary').innerText));
}

const firstSource = () => page.locator('.sentence[lang="src"]').first().getAttribute('title');

test('the renamed nl-en set imports English to Dutch (its alignment declares English first) in every order', async () => {
  const files = renamed();
  const seen = [];
  for (const order of [['nl.xml', 'en.xml', 'align.sta.xml'], ['align.sta.xml', 'en.xml', 'nl.xml'], ['en.xml', 'nl.xml', 'align.sta.xml'], ['nl.xml', 'align.sta.xml', 'en.xml']]) {
    await sample();
    await page.setInputFiles('#file-tiger', order.map((f) => files[f]));
    await page.waitForFunction(() => /125 pairs, \d+ nodes, 3970 gold links/.test(document.querySelector('#corpus-summary').innerText), null, { timeout: 60000 });
    seen.push(await firstSource());
    assert.match(await text('#status-tiger'), /125 sentence pairs imported/);
    assert.match(await text('#status-tiger'), /148 links on them set aside, not gold/);
  }
  assert.equal(new Set(seen).size, 1, `one direction: ${seen}`);
  assert.match(seen[0], /^I sense that/);
  // What the import changed, one line each, in a disclosure.
  await page.click('#tiger-changes summary');
  const changes = await text('#tiger-changes-list');
  assert.match(changes, /pair 1 \(target\): s10: s10_17 \(ppart\) was discontinuous: raised/);
  assert.match(changes, /source: treebank 'en' \(Unknown\) = en\.xml \(the alignment declares it first\)/);
});

test('the pairs export as bracketed files with their original ids, the gold links as STA for the original treebanks', async () => {
  const ids = await download(page, '#export-ids');
  assert.match(ids.body, /^# treelink ids 3\n# source\ten\tUnknown\tep-00-12-15\.125\.en\.tiger\ten\.xml\n/);
  assert.equal(ids.body.trim().split('\n').length, 4 + 125);
  const src = await download(page, '#export-src');
  assert.equal(src.body.trim().split('\n').length, 125);
  const gold = await download(page, '#export-corpus-gold');
  // The 148 links on a node whose yield changed are not gold (set aside with the ids)...
  assert.equal(gold.body.split(/\s+/).filter(Boolean).length, 3970);
  const sta = await download(page, '#export-gold-sta');
  assert.match(sta.body, /<treebank id="en" language="Unknown" filename="ep-00-12-15\.125\.en\.tiger"\/>/);
  // ...and the export for the original treebanks puts them back: every link of the alignment.
  assert.equal((sta.body.match(/<align type=/g) || []).length, 4118);
  const tiger = await download(page, '#export-tiger-trg');
  assert.equal(tiger.name, 'ep-00-12-15.125.nl.tiger');
  const original = fs.readFileSync(path.join(raw, 'ep-00-12-15.125.nl.tiger'), 'utf8');
  assert.equal((tiger.body.match(/<feature /g) || []).length, (original.match(/<feature /g) || []).length);
  // As the shared data's bracketed files: the bracketed gold links.
  await page.check('#tiger-bracketed');
  await page.waitForFunction(() => /125 pairs, \d+ nodes, 1380 gold links/.test(document.querySelector('#corpus-summary').innerText), null, { timeout: 60000 });
  await page.uncheck('#tiger-bracketed');
  await page.waitForFunction(() => /3970 gold links/.test(document.querySelector('#corpus-summary').innerText), null, { timeout: 60000 });
});

test('a set with a file that does not read says which and where; Latin-1 and gzip files of a set read', async () => {
  await sample();
  const before = await text('#corpus-summary');
  const files = renamed();
  // A Latin-1 byte in a file that declares UTF-8: located, and the set is not imported.
  const nl = fs.readFileSync(files['nl.xml'], 'utf8');
  const at = nl.indexOf('word="gevoel"');
  const bad = Buffer.concat([Buffer.from(nl.slice(0, at + 7)), Buffer.from([0xe9]), Buffer.from(nl.slice(at + 7))]);
  const badFile = path.join(tmp, 'bad', 'nl.xml');
  fs.mkdirSync(path.dirname(badFile), { recursive: true });
  fs.writeFileSync(badFile, bad);
  await page.setInputFiles('#file-tiger', [files['align.sta.xml'], badFile, files['en.xml']]);
  await page.waitForFunction(() => document.querySelector('#status-tiger').classList.contains('error'), null, { timeout: 60000 });
  const status = await text('#status-tiger');
  assert.match(status, /nl\.xml:\d+:\d+: expected UTF-8 text, found the byte 0xE9/);
  assert.match(status, /the set was not imported \(read: align\.sta\.xml, en\.xml\)/);
  assert.equal(await text('#corpus-summary'), before, 'what was loaded stays');
  // The same file declared ISO-8859-1 (and so encoded), the English treebank gzipped: the set imports.
  const latin = Buffer.from(nl.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'), 'latin1');
  const latinFile = path.join(tmp, 'latin', 'nl.xml');
  fs.mkdirSync(path.dirname(latinFile), { recursive: true });
  fs.writeFileSync(latinFile, latin);
  const gz = path.join(tmp, 'latin', 'en.xml.gz');
  fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(files['en.xml'])));
  await page.setInputFiles('#file-tiger', [latinFile, gz, files['align.sta.xml']]);
  await page.waitForFunction(() => /125 pairs, \d+ nodes, 3970 gold links/.test(document.querySelector('#corpus-summary').innerText), null, { timeout: 60000 });
  // Two sets at once: refused in words, the same way in any order.
  await sample();
  const second = path.join(tmp, 'second');
  fs.mkdirSync(second, { recursive: true });
  const copy = (name, to) => { fs.copyFileSync(path.join(raw, name), path.join(second, to)); return path.join(second, to); };
  const set2 = [copy('nl-en_125.xml', 'b.sta.xml'), copy('ep-00-12-15.125.nl.tiger', 'ep-00-12-15.125.nl.tiger'), copy('ep-00-12-15.125.en.tiger', 'ep-00-12-15.125.en.tiger')];
  const messages = [];
  for (const order of [[...Object.values(files), ...set2], [...set2.reverse(), ...Object.values(files).reverse()]]) {
    await page.setInputFiles('#file-tiger', order);
    await page.waitForFunction(() => document.querySelector('#status-tiger').classList.contains('error'), null, { timeout: 60000 });
    messages.push(await text('#status-tiger'));
  }
  assert.equal(messages[0], messages[1]);
  assert.match(messages[0], /named by no alignment|TigerXML sets/);
});

// Issue 40 item 6: the page reads a Dublin file as `treelink import dublin`
// does (the shared one is Latin-1: read as `--encoding latin1`); a file that
// does not read says where, and what was loaded stays. A TigerXML set says
// which treebank is the source and why (the rule of `import tiger --help`).
test('a Latin-1 Dublin file gives the pairs import dublin gives; a bad one keeps what was loaded', async () => {
  await sample();
  const before = await text('#corpus-summary');
  const bad = path.join(tmp, 'bad.dublin');
  fs.writeFileSync(bad, '(S-1 (A-2 a)\n(T-1 (B-2 b))\n1 1\n\n');
  await page.setInputFiles('#file-dublin', bad);
  await page.waitForFunction(() => document.querySelector('#status-dublin').classList.contains('error'), null, { timeout: 60000 });
  assert.match(await text('#status-dublin'), /bad\.dublin:1:/);
  assert.equal(await text('#corpus-summary'), before, 'what was loaded stays');
  await page.setInputFiles('#file-dublin', path.join(raw, 'nl-en_125.dublin'));
  await page.waitForFunction(() => /125 pairs, \d+ nodes, 4115 gold links/.test(document.querySelector('#corpus-summary').innerText), null, { timeout: 60000 });
  assert.match(await text('#status-dublin'), /nl-en_125\.dublin: 125 pairs, 4115 links \(first tree of each pair the source\); 2 numbers without a partner left out/);
  const files = renamed();
  await page.setInputFiles('#file-tiger', Object.values(files));
  await page.waitForFunction(() => /3970 gold links/.test(document.querySelector('#corpus-summary').innerText), null, { timeout: 60000 });
  assert.match(await text('#status-tiger'), /source: treebank 'en' \(Unknown\) = en\.xml \(the alignment declares it first\); target: treebank 'nl'/);
});
