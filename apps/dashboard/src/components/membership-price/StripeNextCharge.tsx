import { localeFormats } from '@grove/contracts';
import { useLocaleFormats, useRoleMay } from '@grove/web-data-access';
import { useStripeNextCharge } from './stripe-next-charge-api';

/**
 * "Stripe will charge $X on <date>" for a member billed on the business's Stripe (issue 32), from
 * the subscription's upcoming invoice, in its currency, under the membership price on the Branches
 * table and the member page (`MembershipPrice`, for rows with a running `stripeBilling`). Owners
 * only (integrations are theirs); nothing while loading or when Stripe has no upcoming invoice.
 */
export function StripeNextCharge({ memberId }: { memberId: string }) {
  const mayIntegrations = useRoleMay('integrations');
  const charge = useStripeNextCharge(memberId, mayIntegrations);
  const formats = useLocaleFormats();
  if (!charge.data) return null;
  const money = localeFormats({
    ...formats.business,
    currency: charge.data.currency.toUpperCase(),
  }).money(charge.data.amountCents);
  return (
    <div className="dash-charge">
      Stripe will charge {money} on {formats.date(charge.data.at)}
    </div>
  );
}
