import { createContext, useContext, useEffect } from 'react';

/** What a public page tells browsers, search engines and link previews about itself. */
export interface PageMeta {
  /** The page's own title; shown as `<title> · Grove`. */
  title: string;
  /** The `<meta name="description">` text (about 120–160 characters). */
  description: string;
}

/**
 * Receives each page's meta while it renders on the server (the prerender build,
 * src/prerender/prerender.tsx), where effects do not run. Absent in the browser.
 */
export const PageMetaCollector = createContext<((meta: PageMeta) => void) | null>(null);

/** The document title of a page: `<title> · Grove`. */
export function documentTitle(title: string): string {
  return `${title} · Grove`;
}

/**
 * Sets the document title and the meta description while the page is shown, and restores what
 * was there before when the page leaves (the shell's defaults from its index.html). While
 * prerendering, hands them to the PageMetaCollector instead.
 */
export function usePageMeta({ title, description }: PageMeta): void {
  const collect = useContext(PageMetaCollector);
  collect?.({ title, description });
  useEffect(() => {
    const previousTitle = document.title;
    let tag = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    const created = !tag;
    if (!tag) {
      tag = document.createElement('meta');
      tag.name = 'description';
      document.head.appendChild(tag);
    }
    const previousDescription = tag.content;
    document.title = documentTitle(title);
    tag.content = description;
    return () => {
      document.title = previousTitle;
      if (created) tag.remove();
      else tag.content = previousDescription;
    };
  }, [title, description]);
}
