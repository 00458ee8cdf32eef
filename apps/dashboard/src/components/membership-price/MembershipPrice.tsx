import type { MemberRow } from '@grove/contracts';
import { useLocaleFormats } from '@grove/web-data-access';
import { useMemberMoney } from './MemberMoney';
import { StripeNextCharge } from './StripeNextCharge';
import './membership-price.css';

/**
 * True while a Mindbody member's price has not been read yet (`MemberRow.membershipPricePending`):
 * until the import's follow-up 'prices' job has read the member's contract its cents are 0
 * placeholders.
 */
export function isPricePending(row: MemberRow): boolean {
  return row.membershipPricePending === true;
}

/**
 * The Membership cell of the Branches table (docs/product.md#branches): the new price (for Mindbody rows the
 * unchanged membership price, docs/product.md#constants) with the old one struck through when a discount applies.
 * Instead of a misleading $0.00: 'Pricing…' (read out as waiting for Mindbody) while the price is
 * not known yet, 'No autopay' for a Mindbody member without an autopay contract (nothing recurring
 * is billed, so no referral discount can reach a bill), 'Ended' once the membership has ended.
 * Under a running Mindbody membership, what Mindbody will actually charge next ('Mindbody will
 * charge $X on 1 Dec 2026': tax and the contract's other products included, issue 22). For a member
 * billed on the business's Stripe (issue 32), 'Stripe will charge $X on <date>' from the
 * subscription's upcoming invoice, or 'Ended' once the subscription has ended; its amounts in the
 * subscription's currency (`MemberRow.currency`).
 * 'Capped' under a price the business's reward cap stopped (`MemberRow.rewardCapped`: the
 * member's branches would take it past the cap or below $0, docs/product.md#referrer-reward).
 */
export function MembershipPrice({ row }: { row: MemberRow }) {
  const format = useLocaleFormats();
  const money = useMemberMoney(row.currency);
  if (isPricePending(row))
    return (
      <PriceNote
        label="Pricing…"
        title="Waiting for Mindbody"
        explanation=" waiting for Mindbody to send this member's price"
      />
    );
  if (row.membershipEnded === true)
    return (
      <PriceNote
        label="Ended"
        title="Membership ended in Mindbody"
        explanation=": this member's membership has ended in Mindbody"
      />
    );
  if (row.stripeBilling === 'ended')
    return (
      <PriceNote
        label="Ended"
        title="Subscription ended in Stripe"
        explanation=": this member's subscription has ended in Stripe"
      />
    );
  if (row.noAutopayContract === true)
    return (
      <PriceNote
        label="No autopay"
        title="No autopay contract in Mindbody"
        explanation=": this member has no autopay contract in Mindbody, so there is no bill to discount"
      />
    );
  return (
    <>
      {money(row.newPriceCents)}
      {row.newPriceCents !== row.membershipPriceCents && (
        <div className="dash-was">was {money(row.membershipPriceCents)}</div>
      )}
      {row.rewardCapped === true && (
        <div className="dash-capped">
          <span className="g-badge g-badge--pending" title="More friends do not lower this price">
            Capped
          </span>
          <span className="g-visually-hidden">
            : this member's branches would take their price past your reward cap; more friends do
            not lower it
          </span>
        </div>
      )}
      {row.mindbodyNextCharge && (
        <div className="dash-charge">
          Mindbody will charge {format.money(row.mindbodyNextCharge.amountCents)} on{' '}
          {format.day(row.mindbodyNextCharge.on)}
        </div>
      )}
      {row.stripeBilling === 'running' && <StripeNextCharge memberId={row.id} />}
    </>
  );
}

/** A muted badge shown instead of a price: its label, a tooltip, and the reason read out to screen readers. */
function PriceNote({
  label,
  title,
  explanation,
}: {
  label: string;
  title: string;
  explanation: string;
}) {
  return (
    <span className="g-badge g-badge--muted" title={title}>
      {label}
      <span className="g-visually-hidden">{explanation}</span>
    </span>
  );
}
