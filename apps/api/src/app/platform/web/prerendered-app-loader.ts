import { createHash } from 'node:crypto';
/**
 * The app's JavaScript on a prerendered public page (docs/architecture.md#prerendered-pages,
 * docs/decisions/public-site-prerendered-by-the-marketing-build.md): the page is complete without
 * it, so the shell's entry (`main.<hash>.js`, ~100 KB, which then loads React, the router and the
 * marketing remote) is not fetched ahead of the first paint. The API sends this small script
 * instead, inline (no request of its own before the first paint: Lighthouse's LCP of `/` fell from
 * 1.69× to 0.97× the join page's, docs/decisions/public-site-prerendered-by-the-marketing-build.md),
 * with the entry's URL in `data-app`; it adds the entry on the visitor's first
 * sign of use (pointer, touch, key, wheel, scroll, focus) or, when there is none, once the page
 * has loaded and the browser has been idle for APP_IDLE_DELAY_MS. A page sent without a
 * prerendered copy keeps the shell's own `<script defer>`.
 */

/**
 * Where the API also serves the loader as a file: pages prerendered before it was inlined, still
 * in a browser's or a proxy's cache, name it.
 */
export const PRERENDERED_APP_LOADER_PATH = '/grove-app-loader.js';

/** Milliseconds after the `load` event before the app is fetched when the visitor does nothing. */
export const APP_IDLE_DELAY_MS = 3000;

/** The little of the browser's DOM the loader uses (the API is compiled without the DOM's types). */
interface LoaderScript {
  src: string;
  async: boolean;
}
declare const document: {
  readyState: string;
  currentScript: { getAttribute(name: string): string | null } | null;
  createElement(tag: 'script'): LoaderScript;
  head: { appendChild(node: LoaderScript): unknown };
};
declare const window: {
  addEventListener(
    name: string,
    listener: () => void,
    options?: { capture?: boolean; passive?: boolean; once?: boolean },
  ): void;
  removeEventListener(name: string, listener: () => void, options?: { capture?: boolean }): void;
  setTimeout(run: () => void, ms: number): unknown;
  requestIdleCallback?: (run: () => void) => void;
};

/** The visitor's signs of use that fetch the app at once. */
const USE_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'wheel', 'scroll', 'focusin'];

/**
 * The loader's body, run in the browser (serialised by {@link prerenderedAppLoaderJs}: it may use
 * nothing from its module).
 */
function loadAppOnUse(useEvents: string[], idleDelayMs: number): void {
  const tag = document.currentScript;
  const sources = (tag?.getAttribute('data-app') ?? '').split(' ').filter(Boolean);
  if (sources.length === 0) return;
  let started = false;
  const options = { capture: true, passive: true } as const;
  const start = (): void => {
    if (started) return;
    started = true;
    for (const name of useEvents) window.removeEventListener(name, start, options);
    for (const source of sources) {
      const script = document.createElement('script');
      script.src = source;
      script.async = false;
      document.head.appendChild(script);
    }
  };
  for (const name of useEvents) window.addEventListener(name, start, options);
  const whenIdle = (): void => {
    window.setTimeout(
      () => (window.requestIdleCallback ? window.requestIdleCallback(start) : start()),
      idleDelayMs,
    );
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

/** The loader's source: inline in each prerendered page, and served at PRERENDERED_APP_LOADER_PATH. */
export const prerenderedAppLoaderJs = `(${loadAppOnUse.toString()})(${JSON.stringify(
  USE_EVENTS,
)},${APP_IDLE_DELAY_MS});\n`;

/** Base64 SHA-256 of {@link prerenderedAppLoaderJs}: the site CSP's `script-src` names it. */
export const PRERENDERED_APP_LOADER_SHA256 = createHash('sha256')
  .update(prerenderedAppLoaderJs)
  .digest('base64');

/**
 * The shell's `index.html` with each of its `<script defer src=…>` entries handed to the loader
 * (`<script data-app="…">…loader…</script>`, inline), so none is fetched before the
 * visitor uses the page or it has loaded and idled.
 */
export function withAppLoadedOnUse(shell: string): string {
  const sources: string[] = [];
  const html = shell.replace(
    /<script\s+defer\s+src=("[^"]+"|[^\s>]+)\s*><\/script>/g,
    (_match, source: string) => {
      sources.push(source.replace(/^"|"$/g, ''));
      return '';
    },
  );
  if (sources.length === 0) return shell;
  const attribute = sources.join(' ').replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return html.replace(
    '</head>',
    `<script data-app="${attribute}">${prerenderedAppLoaderJs}</script></head>`,
  );
}
