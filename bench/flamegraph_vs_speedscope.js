// First flame graph of the same stackprof JSON dump, gcscope vs speedscope 1.25 (npm), same browser,
// same run. Both are timed from navigation start to the first flame-graph canvas painted, each
// fetching the profile from the same local server (gcscope via ?url=, speedscope via #profileURL=).
//   node bench/flamegraph_vs_speedscope.js SITE_DIR REPS PROFILE.json  → one JSON line
const fs = require('fs');
const path = require('path');
const { chromium } = require('@playwright/test');
const { serve } = require('./static_server');

const [siteDir, repsArg, profile] = process.argv.slice(2);
const reps = Number(repsArg) || 3;
const roots = { '/gcscope/': path.resolve(siteDir), '/speedscope/': path.join(__dirname, '..', 'node_modules', 'speedscope', 'dist', 'release') };

// The profile at /profile.json; each site under its prefix.
const files = (p) => {
  if (p.endsWith('/profile.json')) return path.resolve(profile);
  const [prefix, dir] = Object.entries(roots).find(([pre]) => p.startsWith(pre)) || [];
  return prefix ? path.join(dir, p.slice(prefix.length) || 'index.html') : null;
};
const median = (a) => { const s = a.slice().sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };

serve(files).then(async (server) => {
  const base = server.url.replace(/\/$/, '');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] });
  const ours = [], theirs = [];
  try {
    for (let r = 0; r < reps; r++) {
      let page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${base}/gcscope/?sw=0&url=${encodeURIComponent(base + '/gcscope/profile.json')}`);
      // The stackprof view's flame graph canvas (first canvas inside a stackprof report).
      await page.waitForSelector('.report[data-format="stackprof"] canvas', { timeout: 300000 });
      ours.push(await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(performance.now()))))));
      await page.close();

      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${base}/speedscope/index.html#profileURL=${encodeURIComponent(base + '/gcscope/profile.json')}`);
      // speedscope names the document after the profile once it is imported, then draws its canvas.
      await page.waitForFunction(() => /profile\.json/.test(document.title) && document.querySelector('canvas'), null, { timeout: 300000 });
      theirs.push(await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(performance.now()))))));
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(JSON.stringify({ profile, bytes: fs.statSync(profile).size, reps, gcscope_ms: median(ours), gcscope_ms_all: ours,
    speedscope_ms: median(theirs), speedscope_ms_all: theirs, speedscope_over_gcscope: median(theirs) / median(ours) }));
});
