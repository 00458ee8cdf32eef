import fs from 'node:fs';
import path from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import {
  isKnownPagePath,
  MARKETING_PAGES,
  REMOTE_NAMES,
  REMOTE_ROUTES,
  remoteForPath,
  type RemoteName,
} from '@grove/contracts';
import { AppConfig } from '../config/app-config';
import { defaultRemoteUrl } from './web.config';
import { RemoteVersions, versionedRemoteUrl } from './remote-versions';
import { PrerenderedPages, type RemoteLocation } from './prerendered-pages';
import { withPrerenderedPage } from './prerendered-html';
import { PRERENDERED_APP_LOADER_PATH, prerenderedAppLoaderJs } from './prerendered-app-loader';

const NO_CACHE = 'no-cache';
const LONG_CACHE = 'public, max-age=31536000, immutable';
/** Build outputs with a content hash in the name, e.g. `main.3f2a9c1b.js`, `123.a1b2c3d4e5.css`. */
const HASHED_FILE = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;

/** Cache policy of a built file: hashed files are immutable; manifests, entries and HTML revalidate. */
export function cacheControlFor(filePath: string): string {
  const name = path.basename(filePath);
  if (name === 'mf-manifest.json' || name === 'remoteEntry.js' || name.endsWith('.html'))
    return NO_CACHE;
  return HASHED_FILE.test(name) ? LONG_CACHE : NO_CACHE;
}

/**
 * Security headers that only mean something on a document (helmet sets them on every reply).
 * Scripts, styles, images and videos are sent without them: on a page that loads a dozen chunks
 * over HTTP/1.1 they were ~0.6 KB each. `X-Content-Type-Options`, CORP and HSTS stay. HTML and
 * SVG (which a browser can open as a document) keep everything.
 */
const DOCUMENT_ONLY_HEADERS = [
  'Content-Security-Policy',
  'Cross-Origin-Opener-Policy',
  'Origin-Agent-Cluster',
  'Referrer-Policy',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Frame-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
];
const SUBRESOURCE = /\.(js|css|json|map|avif|webp|png|jpe?g|gif|ico|mp4|webm|woff2?|txt)$/i;

/** Drops the document-only headers from a static subresource reply (see DOCUMENT_ONLY_HEADERS). */
function trimDocumentHeaders(response: Response, filePath: string): void {
  if (!SUBRESOURCE.test(filePath)) return;
  for (const header of DOCUMENT_ONLY_HEADERS) response.removeHeader(header);
}

/** Precompressed copies the web build emits next to each file (tools/webpack/precompress-plugin.cjs), best first. */
const PRECOMPRESSED = [
  { encoding: 'br', extension: '.br' },
  { encoding: 'gzip', extension: '.gz' },
] as const;

/** Most paths whose precompressed-copy answer is remembered per folder (requests for arbitrary paths cannot grow it further). */
const PRECOMPRESSED_CACHE_LIMIT = 10_000;

/**
 * Serves `<dir>/<request path>` from its precompressed `.br` / `.gz` copy when the client accepts
 * that encoding and the copy exists (original Content-Type, `Vary: Accept-Encoding`, the file's
 * cache policy); calls `next()` otherwise so the plain static handler answers. Built files do not
 * change while the API runs, so whether a file and its copy exist is checked once per path.
 */
function servePrecompressed(dir: string): RequestHandler {
  const root = path.resolve(dir);
  const hasCopy = new Map<string, boolean>();
  const copyExists = (file: string, copy: string): boolean => {
    let known = hasCopy.get(copy);
    if (known === undefined) {
      known = fs.existsSync(file) && fs.existsSync(copy);
      if (hasCopy.size >= PRECOMPRESSED_CACHE_LIMIT) hasCopy.clear();
      hasCopy.set(copy, known);
    }
    return known;
  };
  return (request: Request, response: Response, next: NextFunction): void => {
    let relative: string;
    try {
      relative = decodeURIComponent(request.path);
    } catch {
      return next();
    }
    const file = path.resolve(root, `.${relative}`);
    if (!file.startsWith(root + path.sep)) return next();
    // The server's preference (Brotli first), among the encodings the client accepts at all.
    const choice = PRECOMPRESSED.find(
      (option) => request.acceptsEncodings(option.encoding) === option.encoding,
    );
    if (!choice || !copyExists(file, file + choice.extension)) return next();
    trimDocumentHeaders(response, file);
    response.setHeader('Vary', 'Accept-Encoding');
    response.setHeader('Content-Encoding', choice.encoding);
    response.setHeader('Cache-Control', cacheControlFor(file));
    response.type(path.extname(file));
    response.sendFile(
      file + choice.extension,
      { cacheControl: false, dotfiles: 'deny' },
      (error?: Error) => {
        if (error && !response.headersSent) {
          response.removeHeader('Content-Encoding');
          next();
        }
      },
    );
  };
}

/**
 * Pages the API renders itself (not the shell's index.html): the referral join page,
 * `/referral/<code>` (referrals/join-page, docs/architecture.md#join-page), and the member page
 * `/member` (member-page, docs/architecture.md#member-page). Other paths under `/referral/` and
 * `/member/` (the unsubscribe page) stay the shell's. The contact page `/contact` is the shell's
 * prerendered page (publicPageHtml) with the form the API renders for browsers without
 * JavaScript, answered by `site/contact`'s ContactPageController.
 */
const SERVER_RENDERED_PAGE = /^\/(?:referral\/[^/]+|join\/[^/]+|member|contact)\/?$/;

/** `/remotes/<name>[@<version>]/<file>`: a remote's file, from its build or from a stored version. */
const REMOTE_PATH = /^\/remotes\/([^/@]+)(?:@([^/]+))?(\/.*)?$/;

/**
 * Serves the built front ends on the API's port (docs/architecture.md#front-end):
 * - `/remotes/<name>/*` → files of `WEB_DIST_DIR/<name>` (no SPA fallback);
 * - `/remotes/<name>@<version>/*` → files of a deployed version, `REMOTES_DIR/<name>/<version>`;
 * - every other GET/HEAD outside `/api` and `/remotes.json` → `WEB_DIST_DIR/shell`, falling back
 *   to its `index.html` for client-side routes.
 * - `/robots.txt`, `/sitemap.xml`, and `/grove-app-loader.js` (the prerendered pages' loader of
 *   the app's JavaScript, prerendered-app-loader.ts);
 * Missing folders are fine (the API still starts); misses fall through to Nest's JSON 404.
 * Production builds carry `.br`/`.gz` copies of each file, served to clients that accept them.
 */
@Injectable()
export class WebAppsService {
  private readonly logger = new Logger('WebApps');

  private readonly versions: RemoteVersions;

  private readonly prerendered = new PrerenderedPages();

  constructor(private readonly config: AppConfig) {
    this.versions = new RemoteVersions(config.remotesDir);
  }

  /**
   * The remotes manifest the shell fetches: remote name → manifest URL. Per remote, the first of:
   * `REMOTE_<NAME>_URL`; the version `REMOTES_DIR/current.json` names (re-read when it changes,
   * so a switch shows on the next page load); the API's copy of its build in WEB_DIST_DIR.
   */
  remotesManifest(): Record<RemoteName, string> {
    const current = this.versions.current();
    return Object.fromEntries(
      REMOTE_NAMES.map((name) => {
        const configured = this.config.remoteUrls[name];
        const version = current[name];
        const url =
          configured === defaultRemoteUrl(name) && version
            ? versionedRemoteUrl(name, version)
            : configured;
        return [name, url];
      }),
    ) as Record<RemoteName, string>;
  }

  /**
   * The path on disk of a file of a remote's build (`relative` inside it, e.g.
   * `join-page/page.js`): the version `REMOTES_DIR/current.json` names when it has the file, else
   * the build in WEB_DIST_DIR; undefined when neither has it. A remote served from its own origin
   * (REMOTE_<NAME>_URL) has no files here, so its local build, if any, is used.
   */
  remoteBuildFile(name: RemoteName, relative: string): string | undefined {
    const version = this.versions.current()[name];
    const folders = [
      version ? this.versions.folder(name, version) : undefined,
      path.join(this.config.webDistDir, name),
    ];
    for (const folder of folders) {
      if (!folder) continue;
      const file = path.resolve(folder, relative);
      if (file.startsWith(path.resolve(folder) + path.sep) && fs.existsSync(file)) return file;
    }
    return undefined;
  }

  private shellPage: { mtimeMs: number; html: string } | null = null;

  /**
   * The shell's index.html for a client-side route, with a `<link rel="preload">` of the
   * manifest of the remote that renders `pathname` (see remoteForPath), so the browser fetches
   * it while it downloads the shell instead of after. Re-read when the file changes.
   */
  shellHtml(indexFile: string, pathname: string): string {
    const { mtimeMs } = fs.statSync(indexFile);
    if (this.shellPage?.mtimeMs !== mtimeMs)
      this.shellPage = { mtimeMs, html: fs.readFileSync(indexFile, 'utf8') };
    const target = remoteForPath(pathname);
    const manifest = target ? this.remotesManifest()[target.remote] : undefined;
    if (!manifest) return this.shellPage.html;
    const href = manifest.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    return this.shellPage.html.replace(
      '</head>',
      `<link rel="preload" href="${href}" as="fetch" crossorigin="anonymous" /></head>`,
    );
  }

  /**
   * Where the marketing remote's files are for the version new page loads get (its manifest URL
   * from remotesManifest, minus `mf-manifest.json`): its build or a stored version on this
   * machine, or its own origin (REMOTE_MARKETING_URL); null for a manifest path the API does not
   * serve itself.
   */
  marketingLocation(): RemoteLocation | null {
    const manifest = this.remotesManifest().marketing;
    const base = manifest.replace(/[^/]*$/, '');
    if (/^https?:\/\//.test(manifest)) return { url: manifest, base };
    const local = /^\/remotes\/marketing(?:@([^/]+))?\/mf-manifest\.json$/.exec(manifest);
    if (!local) return null;
    const folder = local[1]
      ? this.versions.folder('marketing', local[1])
      : path.join(this.config.webDistDir, 'marketing');
    return folder ? { folder, base } : null;
  }

  /**
   * The HTML a page path answers: for a path the marketing remote renders, the shell's page with
   * the remote's prerendered page in it (docs/architecture.md#prerendered-pages); otherwise, or
   * when that page cannot be had (no prerendered build, the remote's origin down), the shell's
   * page as shellHtml gives it. Signed-in screens carry `noindex`.
   */
  async pageHtml(indexFile: string, pathname: string): Promise<string> {
    const html = this.shellHtml(indexFile, pathname);
    const target = remoteForPath(pathname);
    if (target?.remote !== 'marketing') {
      const signedIn = REMOTE_ROUTES.some(
        (route) => route.access === 'signed-in' && route.segment === pathname.split('/')[1],
      );
      return signedIn
        ? html.replace('</head>', '<meta name="robots" content="noindex" /></head>')
        : html;
    }
    const location = this.marketingLocation();
    const page = location ? await this.prerendered.page(location, pathname) : null;
    if (!page) return html;
    return withPrerenderedPage(html, page, { publicOrigin: this.config.publicOrigin, pathname });
  }

  /**
   * The HTML of a public page path as pageHtml gives it (the shell's page, with the marketing
   * remote's prerendered page when there is one), for a page another module answers (the contact
   * page); null when there is no shell build.
   */
  async publicPageHtml(pathname: string): Promise<string | null> {
    const index = path.join(this.config.webDistDir, 'shell', 'index.html');
    if (!fs.existsSync(index)) return null;
    return this.pageHtml(index, pathname);
  }

  /** `/robots.txt`: every crawler may read the public site; the signed-in screens are off limits. */
  robotsTxt(): string {
    const closed = REMOTE_ROUTES.filter((route) => route.access === 'signed-in').map(
      (route) => `Disallow: /${route.segment}`,
    );
    return [
      'User-agent: *',
      ...closed,
      'Disallow: /api/',
      'Allow: /',
      '',
      `Sitemap: ${this.config.publicOrigin}/sitemap.xml`,
      '',
    ].join('\n');
  }

  /** `/sitemap.xml`: the public pages (`MARKETING_PAGES`), on PUBLIC_ORIGIN. */
  sitemapXml(): string {
    const urls = MARKETING_PAGES.map(
      (segment) => `<url><loc>${this.config.publicOrigin}/${segment}</loc></url>`,
    );
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  }

  /** Express middleware to mount before Nest's routes (see setupApp). */
  handler(): RequestHandler {
    const root = this.config.webDistDir;
    const staticOptions = {
      index: false as const,
      fallthrough: true,
      setHeaders: (response: Response, filePath: string): void => {
        response.setHeader('Cache-Control', cacheControlFor(filePath));
        trimDocumentHeaders(response, filePath);
      },
    };
    const withPrecompressed = (dir: string): RequestHandler => {
      const compressed = servePrecompressed(dir);
      const plain = express.static(dir, staticOptions);
      return (request, response, next) => {
        compressed(request, response, () => plain(request, response, next));
      };
    };
    const remotes = new Map(
      REMOTE_NAMES.map((name) => [name, withPrecompressed(path.join(root, name))]),
    );
    // One handler per stored version that was asked for (versions are immutable once stored).
    const versions = new Map<string, RequestHandler>();
    const versionHandler = (name: RemoteName, version: string): RequestHandler | undefined => {
      const key = `${name}@${version}`;
      let serve = versions.get(key);
      if (!serve) {
        const folder = this.versions.folder(name, version);
        if (!folder) return undefined;
        serve = withPrecompressed(folder);
        versions.set(key, serve);
      }
      return serve;
    };
    const shellDir = path.join(root, 'shell');
    const shell = withPrecompressed(shellDir);
    const shellIndex = path.join(shellDir, 'index.html');
    // Checked once: the build does not change while the API runs.
    const hasShell = fs.existsSync(shellIndex);
    if (!hasShell) this.logger.warn(`No shell build at ${shellDir}: only the API is served`);

    return (request: Request, response: Response, next: NextFunction): void => {
      const url = request.path;
      if (url === '/api' || url.startsWith('/api/') || url === '/remotes.json') return next();
      if (request.method !== 'GET' && request.method !== 'HEAD') return next();
      if (SERVER_RENDERED_PAGE.test(url)) return next();
      if (url === '/robots.txt' || url === '/sitemap.xml') {
        response.setHeader('Cache-Control', NO_CACHE);
        trimDocumentHeaders(response, url);
        if (url === '/robots.txt') response.type('text/plain').send(this.robotsTxt());
        else response.type('application/xml').send(this.sitemapXml());
        return;
      }
      if (url === PRERENDERED_APP_LOADER_PATH) {
        response.setHeader('Cache-Control', NO_CACHE);
        trimDocumentHeaders(response, url);
        response.type('application/javascript').send(prerenderedAppLoaderJs);
        return;
      }
      const remote = REMOTE_PATH.exec(url);
      if (remote) {
        const [, name, version] = remote;
        const known = REMOTE_NAMES.find((candidate) => candidate === name);
        const serve =
          known && (version === undefined ? remotes.get(known) : versionHandler(known, version));
        if (!serve) return next();
        // Strip `/remotes/<name>[@<version>]` so the file path is relative to that remote's folder.
        const original = request.url;
        const prefix = `/remotes/${name}${version === undefined ? '' : `@${version}`}`;
        request.url = original.slice(prefix.length) || '/';
        serve(request, response, () => {
          request.url = original;
          next();
        });
        return;
      }
      shell(request, response, () => {
        const lastSegment = url.split('/').pop() ?? '';
        if (lastSegment.includes('.') || !hasShell) return next();
        response.setHeader('Cache-Control', NO_CACHE);
        // The shell renders the 404 screen for a path no screen has: say so in the status too.
        response.status(isKnownPagePath(url) ? 200 : 404);
        this.pageHtml(shellIndex, url).then(
          (html) => response.type('html').send(html),
          (error: unknown) => next(error),
        );
      });
    };
  }
}
