import { usePageMeta } from './usePageMeta';

/** Grove's general description, for pages that do not have one of their own. */
export const DEFAULT_DESCRIPTION =
  "Grove turns your members' friends into new members: referral links, member trees and automatic discounts for gyms and membership businesses.";

/**
 * Sets the document title (and restores Grove's default when the page leaves).
 * Prefer {@link usePageMeta}, which sets the page's own meta description too.
 */
export function usePageTitle(title: string): void {
  usePageMeta({ title, description: DEFAULT_DESCRIPTION });
}
