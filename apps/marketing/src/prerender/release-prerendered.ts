import { PRERENDERED_ELEMENT_ID, PRERENDERED_STYLE_ID } from '@grove/contracts';

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
  prerendered.remove();
  doc.getElementById(PRERENDERED_STYLE_ID)?.remove();
  doc.getElementById('root')?.removeAttribute('hidden');
}
