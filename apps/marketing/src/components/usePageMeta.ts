import { useEffect } from 'react';

/** What a public page tells browsers, search engines and link previews about itself. */
export interface PageMeta {
  /** The page's own title; shown as `<title> · Grove`. */
  title: string;
  /** The `<meta name="description">` text (about 120–160 characters). */
  description: string;
}

/**
 * Sets the document title and the meta description while the page is shown, and restores what
 * was there before when the page leaves (the shell's defaults from its index.html).
 */
export function usePageMeta({ title, description }: PageMeta): void {
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
    document.title = `${title} · Grove`;
    tag.content = description;
    return () => {
      document.title = previousTitle;
      if (created) tag.remove();
      else tag.content = previousDescription;
    };
  }, [title, description]);
}
