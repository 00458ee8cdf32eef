import { useEffect } from 'react';

/**
 * `/referral/:code` is a page the API renders in full, form included (docs/architecture.md#join-page;
 * its script is `page/join-page.ts`). A link opened from a message always gets that page; only a
 * navigation inside the shell lands here, and it loads the page from the server.
 */
export function ServerRenderedJoinPage() {
  useEffect(() => {
    window.location.reload();
  }, []);
  return null;
}
