import { useEffect } from 'react';

/** Sets the document title (and restores Grove's default when the page leaves). */
export function usePageTitle(title: string) {
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} · Grove`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
