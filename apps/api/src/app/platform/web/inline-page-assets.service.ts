import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import { inlinePageContentSecurityPolicy } from './content-security-policy';
import { WebAppsService } from './web-apps.service';
import type { InlinePageAssets } from './inline-page.view';

interface Loaded extends InlinePageAssets {
  /** `path:mtime` of both files, to notice a new build or a switched remote version. */
  key: string;
  contentSecurityPolicy: string;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64');

/**
 * A server-rendered page's inline stylesheet and script, read from the referral remote's build
 * (`<folder>/page.js` and `page.css`, apps/referral/webpack.config.js; the version
 * REMOTES_DIR/current.json names, else WEB_DIST_DIR/referral; `WebAppsService.remoteBuildFile`)
 * and re-read when either file changes, with the page's Content-Security-Policy naming their
 * SHA-256 hashes. Without a build the page is served unstyled and without script (its forms still
 * work: they are plain POSTs).
 */
export class InlinePageAssetsService {
  private readonly logger: Logger;

  private loaded: Loaded | null = null;

  /** @param folder the build's folder of this page's assets, e.g. `join-page` */
  constructor(
    private readonly web: WebAppsService,
    private readonly folder: string,
  ) {
    this.logger = new Logger(folder);
  }

  /**
   * Sets the page's own headers on `response`: its CSP, `Cache-Control: no-store` and
   * `Referrer-Policy: same-origin` (helmet's `no-referrer` makes a browser send `Origin: null` with
   * the form's POST, which the origin check refuses; `same-origin` still keeps the code in the
   * URL from other sites).
   * @returns the assets to inline
   */
  headers(response: Response): InlinePageAssets {
    const assets = this.current();
    response.setHeader('Content-Security-Policy', assets.contentSecurityPolicy);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Referrer-Policy', 'same-origin');
    response.type('html');
    return assets;
  }

  /** The assets and the CSP header value that allows exactly them. */
  current(): Loaded {
    const files = ['page.js', 'page.css'].map((file) =>
      this.web.remoteBuildFile('referral', `${this.folder}/${file}`),
    );
    const key = files.map((file) => (file ? `${file}:${fs.statSync(file).mtimeMs}` : '')).join('|');
    if (this.loaded?.key === key) return this.loaded;
    const [scriptFile, styleFile] = files;
    let script = scriptFile ? fs.readFileSync(scriptFile, 'utf8') : '';
    const css = styleFile ? fs.readFileSync(styleFile, 'utf8') : '';
    // An inline script cannot contain its own end tag; a build that does is not inlined.
    if (/<\/script/i.test(script)) {
      this.logger.error(`${scriptFile} contains "</script": served without it`);
      script = '';
    }
    if (!scriptFile || !styleFile)
      this.logger.warn(
        `No ${this.folder} assets in the referral build: the page is served without them`,
      );
    this.loaded = {
      key,
      script,
      css: css.replace(/<\/style/gi, '<\\/style'),
      contentSecurityPolicy: '',
    };
    this.loaded.contentSecurityPolicy = inlinePageContentSecurityPolicy({
      scripts: this.loaded.script ? [sha256(this.loaded.script)] : [],
      styles: this.loaded.css ? [sha256(this.loaded.css)] : [],
    });
    return this.loaded;
  }
}
