// Time to the first flame graph in Debian's chromium: from choosing the file to the flame graph's
// canvas being drawn, for the benchmark dump (Marshal) and its JSON twin. Serves build/wasm/site.
//   node bench/stackprof/browser.js [DUMP...]   (NODE_PATH must reach the playwright package)
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright');
const { serve, siteFiles } = require('../static_server');

const root = path.join(__dirname, '../../build/wasm/site');

(async () => {
  const site = await serve(siteFiles(root));
  const url = site.url;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless'] });
  const files = process.argv.slice(2);
  for (const f of files) {
    const times = [];
    for (let run = 0; run < 3; run++) {
      const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
      await page.goto(url);
      await page.evaluate(() => new Promise((r) => { const w = new Worker('worker.js'); w.onmessage = () => { w.terminate(); r(); }; w.postMessage({ type: 'ping' }); }));
      const t0 = Date.now();
      await page.locator('#file-input').setInputFiles(f);
      await page.locator('.flamegraph canvas').first().waitFor({ timeout: 300000 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      times.push((Date.now() - t0) / 1000);
      await page.close();
    }
    times.sort((a, b) => a - b);
    console.log(`${path.basename(f)} (${(fs.statSync(f).size / 1e6).toFixed(1)} MB): first flame graph ${times[1].toFixed(2)} s median of 3 [${times.join(', ')}]`);
  }
  await browser.close();
  site.close();
})();
