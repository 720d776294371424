#!/usr/bin/env node
// A static file server for the built site, bound to 127.0.0.1 (the site needs no server logic; this
// only gives it an http:// origin, which workers require, and the right MIME types).
//   node scripts/serve.mjs --root build/wasm/site --port 8080 [--prefix /gcscope/]
// --prefix mounts the site under a sub-path, the way GitHub Pages serves a project site.
// --redirect-index answers <prefix>index.html with a redirect to <prefix> (the query kept), as some
// hosts do ("pretty URLs"); the e2e tests serve the site so to check the service worker copes.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const root = path.resolve(opt('--root', 'build/wasm/site'));
const port = Number(opt('--port', process.env.PORT || 8080));
const host = opt('--host', '127.0.0.1');
let prefix = opt('--prefix', '/');
if (!prefix.endsWith('/')) prefix += '/';
const redirectIndex = args.includes('--redirect-index');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json; charset=utf-8',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.txt': 'text/plain; charset=utf-8', '.log': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon', '.map': 'application/json',
};

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  let p = decodeURIComponent(url.pathname);
  if (p + '/' === prefix) { res.writeHead(302, { Location: prefix }); res.end(); return; }
  if (!p.startsWith(prefix)) { res.writeHead(404); res.end('not found'); return; }
  if (redirectIndex && p === prefix + 'index.html') { res.writeHead(301, { Location: prefix + url.search }); res.end(); return; }
  p = p.slice(prefix.length);
  if (p === '' || p.endsWith('/')) p += 'index.html';
  const file = path.join(root, p);
  if (!file.startsWith(root + path.sep) && file !== root) { res.writeHead(403); res.end(); return; }
  fs.stat(file, (err, st) => {
    if (err || !st.isFile()) { res.writeHead(404, { 'Content-Type': 'text/plain' }); res.end('not found'); return; }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream',
      'Content-Length': st.size, 'Cache-Control': 'no-cache' });
    fs.createReadStream(file).pipe(res);
  });
});
server.listen(port, host, () => {
  console.log(`gcscope: serving ${root} at http://${host}:${port}${prefix}`);
});
