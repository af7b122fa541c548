// End-to-end tests: the release build in dist/, served from a sub-path by a
// plain static server, driven in Debian's headless Chromium by playwright-core.
// Kernel values read off the page are checked against the native CLI.
// Screenshots go to target/e2e/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const data = path.resolve(root, '../shared/data');
const shots = path.join(root, 'target/e2e');
const cli = path.join(root, 'target/debug/treelink');
fs.mkdirSync(shots, { recursive: true });

let server, context, page, baseUrl;
const problems = [];

/** Serves a directory holding dist/ as /treelink/, on a free loopback port. */
async function serve() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-site-'));
  fs.symlinkSync(path.join(root, 'dist'), path.join(dir, 'treelink'));
  const proc = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('static server did not start')), 10000);
    proc.stdout.on('data', (chunk) => {
      const m = /port (\d+)/.exec(chunk.toString());
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    });
    proc.on('exit', (code) => reject(new Error(`static server exited with ${code}`)));
  });
  return { proc, url: `http://127.0.0.1:${port}/treelink/` };
}

before(async () => {
  assert.ok(fs.existsSync(path.join(root, 'dist/index.html')), 'run `trunk build --release` first');
  ({ proc: server, url: baseUrl } = await serve());
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1500, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  // No request may leave the origin.
  page.on('request', (r) => { if (!r.url().startsWith(baseUrl) && !r.url().startsWith('data:')) problems.push(`request to ${r.url()}`); });
  await page.goto(baseUrl);
  await page.waitForSelector('#pair-diagram');
});

after(async () => {
  await context?.close();
  server?.kill();
});

const text = (sel) => page.locator(sel).innerText();
const lines = (file) => fs.readFileSync(file, 'utf8').split('\n').filter((l, i, a) => i < a.length - 1 || l !== '');

async function goToPair(n) {
  await page.fill('#pair-number', String(n));
  await page.press('#pair-number', 'Enter');
  await page.waitForFunction((n) => document.querySelector('#pair-number').value === String(n), n);
}

test('the built-in sample loads, from a sub-path, with its gold links drawn', async () => {
  assert.match(await text('#corpus-summary'), /157 pairs, \d+ nodes, 1218 gold links/);
  const gold = lines(path.join(root, 'www/sample/dev.gold'));
  const src = lines(path.join(root, 'www/sample/dev.src'));
  await goToPair(3);
  const drawn = await page.locator('#pair-diagram path.link.gold').count();
  assert.equal(drawn, gold[2].split(' ').filter(Boolean).length);
  // One box per labelled node: count the brackets of the line.
  const nodes = (src[2].match(/\(/g) || []).length;
  assert.equal(await page.locator('#pair-diagram g.tree.src g.node').count(), nodes);
  assert.match(await page.locator('footer').innerText(), /Apache License 2\.0/);
  await page.screenshot({ path: path.join(shots, 'sample.png'), fullPage: true });
});

test('clicking a source node then a target node shows every kernel value, equal to the native CLI', async () => {
  await goToPair(3);
  const gold = lines(path.join(root, 'www/sample/dev.gold'))[2].split(' ');
  // A gold-linked source node, with a target node that is not its gold partner.
  const [s, t] = gold.find((l) => !l.startsWith('0-')).split('-').map(Number);
  const other = t === 1 ? 2 : 1;
  await page.click(`#src-node-${s}`);
  await page.click(`#trg-node-${other}`);
  await page.waitForSelector('#kernel-table');
  assert.ok(await page.locator(`#src-node-${s}.selected`).count() === 1, 'the source node is highlighted');
  assert.ok(await page.locator('#pair-diagram .node.in-selection').count() >= 2, 'both sub-trees are highlighted');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-k-'));
  for (const id of ['x-source', 'x-target', 'y-source', 'y-target']) {
    fs.writeFileSync(path.join(tmp, id), (await text(`#${id}`)) + '\n');
  }
  // The comparison defaulted to the gold link of the selected source node.
  assert.notEqual(await text('#x-target'), await text('#y-target'));
  let checked = 0;
  for (const kind of ['ibtk', 'dbtk']) {
    for (const space of ['sst', 'rdsst', 'rgsst', 'root']) {
      for (const norm of ['raw', 'norm']) {
        const args = ['btk', '--kind', kind, '--space', space, ...(norm === 'norm' ? ['--normalize'] : []),
          ...['x-source', 'x-target', 'y-source', 'y-target'].map((f) => path.join(tmp, f))];
        const native = execFileSync(cli, args, { encoding: 'utf8' }).trim();
        const shown = await page.getAttribute(`#k-${kind}-${space}-${norm}`, 'data-value');
        assert.equal(shown, native, `${kind} ${space} ${norm}`);
        checked += 1;
      }
    }
  }
  assert.equal(checked, 16);
  assert.notEqual(await page.getAttribute('#k-dbtk-sst-raw', 'data-value'), '0', 'a non-trivial value');
  await page.screenshot({ path: path.join(shots, 'kernels.png'), fullPage: true });
});

test('uploading bracketed files by picker replaces the corpus; a bad file shows its error and keeps it', async () => {
  const nl = path.join(data, 'lingua-align-nl-en-125/bracketed');
  await page.setInputFiles('#file-src', path.join(nl, 'all.src'));
  await page.setInputFiles('#file-trg', path.join(nl, 'all.trg'));
  await page.setInputFiles('#file-gold', path.join(nl, 'all.gold'));
  await page.waitForFunction(() => /125 pairs, \d+ nodes, 1380 gold links/.test(document.querySelector('#corpus-summary').innerText));
  assert.match(await text('#status-src'), /all\.src: 125 trees/);
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
});

test('drag and drop of .src/.trg/.gold files, and a label containing <script> is shown as text', async () => {
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
  await page.waitForFunction(() => /1 pairs, 8 nodes, 2 gold links/.test(document.querySelector('#corpus-summary').innerText));
  const label = await page.locator('#src-node-1 text').first().textContent();
  assert.equal(label, '<script>window.pwned=1</script>');
  assert.equal(await page.evaluate(() => document.querySelectorAll('#pair-diagram script').length), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  await page.screenshot({ path: path.join(shots, 'script-label.png') });
});

test('a TigerXML pair with its STA alignment imports to the same corpus as the bracketed files', async () => {
  const raw = path.join(data, 'squoia-de-es/raw');
  await page.setInputFiles('#file-tiger', ['LAI_SQUOIA_DE.xml', 'LAI_SQUOIA_ES.xml', 'LAI_alignments_squoia_de_es.xml'].map((f) => path.join(raw, f)));
  await page.waitForFunction(() => /157 pairs, \d+ nodes, 1218 gold links/.test(document.querySelector('#corpus-summary').innerText), null, { timeout: 30000 });
  assert.match(await text('#status-tiger'), /157/);
  const first = lines(path.join(root, 'www/sample/dev.src'))[0];
  assert.equal(await page.locator('#x-source').count(), 0, 'the selection was cleared');
  await page.click('#src-node-0');
  await page.click('#trg-node-0');
  assert.equal(await text('#x-source'), first);
});

test('nothing went wrong in the page', () => {
  assert.deepEqual(problems, []);
});
