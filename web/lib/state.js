// GCSCOPE.state: deep-link state in the URL fragment (#key=value&key2=value2), so a reload or a shared
// link (with the same file dropped again, or the same ?url=) comes back to the same selection, and
// back/forward step through the selections the user made.
//
//   state.get(key)                      the value in the fragment, or null
//   state.set(key, value, {push})       writes it (null/'' removes it); push: a new history entry (a
//                                       user's selection), otherwise the current entry is replaced.
//                                       Several pushes in one task (a click that zooms and selects)
//                                       make one entry. Writing an unchanged value does nothing.
//                                       lazy: the entry is replaced once the writes stop for
//                                       LAZY_MS (paging through a table), not at each write; get()
//                                       and every other write see it at once.
//   state.watch(key, node, fn)          back/forward: fn(value) when the key's value changed, while
//                                       `node` is in the page. While fn runs, set() is ignored, so a
//                                       view re-applying a state does not write history.
//   state.on(fn)                        fn(URLSearchParams) on every popstate/hashchange.
// The keys each view uses are listed in docs/PAGE.md (Deep links).
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});
  if (typeof location === 'undefined' || typeof history === 'undefined') return;
  const listeners = [];
  let watchers = [];
  let applying = false;
  let pushedThisTask = false;
  // A replacing write costs Chromium a same-document navigation and a new decode of the favicon
  // (several ms each): writes marked lazy wait here until they stop coming.
  const LAZY_MS = 300;
  let pending = null;  // the fragment the lazy writes left to write, or null
  let pendingTimer = 0;

  function read() { return new URLSearchParams((pending === null ? location.hash : pending).replace(/^#/, '')); }
  function urlWith(hash) { return location.pathname + location.search + (hash ? '#' + hash : ''); }
  function flush() {
    clearTimeout(pendingTimer);
    if (pending === null) return;
    const hash = pending;
    pending = null;
    try { history.replaceState(null, '', urlWith(hash)); } catch (e) { /* see set() */ }
  }
  const norm = (v) => (v === null || v === undefined || v === '' ? null : String(v));

  const state = {
    get(key) { return read().get(key); },
    set(key, value, { push = false, lazy = false } = {}) {
      if (applying) return;
      const p = read();
      const v = norm(value);
      if (p.get(key) === v) return;
      if (v === null) p.delete(key); else p.set(key, v);
      const hash = p.toString();
      for (const w of watchers) if (w.key === key) w.last = v;
      if (lazy && !push) {
        pending = hash;
        clearTimeout(pendingTimer);
        pendingTimer = setTimeout(flush, LAZY_MS);
        return;
      }
      clearTimeout(pendingTimer);
      pending = null;
      const next = urlWith(hash);
      try {
        if (push && !pushedThisTask) {
          history.pushState(null, '', next);
          pushedThisTask = true;
          setTimeout(() => { pushedThisTask = false; }, 0);
        } else {
          history.replaceState(null, '', next);
        }
      } catch (e) {
        return;  // a saved report opened from a file: URL may refuse history changes; nothing to keep
      }
    },
    watch(key, node, fn) { watchers.push({ key, node, fn, last: state.get(key) }); },
    on(fn) { listeners.push(fn); },
  };

  function changed() {
    // The history entry changed under the lazy writes: they belonged to the entry left behind.
    clearTimeout(pendingTimer);
    pending = null;
    const p = read();
    watchers = watchers.filter((w) => w.node.isConnected);
    applying = true;
    try {
      for (const w of watchers) {
        const v = p.get(w.key);
        if (v === w.last) continue;
        w.last = v;
        try { w.fn(v); } catch (e) { /* one view failing to re-apply must not stop the others */ }
      }
    } finally {
      applying = false;
    }
    listeners.forEach((fn) => fn(p));
  }
  global.addEventListener('popstate', changed);
  global.addEventListener('hashchange', changed);
  global.addEventListener('pagehide', flush);
  global.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') flush(); });
  GCSCOPE.state = state;
})(typeof window !== 'undefined' ? window : globalThis);
