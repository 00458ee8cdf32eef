import { formatCents } from '@grove/contracts';

/** `0.4321` → `"43.2%"`; null (nothing to divide by) → `"–"`. */
export function formatShare(share: number | null): string {
  return share === null ? '–' : `${(share * 100).toFixed(1)}%`;
}

const monthFormat = new Intl.DateTimeFormat('en-AU', {
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** `"2026-01"` → `"Jan 2026"`. */
export function formatMonth(month: string): string {
  return monthFormat.format(new Date(`${month}-01T00:00:00Z`));
}

/** Cents as dollars (`formatCents`), for tables. */
export const money = formatCents;

const shortMonthFormat = new Intl.DateTimeFormat('en-AU', {
  month: 'short',
  year: '2-digit',
  timeZone: 'UTC',
});

/** `"2026-01"` → `"Jan 26"` (chart axes). */
export function formatShortMonth(month: string): string {
  return shortMonthFormat.format(new Date(`${month}-01T00:00:00Z`));
}

/** Cents as whole dollars (`123456` → `"$1,235"`), for chart axes. */
export function wholeDollars(cents: number): string {
  return `$${Math.round(cents / 100).toLocaleString('en-AU')}`;
}
