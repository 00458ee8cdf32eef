/**
 * Runs a remote's prerender bundle once it is emitted and writes what it renders into
 * `<output>/prerendered/` (docs/architecture.md#prerendered-pages): one HTML fragment per page,
 * its own stylesheet (`css/<page>.css`: the rules of the whole one that its markup uses), its Open
 * Graph image (PNG through Debian's Chromium when it can be started, else the SVG), and
 * `manifest.json` (`PrerenderedManifest` of @grove/contracts). The bundle itself is deleted:
 * only its output ships with the remote.
 */
const fs = require('node:fs');
const path = require('node:path');
const Beasties = require('beasties');

const FOLDER = 'prerendered';
const CHROMIUM = process.env.GROVE_CHROMIUM || '/usr/bin/chromium';

/**
 * The rules of `css` that `html` uses, with beasties (the maintained fork of critters): every
 * rule with a selector matching an element of the markup (its `:hover`, `:focus-visible`… states
 * and media queries included), the custom properties, the keyframes it animates with. Beasties
 * judges the whole markup, not only what is above the fold: the page without JavaScript needs
 * all of it (docs/decisions/public-site-prerendered-by-the-marketing-build.md, per-page CSS).
 * @param {string} css the remote's whole prerendered stylesheet
 * @param {string} html one page's markup as the API puts it into the shell's body
 * @returns {Promise<string>}
 */
async function usedRules(css, html) {
  const beasties = new Beasties({
    reduceInlineStyles: true,
    keyframes: 'critical',
    logLevel: 'warn',
  });
  const document = await beasties.process(
    `<!doctype html><html><head><style>${css}</style></head><body><div id="root" hidden></div><div id="grove-prerendered">${html}</div></body></html>`,
  );
  const style = /<style>([\s\S]*?)<\/style>/.exec(document);
  if (!style) throw new Error('beasties returned no stylesheet');
  return style[1];
}

/**
 * SVG documents → PNG buffers (1200×630) with Playwright's Chromium; null when no Chromium can be
 * started (a build machine without one, or GROVE_OG_PNG=false): the caller keeps the SVGs.
 * @param {string[]} svgs
 * @returns {Promise<Buffer[] | null>}
 */
async function svgsToPngs(svgs) {
  if (process.env.GROVE_OG_PNG === 'false' || !fs.existsSync(CHROMIUM)) return null;
  let browser;
  try {
    const { chromium } = require('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM });
    const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
    const pngs = [];
    for (const svg of svgs) {
      await page.setContent(
        `<!doctype html><html><body style="margin:0">${svg.replace(/^<\?xml[^>]*>/, '')}</body></html>`,
      );
      pngs.push(
        await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: 1200, height: 630 } }),
      );
    }
    return pngs;
  } catch (error) {
    console.warn(`[prerender] Open Graph images stay SVG: ${error.message}`);
    return null;
  } finally {
    await browser?.close();
  }
}

class PrerenderPlugin {
  /** @param {{ bundle: string, stylesheet: string }} options file names inside `prerendered/` */
  constructor(options) {
    this.options = options;
  }

  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('PrerenderPlugin', async (compilation) => {
      if (compilation.errors.length > 0) return;
      const folder = path.join(compilation.outputOptions.path, FOLDER);
      const bundle = path.join(folder, this.options.bundle);
      delete require.cache[require.resolve(bundle)];
      const { renderPages } = require(bundle);
      const pages = renderPages();
      const pngs = await svgsToPngs(pages.map((page) => page.imageSvg));
      const css = fs.readFileSync(path.join(folder, this.options.stylesheet), 'utf8');
      fs.mkdirSync(path.join(folder, 'og'), { recursive: true });
      fs.mkdirSync(path.join(folder, 'css'), { recursive: true });
      const entries = [];
      for (const [index, page] of pages.entries()) {
        const { html, imageSvg, completedByApi, ...entry } = page;
        const base = page.file.replace(/\.html$/, '');
        fs.writeFileSync(path.join(folder, page.file), html);
        const image = pngs ? `og/${base}.png` : `og/${base}.svg`;
        fs.writeFileSync(path.join(folder, image), pngs ? pngs[index] : imageSvg);
        // A page the API completes (a form slot) keeps the whole stylesheet: its form's classes
        // are not in this markup.
        const stylesheet = completedByApi ? undefined : `css/${base}.css`;
        if (stylesheet) fs.writeFileSync(path.join(folder, stylesheet), await usedRules(css, html));
        entries.push({
          ...entry,
          image,
          imageType: pngs ? 'image/png' : 'image/svg+xml',
          stylesheet,
        });
      }
      fs.writeFileSync(
        path.join(folder, 'manifest.json'),
        `${JSON.stringify({ stylesheet: this.options.stylesheet, pages: entries }, null, 2)}\n`,
      );
      fs.rmSync(bundle, { force: true });
    });
  }
}

module.exports = { PrerenderPlugin, usedRules };
