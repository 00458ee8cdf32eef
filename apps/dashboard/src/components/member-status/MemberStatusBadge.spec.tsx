import { render, screen } from '@testing-library/react';
import { MemberStatusBadge } from './MemberStatusBadge';

describe('MemberStatusBadge (Branches table Status column, branch lists, referral tree)', () => {
  it('says each status in words, with what it means on hover', () => {
    render(
      <>
        <MemberStatusBadge status="Active" />
        <MemberStatusBadge status="Pending" />
        <MemberStatusBadge status="Ended" />
        <MemberStatusBadge status="Suspended" />
      </>,
    );
    expect(screen.getByText('Active').className).toBe('g-badge');
    expect(screen.getByText('Pending').className).toBe('g-badge g-badge--pending');
    expect(screen.getByText('Pending').getAttribute('title')).toMatch(/^Not counting yet/);
    expect(screen.getByText('Ended').getAttribute('title')).toBe('Membership ended in Mindbody');
    expect(screen.getByText('Suspended').getAttribute('title')).toBe(
      'Membership suspended in Mindbody',
    );
  });

  it("says a Stripe member's Ended is their subscription's", () => {
    render(<MemberStatusBadge status="Ended" managedBy="Stripe" />);
    expect(screen.getByText('Ended').getAttribute('title')).toBe('Subscription ended in Stripe');
  });

  it('shows nothing for Active where only the exceptions matter', () => {
    const { container } = render(<MemberStatusBadge status="Active" hideActive />);
    expect(container.textContent).toBe('');
    render(<MemberStatusBadge status="Pending" hideActive />);
    expect(screen.getByText('Pending')).toBeTruthy();
  });
});
