import type { StripePrice } from './stripe-objects';

/**
 * The end of a billing period that starts at `start` (Unix seconds) for a recurring price: the
 * same day and time `interval_count` days/weeks/months/years later, in UTC; a month end that does
 * not exist is clamped to the month's last day, as Stripe does (Jan 31 → Feb 28/29;
 * https://docs.stripe.com/billing/subscriptions/billing-cycle).
 */
export function periodEnd(start: number, recurring: NonNullable<StripePrice['recurring']>): number {
  const date = new Date(start * 1000);
  const count = recurring.interval_count;
  switch (recurring.interval) {
    case 'day':
      return start + count * 86_400;
    case 'week':
      return start + count * 7 * 86_400;
    case 'month':
    case 'year': {
      const months = recurring.interval === 'month' ? count : count * 12;
      const target = new Date(date.getTime());
      target.setUTCDate(1);
      target.setUTCMonth(target.getUTCMonth() + months);
      const lastDay = new Date(
        Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
      ).getUTCDate();
      target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
      return Math.floor(target.getTime() / 1000);
    }
  }
}
