import { MONEY_LOCALE } from '@grove/contracts';

const dateFormat = new Intl.DateTimeFormat(MONEY_LOCALE, { dateStyle: 'medium' });

/** An ISO timestamp as the profile shows dates, e.g. '23 Nov 2026' (Grove's en-AU locale). */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}
