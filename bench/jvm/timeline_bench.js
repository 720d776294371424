// timeline.series in Chromium, as the timeline panel asks it of a live JVM session: wall time per
// question from the page's engine.query to its parsed answer (worker round trip, the engine's answer
// and its JSON), for the whole range and seeded random zooms to 1/10 and 1/1000 of it, at chart
// widths of 1000 and 4000 pixels.
//   node bench/jvm/timeline_bench.js SITE_DIR LOG [N]   → one JSON object on stdout
const fs = require('fs');
const { chromium } = require('@playwright/test');
const { serve, siteFiles } = require('../static_server');

const [siteDir, logPath, nArg] = process.argv.slice(2);
if (!siteDir || !logPath) {
  console.error('usage: node bench/jvm/timeline_bench.js SITE_DIR LOG [N]');
  process.exit(2);
}
const N = Number(nArg) || 30;

// Closed on a failure too, so that a failed run leaves no Chromium or server behind.
let site = null, browser = null;
(async () => {
  site = await serve(siteFiles(siteDir));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] });
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(site.url + '?sw=0&warmup=0');
  await page.locator('#file-input').setInputFiles(logPath);
  await page.locator('.job[data-engine="live"]').waitFor({ timeout: 300_000 });
  const out = await page.evaluate(async (n) => {
    const engine = document.querySelector('.job').gcscopeEngine;
    const whole = await engine.query('timeline.series', { width: 1 });
    let seed = 29;  // mulberry32: each run asks the same ranges
    const rnd = () => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pct = (l, p) => l.slice().sort((a, b) => a - b)[Math.min(l.length, Math.max(1, Math.ceil(p * l.length))) - 1];
    const pauses = whole.series.find((s) => s.name === 'GC pauses');
    if (!(whole.t1 > whole.t0) || !pauses || !pauses.totals.count) throw new Error('the log has no span of GC pauses to zoom in');
    const result = { clock: whole.clock, pauses: pauses.totals.count };
    for (const width of [1000, 4000]) {
      for (const part of [1, 10, 1000]) {
        const ms = [];
        const span = (whole.t1 - whole.t0) / part;
        for (let i = 0; i < n; i++) {
          const t0 = whole.t0 + rnd() * (whole.t1 - whole.t0 - span);
          const args = part === 1 ? { width } : { t0, t1: t0 + span, width };
          const start = performance.now();
          await engine.query('timeline.series', args);
          ms.push(performance.now() - start);
        }
        result[`${width}px 1/${part}`] = { p50_ms: +pct(ms, 0.5).toFixed(1), p95_ms: +pct(ms, 0.95).toFixed(1) };
      }
    }
    return result;
  }, N);
  out.log = logPath;
  out.bytes = fs.statSync(logPath).size;
  console.log(JSON.stringify(out, null, 1));
  await browser.close();
  site.close();
})().catch(async (err) => {
  console.error(err);
  if (browser) await browser.close().catch(() => {});
  if (site) site.close();
  process.exit(1);
});
