// Browser tests in Debian's chromium (Playwright never downloads a browser here). Three static
// servers: the site at the root, the site under a sub-path (as GitHub Pages serves a project site),
// and a host page on another origin for the cross-origin iframe test. Ports derive from the checkout
// path so that several checkouts on one machine can run their tests side by side.
const path = require('path');
const { defineConfig } = require('@playwright/test');

const hash = [...__dirname].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
const base = Number(process.env.GCSCOPE_E2E_PORT || 8200 + (hash % 300) * 3);
const site = path.join(__dirname, 'build/wasm/site');
process.env.GCSCOPE_SITE_URL = `http://127.0.0.1:${base}/`;
process.env.GCSCOPE_SUBPATH_URL = `http://127.0.0.1:${base + 1}/gcscope/`;
process.env.GCSCOPE_HOST_URL = `http://127.0.0.1:${base + 2}/`;

module.exports = defineConfig({
  testDir: 'e2e',
  timeout: 90_000,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: process.env.GCSCOPE_SITE_URL,
    headless: true,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--disable-quic'],
    },
  },
  webServer: [
    { command: `node scripts/serve.mjs --root "${site}" --port ${base}`, url: process.env.GCSCOPE_SITE_URL, reuseExistingServer: false },
    { command: `node scripts/serve.mjs --root "${site}" --port ${base + 1} --prefix /gcscope/`, url: process.env.GCSCOPE_SUBPATH_URL, reuseExistingServer: false },
    { command: `node scripts/serve.mjs --root "${path.join(__dirname, 'e2e/host')}" --port ${base + 2}`, url: process.env.GCSCOPE_HOST_URL, reuseExistingServer: false },
  ],
});
