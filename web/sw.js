// Keeps the site working offline once visited: the site's own files are cached under a name that
// changes with every build (the build id below is filled in by scripts/assemble_site.cmake), so a
// new deployment is fetched and the old cache dropped. Only the site's own files are cached (the core
// below, and the bundled samples when opened): a same-origin file loaded with ?url= is user data and
// is never stored.
// Dropped files never pass here at all.
'use strict';
const BUILD = '__BUILD_ID__';
const CACHE = 'gcscope-' + BUILD;
// The page asks for the wasm module under its build's name (compileModule in app.js); the build also
// fills in the module's SHA-1, so that a server still handing out another build's gcscope.wasm (a
// deployment half uploaded, a CDN edge behind) never gets it cached under this build's name.
const MODULE = 'gcscope.wasm?v=' + BUILD;
const MODULE_SHA1 = '__MODULE_SHA1__';
// The plain gcscope.wasm is what a worker loads itself when the page could not give it a module.
const CORE = ['./', 'index.html', 'style.css', 'app.bundle.js', 'worker.js', 'reader.js', 'gcscope.js', 'gcscope.wasm',
  'favicon.svg', 'vendor/uPlot.iife.min.js', 'vendor/uPlot.min.css', 'report-template.html', 'samples/samples.json'];
const scope = new URL('./', self.location.href);
const CORE_URLS = new Set(CORE.map((p) => new URL(p, scope).href));
const MODULE_URL = new URL(MODULE, scope).href;

// The site's own files: the core, and the sample files under samples/ (cached the first time they are
// opened). The page's query (?embed=1, ?url=...) is not part of what is cached.
function isSiteFile(url) {
  const u = new URL(url);
  u.search = ''; u.hash = '';
  return CORE_URLS.has(u.href) || u.href.startsWith(new URL('samples/', scope).href);
}

self.addEventListener('install', (e) => {
  // {cache: 'reload'}: the new build's files from the server, never an older HTTP-cached copy.
  e.waitUntil(caches.open(CACHE).then(async (c) => {
    await c.addAll(CORE.map((p) => new Request(p, { cache: 'reload' })));
    const module = new Request(MODULE, { cache: 'reload' });
    await cacheModule(c, module, await fetch(module));
  }).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith('gcscope-') && k !== CACHE)
    .map((k) => caches.delete(k)))).then(() => self.clients.claim()));
});
// Caches resp as this build's module, and keeps it only if its bytes are the build's gcscope.wasm
// (unchecked when the build filled in no SHA-1, as when web/ is served as is). The check reads the
// stored copy, so the response itself is read once, by the cache.
async function cacheModule(cache, req, resp) {
  if (!resp.ok || resp.type !== 'basic' || resp.status !== 200) return;
  await cache.put(req, resp);
  if (!/^[0-9a-f]{40}$/.test(MODULE_SHA1) || !self.crypto || !crypto.subtle) return;
  const stored = await cache.match(req);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', await stored.arrayBuffer()));
  if (Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('') !== MODULE_SHA1) await cache.delete(req);
}
// This build's wasm module: from the cache first. Its URL names the build and its bytes were checked
// against the build's SHA-1, so the cached copy is the right one; and V8 keeps the module's optimized
// code with the Cache Storage entry, so on a returning visit the first analysis no longer waits for
// the optimizing compiles (measured: its worker time equals a next file's). Through the network, a
// revalidated response (304) lost that code.
function moduleFromCache(e) {
  return caches.open(CACHE).then(async (cache) => {
    const hit = await cache.match(e.request);
    if (hit) return hit;
    const resp = await fetch(e.request);
    const copy = resp.clone();  // before the page reads the response
    e.waitUntil(cacheModule(cache, e.request, copy).catch(() => {}));
    return resp;
  });
}
// Everything else: network first (a fresh deployment wins), the cache when offline.
self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  if (req.url === MODULE_URL) {
    e.respondWith(moduleFromCache(e));
    return;
  }
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
