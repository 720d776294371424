// Following a log as it grows. "Follow a log…" opens one file through the File System Access API
// (showOpenFilePicker: Chromium and Edge; where it is missing the control says why and names the
// CLI's `gcscope analyze --follow`). The file's job keeps it open in its engine (option "follow"),
// and every few seconds its handle gives the file as it is now: the worker hands it to the engine,
// which reads what was appended (or all of a truncated or replaced file, as the log's next member)
// and writes the new report (worker.js follow, wasm/core/follow.h). The job's report is then drawn
// again: the zoom and the open sections come back from the URL fragment, the scroll position is kept.
// Every figure shown (pauses, what changed) is the engine's.
(function () {
  'use strict';
  const G = (globalThis.GCSCOPE = globalThis.GCSCOPE || {});
  const INTERVAL_MS = 3000;
  const MISSING = 'Following a log as it grows needs the File System Access API (Chromium, Edge); this browser ' +
    'does not have it. The command-line tool follows any log: gcscope analyze --follow FILE';

  // The picker: a test's stand-in (GCSCOPE.testHooks.showOpenFilePicker) or the browser's.
  function picker() {
    const hook = G.testHooks && G.testHooks.showOpenFilePicker;
    if (typeof hook === 'function') return hook;
    return typeof window.showOpenFilePicker === 'function' ? window.showOpenFilePicker.bind(window) : null;
  }
  const intervalMs = () => (G.testHooks && G.testHooks.followIntervalMs) || INTERVAL_MS;

  // The control beside the file pickers, or the reason it cannot work here.
  function offer() {
    const actions = document.querySelector('#drop .drop-actions');
    if (!actions || document.getElementById('follow-file')) return;
    const note = G.ui.el('p', { id: 'follow-note', class: 'muted follow-note' });
    const button = G.ui.el('button', { type: 'button', id: 'follow-file', 'aria-describedby': 'follow-note', text: 'Follow a log…',
      on: { click: () => open().catch((err) => { if (err && err.name !== 'AbortError') note.textContent = 'Could not open the file: ' + err.message; }) } });
    const explain = () => {
      const can = !!picker();
      button.disabled = !can;
      note.textContent = can ? 'Follow a log: pick a GC log that is still being written; its report updates as it grows.' : MISSING;
    };
    explain();
    button.addEventListener('focus', explain);
    actions.append(button);
    actions.after(note);
    G.follow.explain = explain;
  }

  async function open() {
    const pick = picker();
    if (!pick) throw new Error(MISSING);
    const [handle] = await pick({ multiple: false });
    if (!handle) return null;
    const file = await handle.getFile();
    return G.startJob([{ path: file.name, blob: file }], { follow: true }, { followHandle: handle });
  }

  // A followed job: its Follow/Stop toggle and status in the job's header; render(doc, file) draws
  // the job's document again (`file`: the file as read).
  function attach({ card, engine, handle, render }) {
    const el = G.ui.el;
    const head = card.querySelector('.job-head');
    const status = el('span', { class: 'muted job-follow-status', role: 'status', 'aria-live': 'polite' });
    const button = el('button', { type: 'button', class: 'gs-small job-follow', 'aria-pressed': 'false',
      'aria-label': 'Follow this file as it grows', text: 'Follow' });
    head.insertBefore(button, head.querySelector('.job-close'));
    head.insertBefore(status, button);
    let timer = null, busy = false;

    async function tick() {
      if (busy) return;
      busy = true;
      try {
        const file = await handle.getFile();
        const doc = await engine.follow(file);
        const f = doc.follow || {};
        const changed = f.new && (f.new.events || f.new.pauses || f.new.findings.length);
        const report = doc.reports[0];
        const pauses = report && report.pauses ? report.pauses.count : 0;
        card.dataset.followPauses = String(pauses);
        card.dataset.followBytes = String(f.bytes || 0);
        if (changed || f.files !== Number(card.dataset.followFiles || 1)) render(doc, file);
        card.dataset.followFiles = String(f.files || 1);
        const added = f.new && f.new.pauses ? `, ${f.new.pauses} new (${G.ui.fmt.seconds(f.new.pause_total_s)})` : '';
        status.textContent = `Following: ${G.ui.fmt.bytes(f.bytes || 0)} read, ${pauses} pauses${added}` +
          (f.files > 1 ? `, ${f.files - 1} rotation${f.files > 2 ? 's' : ''}` : '') + ` at ${new Date().toLocaleTimeString()}`;
      } catch (err) {
        stop();
        status.textContent = 'Following stopped: ' + err.message;
      } finally {
        busy = false;
      }
    }
    function start() {
      if (timer) return;
      button.setAttribute('aria-pressed', 'true');
      button.textContent = 'Stop following';
      button.setAttribute('aria-label', 'Stop following this file');
      timer = setInterval(tick, intervalMs());
      tick();
    }
    function stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = null;
      button.setAttribute('aria-pressed', 'false');
      button.textContent = 'Follow';
      button.setAttribute('aria-label', 'Follow this file as it grows');
      status.textContent = status.textContent.replace(/^Following:/, 'Stopped:');
    }
    button.addEventListener('click', () => (timer ? stop() : start()));
    card.querySelector('.job-close').addEventListener('click', stop);
    if (card.gcscopeDoc && !card.gcscopeDoc.follow) {
      button.disabled = true;
      status.textContent = 'This file cannot be followed: only plain (not compressed) GC logs can.';
      return { start() {}, stop() {} };
    }
    start();
    return { start, stop };
  }

  G.follow = { offer, attach, open };
  if (typeof document !== 'undefined') {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', offer);
    else setTimeout(offer, 0);
  }
})();
