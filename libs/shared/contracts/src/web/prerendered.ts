/**
 * The marketing remote's prerendered pages (docs/architecture.md#prerendered-pages): its build
 * renders each public page to HTML in `prerendered/` beside its files, described by
 * `prerendered/manifest.json`; the API puts that HTML into the shell's page, and the remote's
 * JavaScript swaps it for the live page when it mounts.
 */

/** The folder of a remote's build that holds its prerendered pages. */
export const PRERENDERED_FOLDER = 'prerendered';

/** The manifest inside PRERENDERED_FOLDER. */
export const PRERENDERED_MANIFEST = 'manifest.json';

/** Id of the element the API puts the prerendered markup in (beside the shell's `#root`, which it hides until the remote mounts). */
export const PRERENDERED_ELEMENT_ID = 'grove-prerendered';

/**
 * Id of the prerendered page's inline stylesheet. The API puts it first in `<body>`, after every
 * stylesheet the app adds to `<head>` while it loads, so those (the same rules, in another order)
 * cannot shift the prerendered copy; it goes with the copy.
 */
export const PRERENDERED_STYLE_ID = 'grove-prerendered-style';

/**
 * What the prerendered markup starts every URL of the remote's own files with (images, the
 * video): the API replaces it with the folder the remote is served from, so the same build works
 * from Grove's origin, a stored version or a CDN.
 */
export const PRERENDERED_ASSET_BASE = '/__grove_remote_base__/';

/** One prerendered page. */
export interface PrerenderedPage {
  /** The path it answers, e.g. `/pricing`; `null` for the 404 screen (every unknown path). */
  path: string | null;
  /** Its HTML fragment, relative to PRERENDERED_FOLDER, e.g. `pricing.html`. */
  file: string;
  /** The document title, e.g. `Pricing · Grove`. */
  title: string;
  /** The meta description. */
  description: string;
  /** The page's `<h1>` text. */
  headline: string;
  /** Its Open Graph image (1200×630), relative to PRERENDERED_FOLDER, when the build made one. */
  image?: string;
  /** The image's MIME type, e.g. `image/png`. */
  imageType?: string;
  /**
   * Its own stylesheet, relative to PRERENDERED_FOLDER, e.g. `css/pricing.css`: only the rules of
   * the manifest's `stylesheet` that its markup uses, which the API inlines instead of the whole
   * one. Absent on a page whose markup the API completes (a PRERENDERED_FORM_SLOT) and in builds
   * made before it: the page gets the manifest's `stylesheet`.
   */
  stylesheet?: string;
}

/** `prerendered/manifest.json`. */
export interface PrerenderedManifest {
  /** The stylesheet of every prerendered page (design system, top bar, pages), relative to PRERENDERED_FOLDER, inlined by the API for a page without a `stylesheet` of its own. */
  stylesheet: string;
  pages: PrerenderedPage[];
}

/**
 * Attribute of the element of a prerendered page that the API fills, per request, with a form it
 * renders itself for browsers without JavaScript (value: the form's name, e.g. `contact`); the
 * remote's stylesheet hides the rest of that element's content (its loading state) beside it.
 */
export const PRERENDERED_FORM_SLOT = 'data-grove-form-slot';

/** Class of the form the API puts into a PRERENDERED_FORM_SLOT. */
export const PRERENDERED_FORM_CLASS = 'grove-server-form';
