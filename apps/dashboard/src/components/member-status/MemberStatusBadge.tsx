import type { IntegrationName, MemberStatus } from '@grove/contracts';

/** Each status's badge look and what it means, for the tooltip. */
const LOOK: Record<MemberStatus, { className: string; meaning: string }> = {
  Active: { className: 'g-badge', meaning: 'Counts: lowers their referrer’s price' },
  Pending: {
    className: 'g-badge g-badge--pending',
    meaning: 'Not counting yet: waiting for your rule for when a branch counts',
  },
  Ended: { className: 'g-badge g-badge--muted', meaning: 'Membership ended in Mindbody' },
  Suspended: { className: 'g-badge g-badge--muted', meaning: 'Membership suspended in Mindbody' },
};

/**
 * A member's or branch's status as a small badge (docs/product.md#states): Active, Pending (a
 * branch the business's rule has not started counting yet), Ended (Mindbody, or a Stripe
 * subscription) or Suspended (Mindbody).
 * @param hideActive show nothing for 'Active' (lists where most entries are)
 * @param managedBy the member's `managedByIntegration`: 'Stripe' says an ended subscription
 */
export function MemberStatusBadge({
  status,
  hideActive = false,
  managedBy = null,
}: {
  status: MemberStatus;
  hideActive?: boolean;
  managedBy?: IntegrationName | null;
}) {
  if (hideActive && status === 'Active') return null;
  const look = LOOK[status];
  const meaning =
    status === 'Ended' && managedBy === 'Stripe' ? 'Subscription ended in Stripe' : look.meaning;
  return (
    <span className={look.className} title={meaning}>
      {status}
    </span>
  );
}
