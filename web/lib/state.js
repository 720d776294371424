// GCSCOPE.state: deep-link state in the URL fragment (#key=value&key2=value2), so a reload or a shared
// link (with the same file dropped again, or the same ?url=) comes back to the same selection, and
// back/forward step through the selections the user made.
//
//   state.get(key)                      the value in the fragment, or null
//   state.set(key, value, {push})       writes it (null/'' removes it); push: a new history entry (a
//                                       user's selection), otherwise the current entry is replaced.
//                                       Several pushes in one task (a click that zooms and selects)
//                                       make one entry. Writing an unchanged value does nothing.
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

  function read() { return new URLSearchParams(location.hash.replace(/^#/, '')); }
  const norm = (v) => (v === null || v === undefined || v === '' ? null : String(v));

  const state = {
    get(key) { return read().get(key); },
    set(key, value, { push = false } = {}) {
      if (applying) return;
      const p = read();
      const v = norm(value);
      if (p.get(key) === v) return;
      if (v === null) p.delete(key); else p.set(key, v);
      const hash = p.toString();
      const next = location.pathname + location.search + (hash ? '#' + hash : '');
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
      for (const w of watchers) if (w.key === key) w.last = v;
    },
    watch(key, node, fn) { watchers.push({ key, node, fn, last: state.get(key) }); },
    on(fn) { listeners.push(fn); },
  };

  function changed() {
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
  GCSCOPE.state = state;
})(typeof window !== 'undefined' ? window : globalThis);
