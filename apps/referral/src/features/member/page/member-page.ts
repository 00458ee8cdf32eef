import { MEMBER_PAGE_IDS as IDS, MEMBER_PAGE_MESSAGES } from '@grove/contracts';

/**
 * The member page's interactive layer (docs/architecture.md#member-page). The API renders the
 * whole page for a member session, and the "send me a new link" form works without JavaScript.
 * This script, inlined at the end of that page, only:
 * - lands a magic link: the token is in the URL fragment (`/member#token=…`, never sent to the
 *   server by the browser); it is taken out of the address bar first, then `POST /member/session`
 *   uses it once and answers the member's page, which replaces `<main>` in place (no reload);
 *   a used or expired link shows 'This link has expired or has already been used…';
 * - copies the referral link (Copy link → Copied! for 3 s; the link with `?via=copy`) and, where
 *   the browser has the Web Share API, shows Share, which opens the phone's share sheet with the
 *   owner's message (its `data-text`, link with `?via=share`; docs/product.md#share-message). The
 *   WhatsApp, Text it and Email it links work with or without it.
 */
function land(): void {
  const token = /(?:^#|&)token=([^&]*)/.exec(window.location.hash)?.[1];
  if (token === undefined) return;
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  const main = document.getElementById(IDS.main);
  if (main) main.setAttribute('aria-busy', 'true');
  void fetch('/member/landing', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/html' },
    credentials: 'same-origin',
    body: JSON.stringify({ token: decodeURIComponent(token) }),
  })
    .then(async (response) => {
      // The member's page, or (401) the signed-out page saying the link has expired.
      const next = new DOMParser().parseFromString(await response.text(), 'text/html');
      const nextMain = next.getElementById(IDS.main);
      if (!nextMain || !main) throw new Error('not a member page');
      main.replaceWith(document.importNode(nextMain, true));
      document.title = next.title;
      share();
    })
    .catch(() => {
      main?.removeAttribute('aria-busy');
      const box = document.getElementById(IDS.message);
      if (box) {
        box.className = 'g-alert g-alert--error';
        box.setAttribute('role', 'alert');
        box.textContent = MEMBER_PAGE_MESSAGES.linkExpired;
      }
    });
}

/** Where the browser can share: the Share button (the channel links stay). */
function share(): void {
  const button = document.getElementById(IDS.share);
  if (!(button instanceof HTMLButtonElement) || typeof navigator.share !== 'function') return;
  button.hidden = false;
}

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('button') : null;
  const url = document.getElementById(IDS.url)?.dataset['url'];
  if (!target || !url) return;
  if (target.id === IDS.copy) {
    navigator.clipboard.writeText(url).then(
      () => {
        target.textContent = 'Copied!';
        window.setTimeout(() => (target.textContent = 'Copy link'), 3000);
      },
      () => undefined,
    );
  } else if (target.id === IDS.share) {
    const title = target.dataset['title'] ?? '';
    navigator.share({ title, text: target.dataset['text'] ?? url }).catch(() => undefined);
  }
});

share();
land();
