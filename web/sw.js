// Keeps the site working offline once visited: the site's own files are cached under a name that
// changes with every build (the build id below is filled in by scripts/assemble_site.cmake), so a
// new deployment is fetched and the old cache dropped. Only the site's own files are cached (the core
// below, and the bundled samples when opened): a same-origin file loaded with ?url= is user data and
// is never stored.
// Dropped files never pass here at all.
'use strict';
const CACHE = 'gcscope-__BUILD_ID__';
const CORE = ['./', 'index.html', 'style.css', 'app.bundle.js', 'worker.js', 'reader.js', 'gcscope.js', 'gcscope.wasm',
  'favicon.svg', 'vendor/uPlot.iife.min.js', 'vendor/uPlot.min.css', 'report-template.html', 'samples/samples.json'];
const scope = new URL('./', self.location.href);
const CORE_URLS = new Set(CORE.map((p) => new URL(p, scope).href));

// The site's own files: the core, and the sample files under samples/ (cached the first time they are
// opened). The page's query (?embed=1, ?url=...) is not part of what is cached.
function isSiteFile(url) {
  const u = new URL(url);
  u.search = ''; u.hash = '';
  return CORE_URLS.has(u.href) || u.href.startsWith(new URL('samples/', scope).href);
}

self.addEventListener('install', (e) => {
  // {cache: 'reload'}: the new build's files from the server, never an older HTTP-cached copy.
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(CORE.map((p) => new Request(p, { cache: 'reload' }))))
    .then(() => self.skipWaiting()));
});
self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith('gcscope-') && k !== CACHE)
    .map((k) => caches.delete(k)))).then(() => self.clients.claim()));
});
// Network first (a fresh deployment wins), the cache when offline.
self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  const navigation = req.mode === 'navigate';
  const own = navigation || isSiteFile(req.url);
  e.respondWith(fetch(req).then((resp) => {
    if (own && !navigation && resp.ok && resp.type === 'basic' && resp.status === 200) {
      const copy = resp.clone();
      e.waitUntil(caches.open(CACHE).then((c) => c.put(req.url.split('?')[0], copy)));
    }
    return resp;
  }).catch(async () => {
    if (!own) throw new Error('offline: ' + req.url + ' is not one of the site\'s own files');
    const cache = await caches.open(CACHE);
    // A page URL with a query (?embed=1&view=...) or another path of the site is the one page.
    const hit = await cache.match(req.url.split('?')[0]) || (navigation ? await cache.match(new URL('./', scope).href) || await cache.match('index.html') : null);
    if (hit) return hit;
    throw new Error('offline and not cached: ' + req.url);
  }));
});
