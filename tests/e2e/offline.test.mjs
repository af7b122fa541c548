// Offline static hosting: the release build served from a sub-path works
// again after the server is gone, from the service worker's cache (www/sw.js),
// worker and all, and no request ever leaves the origin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { shots, serve, browser } from './helpers.mjs';

test('after the first visit the page loads and trains offline, under its sub-path', async () => {
  const problems = [];
  const { proc, url } = await serve();
  const { context, page } = await browser(url, problems);
  try {
    await page.goto(url);
    await page.waitForSelector('#pair-diagram');
    // The service worker is active and has cached the app, the worker and the sample's licence.
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    assert.equal(scope, url);
    await page.waitForFunction(async () => {
      const keys = await (await caches.open('treelink-v1')).keys();
      return ['worker_bg.wasm', 'worker.js', 'worker_loader.js', '_bg.wasm', '.css', 'sample/LICENSE']
        .every((end) => keys.some((k) => k.url.endsWith(end)));
    }, null, { polling: 200, timeout: 20000 });
    // The server goes away.
    proc.kill();
    await new Promise((resolve) => proc.once('exit', resolve));
    await assert.rejects(fetch(url), 'the server is down');
    await page.reload();
    await page.waitForSelector('#pair-diagram');
    assert.match(await page.locator('#corpus-summary').innerText(), /157 pairs, \d+ nodes, 1218 gold links/);
    // The worker starts from the cache and trains.
    await page.fill('#train-max-examples', '200');
    await page.click('#train');
    await page.waitForSelector('#job-note.ok', { timeout: 120000 });
    assert.match(await page.locator('#job-note').innerText(), /^Trained and aligned 157 pairs/);
    await page.screenshot({ path: path.join(shots, 'offline.png') });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    proc.kill();
  }
});
