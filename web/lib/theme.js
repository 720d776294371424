// The page's theme: the system's (prefers-color-scheme) unless the reader picks light or dark with the
// header's toggle; the pick is the only thing gcscope stores in the browser (localStorage
// "gcscope.theme"), nothing about files. Charts redraw with the theme's colors (GCSCOPE.charts.retheme).
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});
  if (typeof document === 'undefined') return;
  const KEY = 'gcscope.theme';
  const root = document.documentElement;
  const stored = () => { try { return localStorage.getItem(KEY); } catch (e) { return null; } };
  const systemDark = () => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  const current = () => root.dataset.theme || (systemDark() ? 'dark' : 'light');

  function apply(theme) {
    if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
    else delete root.dataset.theme;
    const button = document.getElementById('theme-toggle');
    if (button) {
      const dark = current() === 'dark';
      button.setAttribute('aria-pressed', String(dark));
      button.textContent = dark ? 'Light theme' : 'Dark theme';
    }
    if (GCSCOPE.charts && GCSCOPE.charts.retheme) GCSCOPE.charts.retheme();
    document.dispatchEvent(new CustomEvent('gcscope:theme', { detail: { theme: current() } }));
  }

  function toggle() {
    const next = current() === 'dark' ? 'light' : 'dark';
    try { localStorage.setItem(KEY, next); } catch (e) { /* a saved report from file: may refuse storage */ }
    apply(next);
  }

  GCSCOPE.theme = { current, toggle, apply };
  apply(stored());
  document.addEventListener('DOMContentLoaded', () => apply(stored()));
  if (typeof matchMedia === 'function') matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => apply(stored()));
  document.addEventListener('click', (e) => { if (e.target && e.target.id === 'theme-toggle') toggle(); });
})(typeof window !== 'undefined' ? window : globalThis);
