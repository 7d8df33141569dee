// A tiny static file server on 127.0.0.1 for the browser tests: serves a built site folder as a
// web server would (index.html for folders, 404.html for what is missing, JS as JavaScript so
// search.js loads).

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
};

/// Starts serving `root`, at the server's root or, with `prefix` ('/blog'), under that path only
/// (as a host serves a site published under a path: anything else is missing); resolves to
/// { url, close() }, `url` without the prefix.
export function serveStatic(root, { prefix = '' } = {}) {
  const server = http.createServer((req, res) => {
    const requested = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const inside = prefix === '' || requested.startsWith(prefix + '/');
    const pathname = inside ? requested.slice(prefix.length) : '/404.html';
    let file = path.join(root, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ''));
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    let status = inside ? 200 : 404;
    if (!file.startsWith(root) || !fs.existsSync(file)) {
      file = path.join(root, '404.html');
      status = 404;
    }
    res.writeHead(status, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}
