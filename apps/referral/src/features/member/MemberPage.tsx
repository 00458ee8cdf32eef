import {
  formatCents,
  MEMBER_PAGE_MESSAGES,
  type MemberBranchStatus,
  type MemberPage as MemberPageData,
} from '@grove/contracts';
import { ApiError } from '@grove/web-data-access';
import { Alert, Button, Card, Spinner } from '@grove/web-ui';
import { useMagicLinkLanding, useMemberPage, useMemberSignOut } from './api/member';
import { RequestLinkForm } from './RequestLinkForm';
import { ShareLink } from './ShareLink';
import '../../member.css';

/** How each ledger reason (`price_changes.reason`) reads to the member. */
const REASONS: Record<string, string> = {
  member_added: 'You joined',
  membership_price_changed: 'Membership price changed',
  discount_changed: 'Discount per friend changed',
  branch_added: 'A friend joined',
  branch_removed: 'A friend was removed',
  branch_counting: 'A friend started counting',
  branch_lapsed: 'A friend stopped counting',
  membership_ended: 'Membership ended',
  mindbody_sync: 'Updated from Mindbody',
  backfill: 'Starting price',
};

const STATUS_LABELS: Record<MemberBranchStatus, string> = {
  pending: 'Pending',
  counting: 'Counting',
  ended: 'Ended',
  suspended: 'Suspended',
};

const day = (iso: string): string =>
  new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * The member page (/member, issue 15), phone-first. Landing from a magic link
 * (`/member#token=…`) it uses the token once (the address bar is cleaned first), then shows the
 * member's referral link (copy, share, QR), price now vs membership price, savings so far, the
 * next friends' effect, their friends with status and their price ledger. An expired or used
 * link, or no session, shows why and the "send me a new link" form.
 */
export function MemberPage() {
  const landing = useMagicLinkLanding();
  const page = useMemberPage(!landing.pending);

  if (landing.pending || page.isPending) return <Spinner label="Opening your page…" />;
  if (page.isError) {
    const ended = page.error instanceof ApiError && page.error.status === 401;
    const message = landing.refused
      ? MEMBER_PAGE_MESSAGES.linkExpired
      : ended
        ? MEMBER_PAGE_MESSAGES.sessionEnded
        : page.error.message;
    return (
      <main className="member">
        <Card>
          <h1>Your referral page</h1>
          <Alert tone={ended && !landing.refused ? 'info' : 'error'}>{message}</Alert>
          {!ended && (
            <Button variant="secondary" onClick={() => void page.refetch()}>
              Try again
            </Button>
          )}
          <RequestLinkForm />
        </Card>
      </main>
    );
  }
  return <MemberView data={page.data} />;
}

function MemberView({ data }: { data: MemberPageData }) {
  const signOut = useMemberSignOut();
  const counting = data.branches.filter((branch) => branch.status === 'counting').length;
  return (
    <main className="member">
      <header className="member__head">
        <p className="member__eyebrow">{data.businessName}</p>
        <h1>Hi {data.memberFirstName}</h1>
      </header>
      <div className="member__grid">
        <Card>
          <h2>Your price</h2>
          {data.priceNowCents === null ? (
            <p className="g-muted">Your Mindbody price is not known yet.</p>
          ) : (
            <p className="member-price" data-testid="price-now">
              <strong>{formatCents(data.priceNowCents)}</strong>
              <span> a month</span>
            </p>
          )}
          <p className="g-muted">
            {data.managedBy === 'Mindbody' ? 'Your Mindbody autopay amount. ' : ''}
            Membership price {formatCents(data.membershipPriceCents)} ·{' '}
            {counting === 1 ? '1 friend counting' : `${counting} friends counting`}
          </p>
          <p className="member-saved">
            Saved so far: <strong data-testid="saved">{formatCents(data.savedSoFarCents)}</strong>
          </p>
          {data.projections.length > 0 && (
            <ul className="member-projection" aria-label="More friends">
              {data.projections.map((line) => (
                <li key={line.friends}>
                  {line.friends === 1 ? '1 more friend' : `${line.friends} more friends`} →{' '}
                  <strong>{formatCents(line.priceCents)}</strong>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card>
          <h2>Your referral link</h2>
          {data.referralUrl ? (
            <ShareLink
              url={data.referralUrl}
              businessName={data.businessName}
              qrSvg={data.referralQrSvg}
            />
          ) : (
            <Alert tone="info">{MEMBER_PAGE_MESSAGES.noLinkYet}</Alert>
          )}
          <p className="g-muted">
            Each friend who joins with your link lowers your price by{' '}
            {formatCents(data.discountPerBranchCents)} a month.
          </p>
        </Card>
        <Card>
          <h2>Your friends</h2>
          {data.branches.length === 0 ? (
            <p className="g-muted">No friends yet: share your link!</p>
          ) : (
            <ul className="member-friends">
              {data.branches.map((branch, index) => (
                <li key={`${branch.since}-${index}`}>
                  <span>{branch.firstName}</span>
                  <span className={`member-status member-status--${branch.status}`}>
                    {STATUS_LABELS[branch.status]}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card>
          <h2>Price history</h2>
          {data.ledger.length === 0 ? (
            <p className="g-muted">No price changes yet.</p>
          ) : (
            <ul className="member-ledger">
              {data.ledger.map((line, index) => (
                <li key={`${line.occurredAt}-${index}`}>
                  <span className="member-ledger__when">{day(line.occurredAt)}</span>
                  <span>{REASONS[line.reason] ?? line.reason}</span>
                  <span className="member-ledger__price">
                    {line.oldPriceCents === null ? '' : `${formatCents(line.oldPriceCents)} → `}
                    {formatCents(line.newPriceCents)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
      <p className="member__foot">
        <Button
          variant="ghost"
          size="sm"
          busy={signOut.isPending}
          onClick={() => signOut.mutate(undefined, { onSuccess: () => window.location.reload() })}
        >
          Sign out
        </Button>
      </p>
    </main>
  );
}
