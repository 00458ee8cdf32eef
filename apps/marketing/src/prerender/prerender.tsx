// The prerender build's entry (tools/webpack/web-app.cjs, prerenderConfig): renders each public
// page of the marketing remote to HTML at build time (docs/architecture.md#prerendered-pages).
// Runs in Node, never in a browser.
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  MARKETING_PAGES,
  MESSAGES,
  PRERENDERED_FORM_SLOT,
  type PrerenderedPage,
} from '@grove/contracts';
import { PublicTopBar } from '@grove/web-ui';
import MarketingRoutes from '../remote-entry';
import { documentTitle, PageMetaCollector, type PageMeta } from '../components/usePageMeta';
import { ogImageSvg } from './og-image';
import { PRERENDERED_ID_PREFIX } from './release-prerendered';

/** The 404 screen's meta (the screen itself, `NotFoundPage`, sets none). */
const NOT_FOUND_META: PageMeta = {
  title: 'Page not found',
  description: 'This page does not exist. Grove turns your members’ friends into new members.',
};

/**
 * The shell's public frame (apps/shell/src/app/layouts/PublicLayout.tsx) as a visitor without a
 * session sees it, so the live page that replaces the prerendered one puts every box where it was.
 */
function PrerenderFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="shell-public">
      <PublicTopBar signedIn={false} />
      {children}
    </div>
  );
}

/** Text of the first `<h1>` of some rendered HTML (tags dropped, React's entities decoded). */
export function headlineOf(html: string): string {
  const match = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  return (match?.[1] ?? '')
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .trim();
}

/**
 * Makes a rendered page fit to sit beside the live one until the remote swaps them: every `id`
 * (and every reference to one: `for`, `aria-labelledby`, `aria-describedby`, `aria-controls`, a
 * `#fragment` link, an SVG paint such as `fill="url(#gradient)"`) gets PRERENDERED_ID_PREFIX, so no id is on the page twice; every button is
 * `disabled` (nothing is listening to it yet: the live page's, which replaces it, works).
 */
export function asPrerenderedCopy(html: string): string {
  return html
    .replace(
      /\b(id|for|aria-labelledby|aria-describedby|aria-controls)="([^"]+)"/g,
      (_match, attribute: string, value: string) =>
        `${attribute}="${value
          .split(' ')
          .map((id) => (id ? PRERENDERED_ID_PREFIX + id : id))
          .join(' ')}"`,
    )
    .replace(/href="#([^"]+)"/g, `href="#${PRERENDERED_ID_PREFIX}$1"`)
    .replace(/url\(#([^)"]+)\)/g, `url(#${PRERENDERED_ID_PREFIX}$1)`)
    .replace(/<button(?![^>]*\bdisabled\b)/g, '<button disabled=""');
}

/** A rendered page: its manifest entry plus its markup and its Open Graph image (SVG). */
export interface RenderedPage extends PrerenderedPage {
  html: string;
  imageSvg: string;
  /**
   * True when the API completes the markup per request (a PRERENDERED_FORM_SLOT: the contact form
   * without JavaScript), whose classes this build cannot see: the page keeps the whole stylesheet
   * instead of only the rules its markup uses (tools/webpack/prerender-plugin.cjs).
   */
  completedByApi: boolean;
}

/** Renders the page at `location` inside the top bar; meta from the page's usePageMeta. */
function render(location: string): { html: string; meta: PageMeta | null } {
  let meta: PageMeta | null = null;
  const html = renderToString(
    <PageMetaCollector.Provider value={(collected) => (meta ??= collected)}>
      <QueryClientProvider client={new QueryClient()}>
        <StaticRouter location={location}>
          <PrerenderFrame>
            <MarketingRoutes />
          </PrerenderFrame>
        </StaticRouter>
      </QueryClientProvider>
    </PageMetaCollector.Provider>,
  );
  return { html, meta };
}

/**
 * Every public page of the remote (`MARKETING_PAGES`) and the 404 screen, rendered.
 * @throws Error when a page renders without usePageMeta or without an `<h1>`
 */
export function renderPages(): RenderedPage[] {
  const pages = MARKETING_PAGES.map((segment) => ({
    path: `/${segment}`,
    file: `${segment || 'home'}.html`,
  }));
  const all = [...pages, { path: null, file: '404.html' }];
  return all.map(({ path, file }) => {
    const { html, meta: collected } = render(path ?? '/__grove-not-found__');
    const meta = path === null ? NOT_FOUND_META : collected;
    if (!meta) throw new Error(`${path} renders without usePageMeta`);
    const headline = path === null ? MESSAGES.notFound : headlineOf(html);
    if (!headline) throw new Error(`${path} renders without an <h1>`);
    const title = documentTitle(meta.title);
    return {
      path,
      file,
      title,
      description: meta.description,
      headline,
      html: asPrerenderedCopy(html),
      completedByApi: html.includes(PRERENDERED_FORM_SLOT),
      imageSvg: ogImageSvg({ title: meta.title, headline }),
    };
  });
}
