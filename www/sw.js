// treelink's service worker: after the first visit the page works offline.
// It only ever handles requests for the app's own files (same origin, inside
// its scope, which is the directory it is served from, so any sub-path works)
// and makes no request of its own beyond those files.
//
// - On install it caches index.html, every file index.html refers to (the
//   hashed app .js/.wasm/.css), each worker's three files and the sample's licence.
// - Hashed files never change: cache first.
// - Everything else (index.html, the worker, sw.js itself): network first, so
//   a new deployment is picked up, falling back to the cache when offline.
const CACHE = 'treelink-v1';
const SCOPE = new URL('./', self.location).href;
const WORKER_FILES = [
  './worker_loader.js', './worker.js', './worker_bg.wasm',
  './sample/LICENSE',
];
const HASHED = /-[0-9a-f]{16}(_bg)?\.(js|wasm|css)$/;

async function precache() {
  const cache = await caches.open(CACHE);
  const index = await fetch('./', { cache: 'no-cache' });
  const html = await index.clone().text();
  await cache.put('./', index.clone());
  await cache.put('./index.html', index);
  const referred = [...html.matchAll(/(?:href|src)="([^"]+)"/g)]
    .map((m) => m[1])
    .filter((u) => !/^[a-z][a-z0-9+.-]*:/i.test(u) && !u.startsWith('//') && !u.startsWith('#'))
    .concat([...html.matchAll(/['"](\.\/[^'"]+\.(?:js|wasm))['"]/g)].map((m) => m[1]));
  await cache.addAll([...new Set([...referred, ...WORKER_FILES])]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok) (await caches.open(CACHE)).put(request, response.clone());
    return response;
  } catch (offline) {
    const cached = await caches.match(request, { ignoreSearch: true });
    if (cached) return cached;
    throw offline;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(SCOPE)) return;
  const path = new URL(request.url).pathname;
  event.respondWith(HASHED.test(path) ? cacheFirst(request) : networkFirst(request));
});
