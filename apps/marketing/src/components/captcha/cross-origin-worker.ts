/**
 * A `Worker` that also starts from a script on another origin, for when the marketing remote is
 * served from its own origin (a CDN): browsers refuse `new Worker(url)` unless `url` is on the
 * page's origin. For another origin it starts a `blob:` worker whose only line imports the script
 * (a classic worker may `importScripts` any origin its CSP allows: Grove's CSP allows `blob:`
 * workers and the remote's origin in script-src exactly when a remote is on another origin, see
 * the API's content-security-policy.ts). Same-origin scripts start as they always did.
 *
 * Webpack bundles `new CrossOriginWorker(new URL('…', import.meta.url))` as a worker chunk, like
 * `new Worker(…)` (`module.parser.javascript.worker` in tools/webpack/web-app.cjs). The chunk must
 * be self-contained (no chunk loading of its own), as altcha's workers are.
 */
export class CrossOriginWorker extends Worker {
  /** @param url the worker script; @param options as for `Worker` (classic workers only) */
  constructor(url: URL | string, options?: WorkerOptions) {
    const script = new URL(url, window.location.href);
    if (script.origin === window.location.origin) {
      super(script, options);
      return;
    }
    const loader = new Blob([`importScripts(${JSON.stringify(script.href)});`], {
      type: 'text/javascript',
    });
    const loaderUrl = URL.createObjectURL(loader);
    super(loaderUrl, options);
    // The worker has fetched its loader by the time it runs; the URL is not needed afterwards.
    setTimeout(() => URL.revokeObjectURL(loaderUrl), 10_000);
  }
}
