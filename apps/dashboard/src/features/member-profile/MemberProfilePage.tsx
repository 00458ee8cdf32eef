import { Link, useParams } from 'react-router-dom';
import {
  MESSAGES,
  PROFILE_PROSPECT_STATUS_TEXT,
  REFERRAL_TREE_MAX_DEPTH,
  type MemberProfile,
  type ProfileProspectStatus,
  hrefs,
} from '@grove/contracts';
import { ApiError, useLocaleFormats, useRoleMay } from '@grove/web-data-access';
import { Alert, Button, Card, EmptyState, PageHeader, Spinner } from '@grove/web-ui';
import { ActivityLog } from '../../components/activity/ActivityLog';
import { MemberLink } from '../../components/member-link/MemberLink';
import { ReferralLinkControls } from '../../components/referral-link/ReferralLinkControls';
import { useReferralLinkActions } from '../../components/referral-link/referral-link-api';
import { useMemberProfile } from './api/member-profile';
import { MemberDetails } from './MemberDetails';
import { PriceLedger } from './PriceLedger';
import { ReferralTree } from './ReferralTree';
import './member-profile.css';

/** The badge of each status of a friend who joined through the member's link. */
const PROSPECT_BADGE: Readonly<Record<ProfileProspectStatus, string>> = {
  waiting: 'g-badge g-badge--pending',
  approved: 'g-badge',
  removed: 'g-badge g-badge--muted',
};

/** The first word of a name ('Sofia' of 'Sofia Rossi'). */
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

/**
 * The member profile at `/dashboard/members/:id` (issue 14 part 3): details (editable unless
 * Mindbody manages the member), the referral tree (a keyboard and screen-reader tree view), the
 * price ledger, the referral link with Copy and QR codes, and everyone who joined through it
 * with where they stand (waiting, approved and now a branch, or removed; issue 25). An unknown id, or another business's member, shows 'Member not
 * found' with a way back; other failures show their message and 'Try again'.
 */
export function MemberProfilePage() {
  const { id = '' } = useParams();
  const profile = useMemberProfile(id);

  if (profile.isPending) return <Spinner label="Loading member…" />;
  if (profile.isError) {
    const missing = profile.error instanceof ApiError && profile.error.status === 404;
    return (
      <>
        <PageHeader title={missing ? MESSAGES.memberNotFound : 'Member'} />
        <Card>
          <EmptyState
            message={
              missing
                ? 'This member does not exist or is not one of your members.'
                : profile.error.message
            }
            action={
              missing ? (
                <Link className="g-btn g-btn--secondary" to={hrefs.branches}>
                  Back to Branches
                </Link>
              ) : (
                <Button variant="secondary" onClick={() => profile.refetch()}>
                  Try again
                </Button>
              )
            }
          />
        </Card>
      </>
    );
  }
  return <ProfileView profile={profile.data} />;
}

function ProfileView({ profile }: { profile: MemberProfile }) {
  const format = useLocaleFormats();
  const { member } = profile;
  const actions = useReferralLinkActions();
  const mayAudit = useRoleMay('audit');
  const linkFailure = actions.create.error ?? actions.rotate.error ?? actions.revoke.error;
  return (
    <div className="dash-profile">
      <PageHeader
        title={member.memberName}
        description={
          <>
            Member since {format.date(profile.joinedAt)}
            {profile.referredBy && (
              <>
                {' · '}a branch of{' '}
                <MemberLink memberId={profile.referredBy.id} name={profile.referredBy.name} />
              </>
            )}
          </>
        }
        actions={
          <Link className="g-btn g-btn--ghost g-btn--sm" to={hrefs.branches}>
            ← Branches
          </Link>
        }
      />
      <div className="dash-profile__grid">
        <div className="dash-profile__column">
          <Card aria-labelledby="profile-details" className="dash-profile__details">
            <h2 id="profile-details" className="dash-profile__title">
              Details
            </h2>
            <MemberDetails member={member} />
          </Card>
          <Card aria-labelledby="profile-tree" className="dash-profile__tree">
            <h2 id="profile-tree" className="dash-profile__title">
              Referral tree
            </h2>
            {profile.tree.length === 0 ? (
              <EmptyState
                message={`${firstName(member.memberName)} has no branches yet. Friends who join through their link and are approved appear here.`}
              />
            ) : (
              <>
                <p className="g-muted dash-note">
                  {firstName(member.memberName)}’s branches and their branches (up to{' '}
                  {REFERRAL_TREE_MAX_DEPTH} levels). Use the arrow keys to move, Enter to open a
                  member.
                </p>
                <ReferralTree
                  label={`Referral tree of ${member.memberName}`}
                  nodes={profile.tree}
                />
              </>
            )}
          </Card>
        </div>
        <div className="dash-profile__column">
          <Card aria-labelledby="profile-ledger" className="dash-profile__ledger">
            <h2 id="profile-ledger" className="dash-profile__title">
              Price ledger
            </h2>
            <PriceLedger lines={profile.ledger} currency={profile.member.currency} />
          </Card>
          <Card aria-labelledby="profile-link" className="dash-profile__link">
            <h2 id="profile-link" className="dash-profile__title">
              Referral link
            </h2>
            {linkFailure && <Alert>{linkFailure.message}</Alert>}
            <ReferralLinkControls
              memberId={member.id}
              memberName={member.memberName}
              link={profile.referralLink}
              actions={actions}
            />
          </Card>
          <Card aria-labelledby="profile-prospects" className="dash-profile__prospects">
            <h2 id="profile-prospects" className="dash-profile__title">
              Joined through their link
            </h2>
            {profile.prospects.length === 0 ? (
              <EmptyState message="Nobody has joined through this member’s link yet." />
            ) : (
              <>
                <ul className="dash-branch-list" data-testid="profile-prospects">
                  {profile.prospects.map((prospect) => (
                    <li key={prospect.id} className="dash-joined" data-testid="profile-prospect">
                      {prospect.memberId ? (
                        <MemberLink memberId={prospect.memberId} name={prospect.name} />
                      ) : (
                        <span className="dash-member">{prospect.name}</span>
                      )}{' '}
                      <span className={PROSPECT_BADGE[prospect.status]}>
                        {PROFILE_PROSPECT_STATUS_TEXT[prospect.status]}
                      </span>{' '}
                      <span className="dash-member__email">
                        {prospect.email ? `${prospect.email} · ` : ''}joined{' '}
                        {format.date(prospect.joinedAt)}
                      </span>
                    </li>
                  ))}
                </ul>
                {profile.prospects.some((prospect) => prospect.status === 'waiting') && (
                  <Link to={hrefs.prospectiveMembers}>Review on Prospective Members</Link>
                )}
              </>
            )}
          </Card>
        </div>
      </div>
      {mayAudit && (
        <Card aria-labelledby="profile-history" className="dash-profile__history">
          <h2 id="profile-history" className="g-card__title">
            History
          </h2>
          <ActivityLog memberId={member.id} />
        </Card>
      )}
    </div>
  );
}
