// Flame-graph transforms and a profile diff in Chromium, driven by Playwright, on large stackprof dumps.
//   transform: a transform list set as the page's deep link (#sp.flame.tf=..., what a shared link or
//              back/forward does), from the change to the flame graph drawn with it (the engine's
//              stacks.tree answer laid out and painted: data-transforms on the graph, then the next
//              frame); then the deep link cleared, to the untransformed graph drawn again (undo).
//   diff:      a second dump chosen in the view's "Compare with" input, from the choice to the
//              differential flame graph drawn (the second dump analyzed, compared by the engine).
//   node bench/stackprof/transforms.js SITE_DIR DUMP [DUMP_B] [REPS]   → one JSON object on stdout
const fs = require('fs');
const { chromium } = require('@playwright/test');
const { serve, siteFiles } = require('../static_server');

const [siteDir, dumpA, dumpB, repsArg] = process.argv.slice(2);
if (!siteDir || !dumpA) {
  console.error('usage: node bench/stackprof/transforms.js SITE_DIR DUMP [DUMP_B] [REPS]');
  process.exit(2);
}
const REPS = Number(repsArg) || 5;
// The frames of bench/stackprof/generate.rb's workload (stackprof's labels).
const TRANSFORMS = [
  { focus_function: 'Bench.hop' },
  { merge_function: 'Bench.walk' },
  { drop_function: 'String#+' },
  { hide: '^Bench\\.hop$' },
  { collapse_recursion: 'direct' },
  { collapse_recursion: 'all' },
];


function pct(list, p) {
  const s = list.slice().sort((a, b) => a - b);
  return s[Math.min(s.length, Math.max(1, Math.ceil(p * s.length))) - 1];
}
const stats = (list) => ({ n: list.length, p50_ms: +pct(list, 0.5).toFixed(1), max_ms: +Math.max(...list).toFixed(1) });

// Sets the deep link's transforms and resolves with the ms until the graph drawn with `count` of
// them has reached the screen (the next frame after the redraw).
function transformOnce(page, list) {
  return page.evaluate((tf) => new Promise((resolve, reject) => {
    const fg = document.querySelector('.job section.report[data-format="stackprof"] .stackprof-flame .flamegraph');  // the only job
    const want = String(tf.length);
    const start = performance.now();
    const timer = setTimeout(() => reject(new Error('no graph with ' + JSON.stringify(tf))), 120000);
    const done = () => requestAnimationFrame(() => setTimeout(() => { clearTimeout(timer); resolve(performance.now() - start); }, 0));
    const mo = new MutationObserver(() => {
      if (fg.dataset.transforms !== want) return;
      mo.disconnect();
      done();
    });
    mo.observe(fg, { attributes: true, attributeFilter: ['data-transforms'] });
    location.hash = tf.length ? 'sp.flame.tf=' + encodeURIComponent(JSON.stringify(tf)) : '';
  }), list);
}

async function openDump(page, file) {
  const start = Date.now();
  await page.locator('#file-input').setInputFiles(file);
  await page.locator('.job .job-status', { hasText: 'Done' }).first().waitFor({ timeout: 600000 });
  await page.locator('.job .stackprof-flame .flamegraph[data-transforms="0"]').first().waitFor({ timeout: 600000 });
  return Date.now() - start;
}

async function diffOnce(page, file) {
  // The compared file becomes a job of its own, put first on the page: the first job's report is pinned.
  const id = await page.locator('.job').first().getAttribute('data-job');
  const report = page.locator(`.job[data-job="${id}"] section.report[data-format="stackprof"]`);
  const start = Date.now();
  await report.locator('.stackprof-compare-input').setInputFiles(file);
  await report.locator('.stackprof-diff-flame .flamegraph button[data-mode="diff"][aria-pressed="true"]').waitFor({ timeout: 600000 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  return Date.now() - start;
}

(async () => {
  const site = await serve(siteFiles(siteDir));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] });
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(site.url + '?sw=0&warmup=0');
  await page.locator('#samples button.sample').first().waitFor();
  const out = { dump: dumpA, bytes: fs.statSync(dumpA).size, open_ms: await openDump(page, dumpA) };
  out.samples = await page.evaluate(() => document.querySelector('.job').gcscopeDoc.reports[0].samples);
  await page.locator('.job .stackprof-flame').first().scrollIntoViewIfNeeded();
  out.transforms = {};
  for (const t of TRANSFORMS) {
    const apply = [], undo = [];
    for (let i = 0; i < REPS; i++) {
      apply.push(await transformOnce(page, [t]));
      undo.push(await transformOnce(page, []));
    }
    out.transforms[JSON.stringify(t)] = { apply: stats(apply), undo: stats(undo) };
  }
  if (dumpB) out.diff = { dump: dumpB, bytes: fs.statSync(dumpB).size, ms: await diffOnce(page, dumpB) };
  console.log(JSON.stringify(out));
  await browser.close();
  site.close();
})().catch((err) => { console.error(err); process.exit(1); });
