// Offline static hosting: the release build served from a sub-path works
// again after the server is gone, from the service worker's cache (www/sw.js),
// worker and all, and no request ever leaves the origin: it trains, and a
// class runs an exercise (open, check, export answers, the class table).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { shots, serve, browser, download, run, sample, classRowAndCli, kernelOnAllPairs, openAdvanced } from './helpers.mjs';

test('after the first visit the page loads, trains and runs an exercise offline, under its sub-path', async () => {
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
    await kernelOnAllPairs(page);
    await openAdvanced(page);
    await page.fill('#train-max-examples', '200');
    await page.click('#train');
    await page.waitForSelector('#job-note.ok', { timeout: 120000 });
    assert.match(await page.locator('#job-note').innerText(), /^Trained and aligned 157 pairs/);
    await page.screenshot({ path: path.join(shots, 'offline.png') });
    // A class offline: a student opens an exercise, checks a link and exports
    // the answers; the instructor drops them and reads the class table.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'treelink-offline-'));
    const exFile = path.join(tmp, 'offline.exercise.json');
    run('exercise', 'new', '--corpus', sample, '--pairs', '1,3', '--title', 'Offline', '-o', exFile);
    await page.setInputFiles('#file-exercise', exFile);
    await page.waitForFunction(() => /2 pairs, key of \d+ links \(hidden\)/.test(document.querySelector('#status-exercise')?.innerText ?? ''));
    await page.click('#src-node-0');
    await page.click('#trg-node-0');
    await page.fill('#exercise-student', 'Offline student');
    await page.click('#exercise-check-button');
    await page.waitForSelector('#exercise-marks .mark-correct');
    const answers = await download(page, '#exercise-answers');
    const answersFile = path.join(tmp, answers.name);
    fs.writeFileSync(answersFile, answers.body);
    await page.click('#exercise-grading summary');
    await page.setInputFiles('#file-answers', answersFile);
    await page.waitForSelector('#class-students');
    const { row, cli } = await classRowAndCli(page, exFile, answersFile, 'Offline student');
    assert.deepEqual(row, cli);
    assert.equal(cli[1], '1', 'the root link is correct');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    proc.kill();
  }
});
