import escapeHtml from 'escape-html';

/**
 * The HTML pieces shared by the pages the API renders itself with inline assets (the join page
 * `/referral/:code`, the business's join page `/join/:code` and the member page `/member`;
 * docs/architecture.md#join-page). Every text is escaped here, nothing arrives pre-escaped.
 */

/** The inline assets a page carries (built by the referral remote: `join-page/`, `member-page/`). */
export interface InlinePageAssets {
  /** The stylesheet's text, or '' when the referral build is missing. */
  css: string;
  /** The script's text, or '' (the page then works as without JavaScript). */
  script: string;
}

/** Grove's logo (`@grove/web-ui` Logo), static; tools/scripts/inline-page-markup.test.mjs proves it the same. */
export const LOGO =
  '<span class="g-logo"><svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">' +
  '<circle cx="16" cy="12" r="10" fill="#3f9a67"/><circle cx="10" cy="15" r="6" fill="#2f7d52"/>' +
  '<circle cx="22" cy="15" r="6" fill="#2f7d52"/>' +
  '<rect x="14.5" y="17" width="3" height="13" rx="1.5" fill="#5b4636"/></svg>' +
  '<span class="g-logo__word">Grove</span></span>';

/** An `@grove/web-ui` Alert: `error` is announced at once (role alert), the others politely. */
export const alertHtml = (tone: 'error' | 'success' | 'info', text: string, id?: string): string =>
  `<div${id ? ` id="${id}"` : ''} class="g-alert g-alert--${tone}" role="${tone === 'error' ? 'alert' : 'status'}">${escapeHtml(text)}</div>`;

/**
 * A labelled input as `@grove/web-ui` TextField renders it (error announced, under the field; an
 * optional hint under the label, described by the input).
 */
export function fieldHtml(
  id: string,
  options: {
    label: string;
    name: string;
    type: string;
    autocomplete: string;
    value: string;
    hint?: string;
  },
  error: string | undefined,
): string {
  const described = [options.hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const aria =
    (error ? ' aria-invalid="true"' : '') + (described ? ` aria-describedby="${described}"` : '');
  return (
    `<div class="g-field"><label class="g-field__label" for="${id}">${options.label}</label>` +
    (options.hint
      ? `<div id="${id}-hint" class="g-field__hint">${escapeHtml(options.hint)}</div>`
      : '') +
    `<input class="g-field__input" id="${id}" name="${options.name}" type="${options.type}" autocomplete="${options.autocomplete}" value="${escapeHtml(options.value)}"${aria}>` +
    (error ? `<div id="${id}-error" class="g-field__error">${escapeHtml(error)}</div>` : '') +
    `</div>`
  );
}

/**
 * The form of a public join page (the referral join page, the business's join page), posting
 * without script: Name and Email (their values and messages after a refused send), `moreFields`
 * (already HTML), the hidden honeypot `website` (only bots fill it), `hidden` inputs (already
 * HTML) and Submit. `data` becomes `data-*` attributes of the form, in order, escaped here.
 */
export function joinFormHtml(form: {
  ids: { form: string; name: string; email: string; website: string };
  action: string;
  data?: Readonly<Record<string, string>>;
  values?: { name: string; email: string };
  errors?: { name?: string; email?: string };
  moreFields?: string;
  hidden?: string;
}): string {
  const { ids } = form;
  const data = Object.entries(form.data ?? {})
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  return (
    `<form id="${ids.form}" method="post" action="${escapeHtml(form.action)}"${data} novalidate>` +
    fieldHtml(
      ids.name,
      {
        label: 'Name',
        name: 'name',
        type: 'text',
        autocomplete: 'name',
        value: form.values?.name ?? '',
      },
      form.errors?.name,
    ) +
    fieldHtml(
      ids.email,
      {
        label: 'Email',
        name: 'email',
        type: 'email',
        autocomplete: 'email',
        value: form.values?.email ?? '',
      },
      form.errors?.email,
    ) +
    (form.moreFields ?? '') +
    `<div class="referral-join__trap" aria-hidden="true"><label for="${ids.website}">Website</label>` +
    `<input id="${ids.website}" name="website" tabindex="-1" autocomplete="off" value=""></div>` +
    (form.hidden ?? '') +
    `<button type="submit" class="g-btn g-btn--primary g-btn--md referral-join__submit">Submit</button>` +
    `</form>`
  );
}

/**
 * One whole page: head (title, viewport, noindex, the inline stylesheet), the top bar with the
 * logo (or `brand`, a business's name), `main` (already HTML, escaped by the caller) and the inline script when `withScript`.
 * The `<style>` and `<script>` bodies are exactly `assets.css` / `assets.script`, so the CSP hashes
 * of those strings match (`inlinePageContentSecurityPolicy`).
 * @returns the document, UTF-8 text
 */
export function renderInlinePage(page: {
  title: string;
  assets: InlinePageAssets;
  main: string;
  withScript: boolean;
  /** The business's name for the top bar instead of Grove's logo (the join page, issue 25). */
  brand?: string;
}): string {
  const topbar =
    page.brand === undefined
      ? `<a href="/" aria-label="Grove home">${LOGO}</a>`
      : `<span class="join-topbar__brand">${escapeHtml(page.brand)}</span>`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="theme-color" content="#226b45">' +
    '<meta name="robots" content="noindex">' +
    `<title>${escapeHtml(page.title)} · Grove</title>` +
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' +
    (page.assets.css ? `<style>${page.assets.css}</style>` : '') +
    '</head><body>' +
    `<header class="join-topbar">${topbar}</header>` +
    page.main +
    (page.assets.script && page.withScript ? `<script>${page.assets.script}</script>` : '') +
    '</body></html>'
  );
}
