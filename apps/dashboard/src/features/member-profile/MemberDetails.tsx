import { useState } from 'react';
import {
  centsToDollarText,
  MANAGED_BY_TEXT,
  MESSAGES,
  NO_EMAIL_TEXT,
  type MemberRow,
} from '@grove/contracts';
import { useRoleMay } from '@grove/web-data-access';
import { Button } from '@grove/web-ui';
import { MemberForm } from '../../components/member-form/MemberForm';
import { MemberStatusBadge } from '../../components/member-status/MemberStatusBadge';
import { MembershipPrice } from '../../components/membership-price/MembershipPrice';
import { useMemberMoney } from '../../components/membership-price/MemberMoney';
import { useUpdateMember } from './api/member-profile';
import { EraseMember } from './EraseMember';

/**
 * A member's details: email, membership price, discount per referral, price now (with what
 * Mindbody or Stripe will charge), branches, and for a Mindbody member how they heard of the business
 * (`ReferredBy`, a referral-source label: issue 22). A
 * member kept by hand can be edited (the add-member form's rules and messages); one managed by
 * Mindbody shows 'Managed by Mindbody' and no Edit, one billed on the business's Stripe 'Managed by
 * Stripe' (its price is the subscription's, its discount the confirmed sync's; docs/product.md#roles).
 * Amounts are in the member's bill's currency (`MemberRow.currency`).
 */
export function MemberDetails({ member }: { member: MemberRow }) {
  const money = useMemberMoney(member.currency);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const update = useUpdateMember(member.id);
  // A viewer changes nothing (docs/product.md#staff-accounts).
  const mayWrite = useRoleMay('write');

  if (editing) {
    return (
      <MemberForm
        defaultValues={{
          memberName: member.memberName,
          memberEmail: member.memberEmail,
          membershipPrice: centsToDollarText(member.membershipPriceCents),
          discount: centsToDollarText(member.discountCents),
        }}
        submitLabel="Save changes"
        failurePrefix={MESSAGES.updateMemberFailedPrefix}
        onSubmit={async (values) => {
          await update.mutateAsync(values);
          setEditing(false);
          setSaved(true);
        }}
      />
    );
  }
  return (
    <>
      {saved && (
        <p className="dash-saved" role="status">
          Changes saved.
        </p>
      )}
      <dl className="dash-details">
        <dt>Email</dt>
        <dd>{member.memberEmail || NO_EMAIL_TEXT}</dd>
        <dt>Membership</dt>
        <dd>{money(member.membershipPriceCents)}</dd>
        <dt>Discount</dt>
        <dd>{money(member.discountCents)}</dd>
        <dt>Pays now</dt>
        <dd data-testid="price-now">
          <MembershipPrice row={member} />
        </dd>
        <dt>Branches</dt>
        <dd>{member.branches}</dd>
        {member.mindbodyReferralSource && (
          <>
            <dt>Referral source</dt>
            <dd>{member.mindbodyReferralSource} (in Mindbody)</dd>
          </>
        )}
        <dt>Status</dt>
        <dd>
          <MemberStatusBadge status={member.status} managedBy={member.managedByIntegration} />
        </dd>
      </dl>
      {member.managedByIntegration !== null ? (
        <span className="g-badge g-badge--muted">
          {MANAGED_BY_TEXT[member.managedByIntegration]}
        </span>
      ) : (
        mayWrite && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
          >
            Edit details
          </Button>
        )
      )}
      <EraseMember member={member} />
    </>
  );
}
