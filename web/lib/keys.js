// Keyboard use of the whole page: `/` search in the current result, `?` the list of keys, `j`/`k` the
// next/previous result, Esc closes what is open. Keys typed into a field, or with Ctrl/Alt/Meta, are
// the field's. Views add their own keys (the flame graph's) on their own elements.
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});
  if (typeof document === 'undefined') return;
  const KEYS = [
    ['/', 'Search in the current result (table filter, flame-graph search)'],
    ['?', 'Show or hide this list'],
    ['j / k', 'Next / previous result'],
    ['Esc', 'Close this list, or the section that holds the focus'],
    ['+ / - / ← → / 0', 'On a focused chart: zoom in, zoom out, move, the whole range again'],
    ['Enter / Space', 'Open a focused row, button or section'],
    ['Ctrl+V / ⌘V', 'Analyze pasted text (a GC log excerpt, folded stacks, a payload)'],
  ];
  let help = null;

  const typing = (t) => t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  const jobs = () => Array.from(document.querySelectorAll('#jobs > .job'));
  function currentJob() {
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('.job');
    return focused || document.querySelector('#jobs > .job.current') || jobs()[0] || null;
  }
  function moveJob(step) {
    const list = jobs();
    if (!list.length) return;
    const at = list.indexOf(currentJob());
    const next = list[Math.min(list.length - 1, Math.max(0, at + step))];
    list.forEach((j) => j.classList.toggle('current', j === next));
    next.tabIndex = -1;
    next.focus();
    next.scrollIntoView({ block: 'start' });
  }
  function search() {
    const job = currentJob();
    const field = job && Array.from(job.querySelectorAll('input[type=search]')).find((i) => i.offsetParent !== null);
    if (field) field.focus();
  }
  function toggleHelp() {
    if (help) { closeHelp(); return; }
    const { el } = GCSCOPE.ui;
    const dl = el('dl', {}, KEYS.map(([k, what]) => [el('dt', {}, el('kbd', { text: k })), el('dd', { text: what })]));
    const close = el('button', { type: 'button', class: 'gs-small', text: 'Close', on: { click: closeHelp } });
    help = el('div', { class: 'keys-help', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Keyboard shortcuts' },
      el('h2', { text: 'Keyboard shortcuts' }), dl, close);
    help.returnFocus = document.activeElement;
    document.body.appendChild(help);
    close.focus();
  }
  function closeHelp() {
    if (!help) return;
    const back = help.returnFocus;
    help.remove();
    help = null;
    if (back && back.focus) back.focus();
  }
  function escape() {
    if (help) { closeHelp(); return; }
    const section = document.activeElement && document.activeElement.closest && document.activeElement.closest('details[open]');
    if (section) {
      section.open = false;
      const summary = section.querySelector('summary');
      if (summary) summary.focus();
    }
  }

  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.altKey || e.metaKey || e.defaultPrevented) return;
    if (typing(e.target)) {
      if (e.key === 'Escape') e.target.blur();
      return;
    }
    if (e.key === 'Escape') { escape(); return; }
    const act = { '/': search, '?': toggleHelp, j: () => moveJob(1), k: () => moveJob(-1) }[e.key];
    if (act) { e.preventDefault(); act(); }
  });
  GCSCOPE.keys = { list: KEYS, toggleHelp };
})(typeof window !== 'undefined' ? window : globalThis);
