import { hrefs } from '@grove/contracts';
import { Link } from 'react-router-dom';
import './member-link.css';

/** Where a member's profile lives (issue 14: `/dashboard/members/:id`). */
export function memberProfilePath(memberId: string): string {
  return hrefs.memberProfile(memberId);
}

/** A member's name that opens their profile; used in every dashboard table that names a member. */
export function MemberLink({
  memberId,
  name,
  className = 'dash-member-link',
}: {
  memberId: string;
  name: string;
  className?: string;
}) {
  return (
    <Link to={memberProfilePath(memberId)} className={className}>
      {name}
    </Link>
  );
}
