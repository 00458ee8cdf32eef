/**
 * Analytics' own number formats. Money, counts, days and months go through the business's
 * `LocaleFormats` (`useLocaleFormats`, docs/decisions/business-locale.md): one date format.
 */

/** `0.4321` → `"43.2%"`; null (nothing to divide by) → `"–"`. */
export function formatShare(share: number | null): string {
  return share === null ? '–' : `${(share * 100).toFixed(1)}%`;
}
