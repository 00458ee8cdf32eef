import fs from 'node:fs';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import {
  PRERENDERED_FOLDER,
  PRERENDERED_MANIFEST,
  type PrerenderedManifest,
  type PrerenderedPage,
} from '@grove/contracts';

/** One page of a remote's prerendered site, ready to go into the shell's HTML. */
export interface LoadedPrerenderedPage extends PrerenderedPage {
  /** The page's markup (its asset URLs still start with PRERENDERED_ASSET_BASE). */
  html: string;
  /** The page's stylesheet, to inline: its own (the rules it uses) or the manifest's whole one. */
  css: string;
  /** The folder the remote is served from, ending in `/` (a path on Grove's origin or a URL). */
  base: string;
}

/** Where a remote's files are: a folder on this machine, or a URL (a remote on its own origin). */
export type RemoteLocation = { folder: string; base: string } | { url: string; base: string };

/** How long a remote origin may take to answer the manifest or a page, in milliseconds. */
const FETCH_TIMEOUT_MS = 1500;
/** How long what a remote origin answered is used before it is asked again, in milliseconds. */
const FETCH_FRESH_MS = 30_000;
/** How long a remote origin that failed is not asked again, in milliseconds. */
const FETCH_FAILED_MS = 5_000;

/** A tiny text cache for files of remotes on their own origins (stale while revalidating). */
interface Fetched {
  text: string | null;
  at: number;
  refreshing?: Promise<void>;
}

/**
 * Reads a remote's prerendered pages (`prerendered/manifest.json` and each page's HTML, written
 * by its build: docs/architecture.md#prerendered-pages) from wherever that remote is served: its
 * build or a stored version on this machine (re-read when the file changes), or its own origin
 * (fetched with a 1.5 s timeout, kept 30 s and refreshed in the background). Anything missing,
 * malformed or unreachable gives `null`, and the caller serves the shell's page as it is.
 */
export class PrerenderedPages {
  private readonly logger = new Logger('PrerenderedPages');
  private readonly files = new Map<string, { mtimeMs: number; text: string }>();
  private readonly fetched = new Map<string, Fetched>();

  /**
   * The prerendered page for `pathname` (the 404 screen's when no page has that path), or null
   * when that remote has none to give.
   */
  async page(location: RemoteLocation, pathname: string): Promise<LoadedPrerenderedPage | null> {
    const manifestText = await this.read(location, PRERENDERED_MANIFEST);
    if (!manifestText) return null;
    let manifest: PrerenderedManifest;
    try {
      manifest = JSON.parse(manifestText) as PrerenderedManifest;
      if (!Array.isArray(manifest.pages) || typeof manifest.stylesheet !== 'string')
        throw new Error('no pages or stylesheet');
    } catch (error) {
      this.logger.warn(`malformed prerendered manifest at ${location.base}: ${String(error)}`);
      return null;
    }
    const wanted = pathname.replace(/\/+$/, '') || '/';
    const entry =
      manifest.pages.find((page) => page.path === wanted) ??
      manifest.pages.find((page) => page.path === null);
    if (!entry) return null;
    const [html, css] = await Promise.all([
      this.read(location, entry.file),
      this.read(
        location,
        typeof entry.stylesheet === 'string' ? entry.stylesheet : manifest.stylesheet,
      ),
    ]);
    if (html === null || css === null) return null;
    return { ...entry, html, css, base: location.base };
  }

  /** Every page path the manifest lists (not the 404 screen), or [] when there is none. */
  async paths(location: RemoteLocation): Promise<string[]> {
    const text = await this.read(location, PRERENDERED_MANIFEST);
    if (!text) return [];
    try {
      const manifest = JSON.parse(text) as PrerenderedManifest;
      return manifest.pages.flatMap((page) => (typeof page.path === 'string' ? [page.path] : []));
    } catch {
      return [];
    }
  }

  private async read(location: RemoteLocation, name: string): Promise<string | null> {
    if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(name) || name.includes('..')) return null;
    return 'folder' in location
      ? this.readFile(path.join(location.folder, PRERENDERED_FOLDER, name))
      : this.fetchText(new URL(`${PRERENDERED_FOLDER}/${name}`, location.url).href);
  }

  private readFile(file: string): string | null {
    try {
      const { mtimeMs } = fs.statSync(file);
      const known = this.files.get(file);
      if (known?.mtimeMs === mtimeMs) return known.text;
      const text = fs.readFileSync(file, 'utf8');
      this.files.set(file, { mtimeMs, text });
      return text;
    } catch {
      return null;
    }
  }

  private async fetchText(url: string): Promise<string | null> {
    const known = this.fetched.get(url);
    const now = Date.now();
    if (known) {
      const fresh = known.at + (known.text === null ? FETCH_FAILED_MS : FETCH_FRESH_MS) > now;
      if (!fresh && !known.refreshing) {
        known.refreshing = this.download(url).then((text) => {
          this.fetched.set(url, { text: text ?? known.text, at: Date.now() });
        });
      }
      return known.text;
    }
    const text = await this.download(url);
    this.fetched.set(url, { text, at: Date.now() });
    return text;
  }

  private async download(url: string): Promise<string | null> {
    try {
      const reply = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!reply.ok) return null;
      return await reply.text();
    } catch (error) {
      this.logger.warn(`${url} could not be fetched (${(error as Error).message})`);
      return null;
    }
  }
}
