import { localeFormats } from '@grove/contracts';
import { useLocaleFormats, useRoleMay } from '@grove/web-data-access';
import { useStripeNextCharge } from './api/stripe-next-charge';

/**
 * "Stripe will charge $X on <date>" for a member billed on the business's Stripe (issue 32), from
 * the subscription's upcoming invoice, in its currency. Owners only (integrations are theirs);
 * nothing while loading or when the member has no Stripe subscription.
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
