import { createHash } from 'node:crypto';
import vm from 'node:vm';
import {
  PRERENDERED_APP_LOADER_SHA256,
  prerenderedAppLoaderJs,
  withAppLoadedOnUse,
} from './prerendered-app-loader';

const SHELL =
  '<!doctype html><html><head><title>Grove</title><script defer src=/main.68f89e832e62068b.js></script></head><body><div id=root></div></body></html>';

describe('withAppLoadedOnUse', () => {
  it('hands the shell’s entry to the loader, inline (no request before the first paint), instead of fetching it with the page', () => {
    const html = withAppLoadedOnUse(SHELL);
    expect(html).not.toContain('<script defer src=/main.');
    expect(html).toContain(
      `<script data-app="/main.68f89e832e62068b.js">${prerenderedAppLoaderJs}</script></head>`,
    );
    // The site CSP names exactly this inline script.
    const inline = /<script data-app="[^"]*">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(createHash('sha256').update(inline).digest('base64')).toBe(
      PRERENDERED_APP_LOADER_SHA256,
    );
  });

  it('leaves a page without an entry script as it is', () => {
    const page = '<html><head></head><body></body></html>';
    expect(withAppLoadedOnUse(page)).toBe(page);
  });
});

/** Runs the loader in a tiny fake browser; returns what it appended and how to drive it. */
function runLoader(readyState: 'loading' | 'complete') {
  const listeners = new Map<string, () => void>();
  const appended: string[] = [];
  const timers: (() => void)[] = [];
  const window = {
    addEventListener: (name: string, listener: () => void) => listeners.set(name, listener),
    removeEventListener: (name: string) => listeners.delete(name),
    setTimeout: (run: () => void) => timers.push(run),
  };
  const document = {
    readyState,
    currentScript: { getAttribute: () => '/main.1.js' },
    createElement: () => ({ src: '', async: true }),
    head: { appendChild: (script: { src: string }) => appended.push(script.src) },
  };
  vm.runInNewContext(prerenderedAppLoaderJs, { window, document });
  return { listeners, appended, timers };
}

describe('the app loader (prerenderedAppLoaderJs)', () => {
  it('fetches the app once, on the visitor’s first pointer or key', () => {
    const { listeners, appended } = runLoader('loading');
    expect(appended).toEqual([]);
    listeners.get('pointerdown')?.();
    expect(appended).toEqual(['/main.1.js']);
    expect(listeners.has('keydown')).toBe(false);
  });

  it('fetches the app after the page has loaded and idled when the visitor does nothing', () => {
    const { listeners, appended, timers } = runLoader('loading');
    listeners.get('load')?.();
    expect(appended).toEqual([]);
    timers.forEach((run) => run());
    expect(appended).toEqual(['/main.1.js']);
  });
});
