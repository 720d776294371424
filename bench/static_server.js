// The static server of the browser benchmarks: files on 127.0.0.1 at a free port, with the MIME types
// the site needs (a worker and a wasm module need an http:// origin and application/wasm).
//   const { serve, siteFiles } = require('../static_server');
//   const site = await serve(siteFiles(DIR));          // site.url, site.close()
// files(pathname) → a file's path, or null (404). With {revalidate: true} every answer says no-cache
// with its Last-Modified and a matching If-Modified-Since gets 304, as a host whose max-age has run out.
const http = require('http');
const fs = require('fs');
const path = require('path');

const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2',
};

// The files of a built site: a path ending in / is its index.html; none outside the site.
const siteFiles = (dir) => {
  const root = path.resolve(dir);
  return (p) => {
    const file = path.join(root, p.endsWith('/') ? p + 'index.html' : p);
    return file.startsWith(root + path.sep) ? file : null;
  };
};

function answer(req, res, file, revalidate) {
  fs.stat(file, (err, st) => {
    if (err || !st.isFile()) { res.writeHead(404); res.end(); return; }
    const head = { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-cache' };
    if (revalidate) {
      head['Last-Modified'] = st.mtime.toUTCString();
      if (req.headers['if-modified-since'] === head['Last-Modified']) { res.writeHead(304, head); res.end(); return; }
    }
    fs.readFile(file, (err2, data) => {
      if (err2) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, head);
      res.end(data);
    });
  });
}

async function serve(files, opts = {}) {
  const server = http.createServer((req, res) => {
    let file;
    try {
      file = files(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    } catch {
      res.writeHead(400);
      res.end();
      return;
    }
    if (!file) { res.writeHead(404); res.end(); return; }
    answer(req, res, file, !!opts.revalidate);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

module.exports = { serve, siteFiles };
