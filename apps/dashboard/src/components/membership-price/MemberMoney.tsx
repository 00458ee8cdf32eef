import { memberBillFormats } from '@grove/contracts';
import { useLocaleFormats } from '@grove/web-data-access';

/**
 * The money formatter of one member's amounts (cents): in the business's locale, and in the
 * currency of their bill — `MemberRow.currency` for a member billed on the business's Stripe
 * (issue 32: a subscription in euros shows 'EUR 60.00' in an Australian business), else the
 * business's own currency. The one formatter (`memberBillFormats`, CONTRIBUTING.md "Money").
 * @param currency ISO 4217 code of the member's bill, or undefined for the business's currency
 */
export function useMemberMoney(currency: string | undefined): (cents: number) => string {
  const formats = useLocaleFormats();
  return memberBillFormats(formats.business, currency).money;
}

/** `cents` of one member's bill as text, in its currency (see `useMemberMoney`). */
export function MemberMoney({ cents, currency }: { cents: number; currency?: string }) {
  return <>{useMemberMoney(currency)(cents)}</>;
}
