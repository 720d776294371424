// Keeps the site working offline once visited: the site's own files are cached under a name that
// changes with every build (the build id below is filled in by scripts/assemble_site.cmake), so a
// new deployment is fetched and older caches dropped (all but the one installed last before, see
// 'activate'). The name holds the deployment's path too: two deployments on one origin
// (/gcscope/ and /gcscope/beta/) keep their caches apart and never drop each other's.
// Only the site's own files are cached (the core below; the bundled samples and the SQL engine when opened): a
// same-origin file loaded with ?url= is user data and is never stored.
// Dropped files never pass here at all.
'use strict';
const BUILD = '__BUILD_ID__';
const scope = new URL('./', self.location.href);
// 'gcscope:/gcscope/beta/:' + build. A build id has no ':', so a name is this deployment's exactly
// when what follows the prefix has none (see ownCache).
const PREFIX = 'gcscope:' + scope.pathname + ':';
const CACHE = PREFIX + BUILD;
// The files that must be of the page's build, which the page asks for under its build's name
// (file?v=BUILD, see `versioned` in app.js): the wasm module, its JavaScript glue, the analysis worker
// and the reader, and what a saved HTML report inlines. A page that stays open while a new build takes
// over goes on starting workers, and the new build's worker.js with the page's module and messages
// may not work together. They are answered from their build's cache first, and the build fills in
// each one's SHA-1: a build is installed only with its own bytes (see precache). Unfilled (web/ served
// as is), nothing is versioned.
const VERSIONED_SHA1 = {/*__VERSIONED_SHA1__*/};
// The page's own files under their plain names (index.html loads them so). Online they come from the
// network; offline from the copies installed with the build (never from what the network gave
// later: that may be a newer build's, with which this build's cached files do not work).
const CORE = ['./', 'index.html', 'style.css', 'app.bundle.js', 'favicon.png', 'vendor/uPlot.iife.min.js',
  'vendor/uPlot.min.css', 'report-template.html', 'samples/samples.json'];
const CORE_URLS = new Set(CORE.map((p) => new URL(p, scope).href));
const versionedUrl = (name, build) => new URL(name + '?v=' + build, scope).href;
// Written last by a complete install, with the time (see precache and 'activate').
const COMPLETE = new URL('gcscope-install-complete', scope).href;

// The site's own files: the core, and the sample files under samples/ (cached the first time they are
// opened). The page's query (?embed=1, ?url=...) is not part of what is cached.
function isSample(url) {
  return url.startsWith(new URL('samples/', scope).href) || isSqlEngine(url);
}
// The SQL panel and DuckDB-wasm (sql/, ~35 MB): loaded only when a SQL panel is first opened, and
// kept like a sample file from then on, so the panel opens offline after one visit that used it.
function isSqlEngine(url) {
  return url.startsWith(new URL('sql/', scope).href);
}
function isSiteFile(url) {
  const u = new URL(url);
  u.search = ''; u.hash = '';
  return CORE_URLS.has(u.href) || isSample(u.href);
}

// For file?v=BUILD_ID of a versioned file: {name, build}; otherwise null.
function versionedRequest(url) {
  const u = new URL(url);
  const name = u.pathname.startsWith(scope.pathname) ? u.pathname.slice(scope.pathname.length) : '';
  const build = u.searchParams.get('v');
  if (!Object.prototype.hasOwnProperty.call(VERSIONED_SHA1, name) || !/^[0-9a-f]{40}$/.test(build || '')) return null;
  return { name, build };
}

function ownCache(name) {
  return name.startsWith(PREFIX) && !name.slice(PREFIX.length).includes(':');
}
// The cache of a build of this deployment, if there is one.
async function cacheNameOf(build) {
  return await caches.has(PREFIX + build) ? PREFIX + build : null;
}

// All or nothing: if a versioned file is not this build's (a deployment half uploaded, a CDN edge
// behind), or any file cannot be fetched, the install fails. The build before stays in charge with
// its cache, and the next visit tries again. A cache this install made is dropped again; a complete
// cache of this build (kept for its pages, installed again after a rollback) is left as it is. The
// page's plain files that are also versioned are stored from the checked copies, so the plain
// app.bundle.js is this build's too. They are stored as fresh responses: a host that redirects
// /index.html to / gives a redirected response, which the browser refuses for a navigation.
// {cache: 'reload'}: the new build's files from the server, never an older HTTP-cached copy.
async function precache() {
  const existed = await caches.has(CACHE);
  const cache = await caches.open(CACHE);
  const complete = () => cache.put(COMPLETE, new Response(String(Date.now())));
  if (existed && await cache.match(COMPLETE)) return complete();
  try {
    const plain = new Set(CORE);
    for (const [name, sha1] of Object.entries(VERSIONED_SHA1)) {
      const req = new Request(versionedUrl(name, BUILD), { cache: 'reload' });
      if (!await cacheChecked(cache, req, await fetch(req), sha1)) throw new Error(name + ' on the server is not of build ' + BUILD);
      for (const as of name === 'index.html' ? ['index.html', './'] : [name]) {
        if (!plain.delete(as)) continue;
        const r = await cache.match(req);
        await cache.put(new URL(as, scope).href, new Response(r.body, { status: r.status, statusText: r.statusText, headers: r.headers }));
      }
    }
    await cache.addAll([...plain].map((p) => new Request(p, { cache: 'reload' })));
    await complete();
  } catch (err) {
    if (!existed) await caches.delete(CACHE);
    throw err;
  }
}
self.addEventListener('install', (e) => {
  e.waitUntil(precache().then(() => self.skipWaiting()));
});
// Drops this deployment's caches of older builds, except the one installed last: a page of that build
// may still be open (this worker takes it over at once), and its next job needs that build's worker
// and module, also offline. A cache with no install marker (an install cut short) is kept only when no
// older cache has one, and then the newest created (caches.keys() lists them in creation order).
// Other deployments' caches are left alone (see ownCache).
self.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    const older = (await caches.keys()).filter((name) => name !== CACHE && ownCache(name));
    let keep = older.length ? older[older.length - 1] : null;
    let keepTime = -1;
    for (const name of older) {
      const marker = await caches.match(COMPLETE, { cacheName: name });
      const time = marker ? Number(await marker.text()) || 0 : -1;
      if (time > keepTime) { keep = name; keepTime = time; }
    }
    for (const name of older) if (name !== keep) await caches.delete(name);
    await self.clients.claim();
  })());
});
// Caches resp under req and keeps it only if its bytes have the SHA-1 the build wrote down; says
// whether it was kept. The check reads the stored copy, so the response itself is read once, by the
// cache.
async function cacheChecked(cache, req, resp, sha1) {
  if (!resp.ok || resp.type !== 'basic' || resp.status !== 200) return false;
  await cache.put(req, resp);
  const stored = await cache.match(req);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', await stored.arrayBuffer()));
  if (Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('') === sha1) return true;
  await cache.delete(req);
  return false;
}
// A versioned file: from its build's cache first. Why cache first for the module too: V8 keeps a
// module's optimized code with the Cache Storage entry it was compiled from, so on a returning visit
// the first analysis does not wait for the optimizing compiles; a revalidated response (304) through
// the network loses that code.
// A miss (a file removed from the cache) is fetched, and for this build kept if its bytes are right.
// For a build whose cache is gone (a page open across two deployments), the server's file is of
// another build; offline, worker.js is answered with this build's copy, as the server would. Either
// way the worker finds that it is not of the page's build and asks for a reload (see worker.js).
// (The HTML export checks the bundle it gets; see exportHtml in embed.js.)
async function versionedFile(e, file) {
  const name = file.build === BUILD ? CACHE : await cacheNameOf(file.build);
  const hit = name && await caches.match(e.request, { cacheName: name });
  if (hit) return hit;
  let resp;
  try {
    resp = await fetch(e.request);
  } catch (err) {
    const current = file.build !== BUILD && file.name === 'worker.js' && await caches.match(versionedUrl(file.name, BUILD), { cacheName: CACHE });
    if (current) return current;
    throw err;
  }
  if (file.build === BUILD) {
    const copy = resp.clone();  // before the page reads the response
    e.waitUntil(caches.open(CACHE).then((c) => cacheChecked(c, e.request, copy, VERSIONED_SHA1[file.name])).catch(() => {}));
  }
  return resp;
}
// Everything else: network first (a fresh deployment wins), the cache when offline. Of what the
// network gives, only sample files are stored (the site's files, samples.json among them, are stored
// by the install).
self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  const file = versionedRequest(req.url);
  if (file) {
    e.respondWith(versionedFile(e, file));
    return;
  }
  const navigation = req.mode === 'navigate';
  const own = navigation || isSiteFile(req.url);
  e.respondWith(fetch(req).then((resp) => {
    if (isSample(req.url) && !CORE_URLS.has(req.url.split('?')[0]) && resp.ok && resp.type === 'basic' && resp.status === 200) {
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
