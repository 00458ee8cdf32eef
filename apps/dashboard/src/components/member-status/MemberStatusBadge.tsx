import type { MemberStatus } from '@grove/contracts';

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
 * branch the business's rule has not started counting yet), Ended or Suspended (Mindbody).
 * @param hideActive show nothing for 'Active' (lists where most entries are)
 */
export function MemberStatusBadge({
  status,
  hideActive = false,
}: {
  status: MemberStatus;
  hideActive?: boolean;
}) {
  if (hideActive && status === 'Active') return null;
  const look = LOOK[status];
  return (
    <span className={look.className} title={look.meaning}>
      {status}
    </span>
  );
}
