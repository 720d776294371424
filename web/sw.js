// Keeps the site working offline once visited: the site's own files are cached under a name that
// changes with every build (__BUILD_ID__ is replaced at build time), so a new deployment is fetched
// and the old cache dropped. Only GET requests to this origin are touched; dropped files never pass here.
'use strict';
const CACHE = 'gcscope-__BUILD_ID__';
const CORE = ['./', 'index.html', 'style.css', 'app.bundle.js', 'worker.js', 'gcscope.js', 'gcscope.wasm',
  'favicon.svg', 'vendor/uPlot.iife.min.js', 'vendor/uPlot.min.css'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(CORE)).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith('gcscope-') && k !== CACHE)
    .map((k) => caches.delete(k)))).then(() => self.clients.claim()));
});
// Network first (a fresh deployment wins), the cache when offline.
self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  e.respondWith(fetch(req).then((resp) => {
    if (resp.ok && resp.type === 'basic') {
      const copy = resp.clone();
      caches.open(CACHE).then((c) => c.put(req, copy));
    }
    return resp;
  }).catch(() => caches.match(req).then((hit) => hit || Promise.reject(new Error('offline and not cached')))));
});
