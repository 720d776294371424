// Times one analysis of BENCH_DUMP in the page (worker + wasm), from choosing the file to the rendered report,
// and the CPU seconds Chromium spent meanwhile (all of its processes: browser, renderer with the worker, GPU),
// read from /proc, with the load average: on a shared machine wall time alone says little.
const fs = require('fs');
const os = require('os');
const { test, expect } = require('@playwright/test');

// utime + stime (seconds) of every live process below `root` (the browser runs under this test worker).
function descendantCpuSeconds(root) {
  const parent = new Map();
  const ticks = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');  // f[0] = state, f[1] = ppid, f[11] = utime, f[12] = stime
      parent.set(Number(d), Number(f[1]));
      ticks.set(Number(d), Number(f[11]) + Number(f[12]));
    } catch (e) { /* exited meanwhile */ }
  }
  let total = 0;
  for (const [pid, t] of ticks) {
    let p = parent.get(pid);
    while (p && p !== root && parent.has(p)) p = parent.get(p);
    if (p === root) total += t;
  }
  return total / 100;  // USER_HZ
}

test('heap dump in a Chromium worker', async ({ page }) => {
  const dump = process.env.BENCH_DUMP;
  test.skip(!dump, 'set BENCH_DUMP');
  await page.goto('/');
  const load0 = os.loadavg()[0];
  const cpu0 = descendantCpuSeconds(process.pid);
  const t0 = Date.now();
  await page.locator('#file-input').setInputFiles([dump]);
  const card = page.locator('.job').first();
  await expect(card.locator('.job-status')).toHaveText('Done', { timeout: 600_000 });
  const seconds = (Date.now() - t0) / 1000;
  const cpu = descendantCpuSeconds(process.pid) - cpu0;
  const objects = await card.locator('.gs-kpi').first().locator('.gs-kpi-value').textContent();
  console.log(JSON.stringify({ dump, wall_s: seconds, chromium_cpu_s: +cpu.toFixed(2), load_before: load0, load_after: os.loadavg()[0], objects }));
});
