import type { CaptchaSettings } from '../captcha/captcha.config';

/**
 * Hosts each captcha provider's widget needs on the page: its script, and the frame it renders
 * the challenge in. Sources: Google's reCAPTCHA FAQ ("can I use reCAPTCHA with a Content Security
 * Policy?") and Cloudflare's Turnstile docs ("Content Security Policy"). The self-hosted altcha
 * needs nothing beyond Grove's own origin.
 */
export const CAPTCHA_CSP_SOURCES: Readonly<
  Record<CaptchaSettings['provider'], { script: readonly string[]; frame: readonly string[] }>
> = {
  altcha: { script: [], frame: [] },
  recaptcha: {
    script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
    frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
  },
  turnstile: {
    script: ['https://challenges.cloudflare.com'],
    frame: ['https://challenges.cloudflare.com'],
  },
};

/** What {@link contentSecurityPolicy} builds the policy from. */
export interface ContentSecurityPolicyInput {
  /** Origins remotes are loaded from besides Grove's own, e.g. `['https://cdn.example.com']`. */
  remoteOrigins: readonly string[];
  /** The captcha the contact form uses (`CaptchaSettings.provider`). */
  captchaProvider: CaptchaSettings['provider'];
  /**
   * Base64 SHA-256 of each inline `<script>` body Grove's own pages carry (the prerendered pages'
   * app loader, `PRERENDERED_APP_LOADER_SHA256`): that exact script runs, no other inline one.
   */
  inlineScriptHashes?: readonly string[];
}

/**
 * The `Content-Security-Policy` header of Grove's pages. A remote on another origin is allowed in
 * every directive its files use, so it works as it does from Grove's own origin: its entry and
 * chunks (script-src), its extracted CSS (style-src), images and the fonts its CSS names (img-src,
 * font-src), the landing video (media-src), its manifest (connect-src). With a remote on another
 * origin, worker-src also allows `blob:`: a browser starts no worker from another origin's URL, so
 * the altcha proof-of-work workers start from a `blob:` that imports the remote's worker file
 * (apps/marketing `components/captcha/cross-origin-worker.ts`). reCAPTCHA and Turnstile add their
 * script and frame hosts (CAPTCHA_CSP_SOURCES) when configured; `inlineScriptHashes` name the
 * only inline scripts that run.
 * @returns the header value, directives separated by `; `
 */
export function contentSecurityPolicy({
  remoteOrigins,
  captchaProvider,
  inlineScriptHashes = [],
}: ContentSecurityPolicyInput): string {
  const remotes = [...new Set(remoteOrigins)];
  const captcha = CAPTCHA_CSP_SOURCES[captchaProvider];
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    [
      'script-src',
      [
        "'self'",
        ...remotes,
        ...captcha.script,
        ...inlineScriptHashes.map((hash) => `'sha256-${hash}'`),
      ],
    ],
    ['style-src', ["'self'", "'unsafe-inline'", ...remotes]],
    ['img-src', ["'self'", 'data:', ...remotes]],
    ['font-src', ["'self'", 'data:', ...remotes]],
    ['media-src', ["'self'", ...remotes]],
    ['connect-src', ["'self'", ...remotes]],
    ['worker-src', ["'self'", ...(remotes.length > 0 ? ['blob:'] : [])]],
    ['frame-src', ["'self'", ...captcha.frame]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['frame-ancestors', ["'self'"]],
    ['form-action', ["'self'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/**
 * The `Content-Security-Policy` of a page the API renders itself with its script and stylesheet
 * inline (the referral join page, docs/architecture.md#join-page): only those exact inline blocks
 * run or apply, named by their SHA-256 hashes (no `'unsafe-inline'`, no nonce, so every reply of
 * one page carries the same header); no other script or style, from anywhere; images from Grove's
 * own origin (the favicon) or `data:`; fetches and form posts only to Grove's own origin.
 * @param hashes base64 SHA-256 of each inline `<script>` and `<style>` body, exactly as sent
 * @returns the header value, directives separated by `; `
 */
export function inlinePageContentSecurityPolicy(hashes: {
  scripts: readonly string[];
  styles: readonly string[];
}): string {
  const sources = (list: readonly string[]) =>
    list.length > 0 ? list.map((hash) => `'sha256-${hash}'`) : ["'none'"];
  const directives: [string, string[]][] = [
    ['default-src', ["'none'"]],
    ['script-src', sources(hashes.scripts)],
    ['style-src', sources(hashes.styles)],
    ['img-src', ["'self'", 'data:']],
    ['connect-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['frame-ancestors', ["'self'"]],
    ['form-action', ["'self'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}
