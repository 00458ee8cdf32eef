import {
  GROVE_PLAN,
  PRERENDERED_ASSET_BASE,
  PRERENDERED_ELEMENT_ID,
  PRERENDERED_FOLDER,
  PRERENDERED_STYLE_ID,
} from '@grove/contracts';
import type { LoadedPrerenderedPage } from './prerendered-pages';
import { withAppLoadedOnUse } from './prerendered-app-loader';

/** Escapes text for an HTML attribute value or text node. */
const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** JSON inside `<script type="application/ld+json">`: `<` escaped so no `</script>` can end it. */
const jsonLd = (value: unknown): string =>
  `<script type="application/ld+json">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;

/**
 * Structured data of Grove's public pages: the organisation on every page, and on home and pricing
 * the product's one plan (docs/product.md#constants: 99 dollars per month, free until the first 2
 * members arrive through Grove; the pricing page's words).
 */
export function structuredData(publicOrigin: string, pathname: string): string[] {
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: 'Grove',
    url: `${publicOrigin}/`,
    logo: `${publicOrigin}/favicon.svg`,
  };
  if (pathname !== '/' && pathname !== '/pricing') return [jsonLd(organization)];
  const dollars = (GROVE_PLAN.monthlyPriceCents / 100).toFixed(2);
  const offer = {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: 'Grove',
    applicationCategory: 'BusinessApplication',
    operatingSystem: 'Web',
    url: `${publicOrigin}/pricing`,
    offers: {
      '@type': 'Offer',
      price: dollars,
      priceCurrency: 'USD',
      description: `$${GROVE_PLAN.monthlyPriceCents / 100} per month. Free until your first ${GROVE_PLAN.freeMembers} members arrive through Grove.`,
      priceSpecification: {
        '@type': 'UnitPriceSpecification',
        price: dollars,
        priceCurrency: 'USD',
        unitCode: 'MON',
      },
      url: `${publicOrigin}/pricing`,
    },
  };
  return [jsonLd(organization), jsonLd(offer)];
}

/**
 * The shell's index.html with a prerendered page in it (docs/architecture.md#prerendered-pages):
 * the page's title, description, canonical link, `hreflang` alternates, Open Graph and Twitter
 * tags and JSON-LD in the head; its stylesheet inline first in the body (PRERENDERED_STYLE_ID) and its markup in `#grove-prerendered`
 * beside the shell's `#root`, which is sent `hidden` until the remote's JavaScript mounts and
 * swaps them; the "needs JavaScript" notice dropped. The shell's entry script is handed to the
 * loader (withAppLoadedOnUse: fetched on the visitor's first use or once the page has idled), a
 * script file of Grove's origin, so the CSP stays as it is (the JSON-LD blocks are data, which no browser runs). The 404 screen gets
 * `noindex` and no canonical link.
 * @param shell the shell's index.html as built
 * @param page the page, its markup's asset URLs starting with PRERENDERED_ASSET_BASE
 * @param options `publicOrigin` (AppConfig.publicOrigin) and the request's `pathname`
 */
export function withPrerenderedPage(
  shell: string,
  page: LoadedPrerenderedPage,
  { publicOrigin, pathname }: { publicOrigin: string; pathname: string },
): string {
  const absolute = (url: string) => new URL(url, `${publicOrigin}/`).href;
  const found = page.path !== null;
  const canonical = `${publicOrigin}${page.path === '/' || !found ? '/' : page.path}`;
  const markup = page.html.split(PRERENDERED_ASSET_BASE).join(page.base);
  const image = page.image ? absolute(`${page.base}${PRERENDERED_FOLDER}/${page.image}`) : null;
  const meta = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`;
  const head = [
    ...(found
      ? [
          `<link rel="canonical" href="${escapeHtml(canonical)}" />`,
          `<link rel="alternate" hreflang="en" href="${escapeHtml(canonical)}" />`,
          `<link rel="alternate" hreflang="x-default" href="${escapeHtml(canonical)}" />`,
        ]
      : [meta('name', 'robots', 'noindex')]),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', 'Grove'),
    meta('property', 'og:locale', 'en_US'),
    meta('property', 'og:title', page.title),
    meta('property', 'og:description', page.description),
    ...(found ? [meta('property', 'og:url', canonical)] : []),
    ...(image
      ? [
          meta('property', 'og:image', image),
          ...(page.imageType ? [meta('property', 'og:image:type', page.imageType)] : []),
          meta('property', 'og:image:width', '1200'),
          meta('property', 'og:image:height', '630'),
          meta('property', 'og:image:alt', page.headline),
        ]
      : []),
    meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', page.title),
    meta('name', 'twitter:description', page.description),
    ...(image ? [meta('name', 'twitter:image', image)] : []),
    ...structuredData(publicOrigin, found ? (page.path ?? pathname) : pathname),
    ...heroImagePreload(markup),
  ].join('');
  // First in <body>: after every stylesheet the app appends to <head> while it loads (the same
  // rules in another order would move the copy's boxes), before the markup (no unstyled paint).
  const style = `<style id="${PRERENDERED_STYLE_ID}">${page.css.replace(/<\/style/gi, '<\\/style')}</style>`;
  return (
    withAppLoadedOnUse(shell)
      // The page is complete without the app: its scripts, stylesheets and manifests are not
      // preloaded ahead of the first paint (main.js still loads them, after it).
      .replace(/<link\s+rel="?preload"?[^>]*>/g, '')
      .replace(/<title>[\s\S]*?<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
      .replace(
        // The built index.html is minified (`<meta name=description content="…">`).
        /<meta\s+name="?description"?\s+content=(?:"[^"]*"|[^\s>]+)\s*\/?>/,
        meta('name', 'description', page.description),
      )
      .replace('</head>', `${head}</head>`)
      .replace(/<noscript>[\s\S]*?<\/noscript>/, '')
      .replace(
        /<div id="?root"?><\/div>/,
        `${style}<div id="${PRERENDERED_ELEMENT_ID}">${markup}</div><div id="root" hidden></div>`,
      )
  );
}

/**
 * A preload of the page's largest image, so the browser fetches it with the HTML instead of after
 * the stylesheet and layout: the first video poster, or the first `<img fetchpriority="high">` (the
 * marketing remote marks its hero image so). None when the page has neither. Measured on the landing
 * page, whose poster is its largest paint (docs/decisions/public-site-prerendered-by-the-marketing-build.md).
 * @param markup the page's HTML with its asset URLs resolved
 * @returns zero or one `<link rel="preload" as="image">`
 */
export function heroImagePreload(markup: string): string[] {
  const hero =
    /<video\b[^>]*\bposter="([^"]+)"/.exec(markup) ??
    /<img\b(?=[^>]*\bfetchpriority="high")[^>]*\bsrc="([^"]+)"/.exec(markup);
  return hero ? [`<link rel="preload" as="image" href="${hero[1]}" fetchpriority="high" />`] : [];
}
