import { PRERENDERED_ELEMENT_ID, PRERENDERED_STYLE_ID } from '@grove/contracts';

/** What the prerendered copy's element ids start with (the live page's ids stay the components'). */
export const PRERENDERED_ID_PREFIX = 'pre-';

/**
 * Swaps the page the API sent prerendered (`#grove-prerendered`, docs/architecture.md#prerendered-pages)
 * for the live one: removes it and its inline stylesheet (the app's own stylesheets have loaded by
 * then) and shows the shell's `#root`, which the API sent hidden. Called in
 * a layout effect once the remote's page has rendered, so both happen before the next paint (no
 * flash; the markup is the same, so nothing moves). Does nothing on a page sent without one.
 */
export function releasePrerendered(doc: Document = document): void {
  const prerendered = doc.getElementById(PRERENDERED_ELEMENT_ID);
  if (!prerendered) return;
  const focused = doc.activeElement;
  const focusedId = focused && prerendered.contains(focused) ? focused.id : '';
  prerendered.remove();
  doc.getElementById(PRERENDERED_STYLE_ID)?.remove();
  doc.getElementById('root')?.removeAttribute('hidden');
  if (focusedId.startsWith(PRERENDERED_ID_PREFIX))
    doc.getElementById(focusedId.slice(PRERENDERED_ID_PREFIX.length))?.focus();
}
