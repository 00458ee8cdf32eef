#!/usr/bin/env node
// A remote's own origin for the cross-origin journeys (playwright.cross-origin.config.ts): serves
// one built remote folder the way README "Deploying a remote" asks of a remote's host (a CDN or a
// static server), and nothing of Grove's:
//   - CORS on everything: Access-Control-Allow-Origin: * (the shell fetches mf-manifest.json and
//     loads chunks and CSS with crossorigin),
//   - Cache-Control: immutable for content-hashed files, no-cache for mf-manifest.json and
//     remoteEntry.js, the precompressed .br/.gz copies to clients that accept them,
//   - 404 for anything else (no SPA fallback).
// Usage: node apps/e2e/static-remote-server.mjs <folder> <port>
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const [folder, portText] = process.argv.slice(2);
const root = path.resolve(folder ?? '');
const port = Number(portText);
if (!folder || !fs.existsSync(path.join(root, 'mf-manifest.json')) || !Number.isInteger(port)) {
  console.error('usage: static-remote-server.mjs <folder with mf-manifest.json> <port>');
  process.exit(1);
}

const TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.woff2': 'font/woff2',
  '.mp4': 'video/mp4',
  '.txt': 'text/plain; charset=utf-8',
};
const HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;

function cacheControl(name) {
  if (name === 'mf-manifest.json' || name === 'remoteEntry.js') return 'no-cache';
  return HASHED.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

http
  .createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Timing-Allow-Origin', '*');
    if (request.method === 'OPTIONS') {
      response.setHeader('Access-Control-Allow-Methods', 'GET, HEAD');
      response.setHeader('Access-Control-Allow-Headers', '*');
      response.writeHead(204).end();
      return;
    }
    const file = path.resolve(
      root,
      `.${decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)}`,
    );
    if (
      (request.method !== 'GET' && request.method !== 'HEAD') ||
      !file.startsWith(root + path.sep) ||
      !fs.statSync(file, { throwIfNoEntry: false })?.isFile()
    ) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = ['br', 'gzip'].find(
      (candidate) =>
        accepted.includes(candidate) &&
        fs.existsSync(`${file}.${candidate === 'br' ? 'br' : 'gz'}`),
    );
    const body = encoding ? `${file}.${encoding === 'br' ? 'br' : 'gz'}` : file;
    response.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Content-Length': fs.statSync(body).size,
      'Cache-Control': cacheControl(path.basename(file)),
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
      ...(encoding ? { 'Content-Encoding': encoding } : {}),
    });
    if (request.method === 'HEAD') response.end();
    else fs.createReadStream(body).pipe(response);
  })
  .listen(port, '127.0.0.1', () =>
    console.log(`static remote ${root} on http://127.0.0.1:${port}`),
  );
