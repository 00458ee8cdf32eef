import { useState } from 'react';
import { ListFrame } from '../../components/list-frame/ListFrame';
import {
  centsToDollarText,
  MESSAGES,
  WELCOME_OFFER_STRIPE_TEXTS,
  welcomeOfferAppliesInStripe,
  welcomeOfferWording,
  NO_EMAIL_TEXT,
  type MemberForm as MemberFormValues,
  type ProspectRow,
} from '@grove/contracts';
import {
  useApproveProspect,
  useMindbodyConnected,
  useProspects,
  useRemoveProspect,
  useWelcomeOfferGrants,
} from './api/prospects';
import { Alert, Button, Card, Modal, PageHeader } from '@grove/web-ui';
import { useLocaleFormats, useRoleMay } from '@grove/web-data-access';
import { MemberForm } from '../../components/member-form/MemberForm';
import { AutoApproveSetting } from './AutoApproveSetting';
import { FlaggedJoins } from './FlaggedJoins';
import { WelcomeOffersToHonour } from './WelcomeOffersToHonour';
import { useWelcomeOffer } from '../../components/welcome-offer/welcome-offer-api';
import { SignalList } from './SignalList';
import { MemberLink } from '../../components/member-link/MemberLink';
import './prospective-members.css';

const PAGE_SIZE = 25;

/**
 * What the approval form starts from: the friend's name and email, and the price and discount the
 * API worked out (`approvalPrefill`: the referrer's membership price and discount per referral,
 * else the business's defaults; docs/product.md#member-defaults), as real values, not
 * placeholders. An amount known from neither starts empty.
 */
export function approvalValues(prospect: ProspectRow): Partial<MemberFormValues> {
  const values: Partial<MemberFormValues> = {
    memberName: prospect.name,
    memberEmail: prospect.email,
  };
  const { membershipPriceCents, discountCents } = prospect.approvalPrefill;
  if (membershipPriceCents !== null)
    values.membershipPrice = centsToDollarText(membershipPriceCents);
  if (discountCents !== null) values.discount = centsToDollarText(discountCents);
  return values;
}

/**
 * Who sent a prospect: the referring member (a link to their profile), or, for a friend of the
 * business's own join page (issue 33 item 4, docs/product.md#business-join), what they answered to
 * "Who referred you?", as typed and never matched here.
 */
function ReferredBy({ row }: { row: ProspectRow }) {
  if (row.referringMemberId && row.referringMemberName)
    return (
      <>
        Referred by <MemberLink memberId={row.referringMemberId} name={row.referringMemberName} />
      </>
    );
  return row.referredByNote ? (
    <span data-testid="prospect-referred-by-note">
      Join page · referred by “{row.referredByNote}”
    </span>
  ) : (
    <span>Join page · no referrer named</span>
  );
}

/**
 * Prospective Members (docs/product.md#prospective-members): friends who joined through a referral link. Approve opens the
 * add-branch form prefilled with the friend's name and email for the member who referred them,
 * and with the referrer's price and discount (else the business's defaults: `approvalValues`); Remove asks first ('Remove {name}?', issue 25), then deletes
 * the prospect and the list reloads; rows from
 * an integration show 'Managed by {integration}'. A prospect whose join raised fraud signals
 * (disposable email, former member, …) shows 'Check before approving' and each reason in words;
 * the owner approves or removes as for anyone. 'Approve automatically' (off by default) lets
 * clean joins through without the owner. The approval dialog states the business's welcome offer
 * for the friend, and 'Welcome offers to honour' lists those granted at approval with 'Mark
 * honoured' (issue 33 item 1, docs/product.md#welcome-offer). Below, flagged joins (members or
 * referrers who joined through a link; not queued) with their reasons and Dismiss.
 */
export function ProspectiveMembersPage() {
  const [page, setPage] = useState(1);
  const prospects = useProspects({ page, pageSize: PAGE_SIZE });
  const remove = useRemoveProspect();
  const approve = useApproveProspect();
  const offer = useWelcomeOffer().data;
  const welcomeOffer = welcomeOfferWording(offer, useLocaleFormats());
  // At a gym billing on Stripe, approving writes the offer as a coupon (the approval confirms it).
  const offerInStripe =
    (useWelcomeOfferGrants().data?.appliesInStripe ?? false) && welcomeOfferAppliesInStripe(offer);
  // A viewer approves and removes nothing (docs/product.md#staff-accounts).
  const mayWrite = useRoleMay('write');
  const [approving, setApproving] = useState<ProspectRow | null>(null);
  // 'Add to Mindbody' (issue 33 item 4): offered at a Mindbody gym, off until the owner ticks it.
  const mindbody = useMindbodyConnected();
  const [addToMindbody, setAddToMindbody] = useState(false);
  const openApproval = (prospect: ProspectRow) => {
    setAddToMindbody(false);
    setApproving(prospect);
  };
  /** The prospect whose removal is being confirmed. */
  const [removing, setRemoving] = useState<ProspectRow | null>(null);
  const closeRemove = () => {
    remove.reset();
    setRemoving(null);
  };

  const body = (
    <ListFrame
      query={prospects}
      loadingLabel="Loading prospective members…"
      emptyMessage={MESSAGES.noProspects}
      noun="prospective members"
      onPageChange={setPage}
    >
      {(page) => (
        <table className="g-table g-table--stack">
          <caption className="g-visually-hidden">Prospective members waiting for approval</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((row) => (
              <tr key={row.id} data-testid="prospect-row">
                <td>
                  <div className="dash-member">{row.name}</div>
                  <div className="dash-member__email">
                    <ReferredBy row={row} />
                  </div>
                  {row.flags.length > 0 && (
                    <div className="dash-prospect-flags" data-testid="prospect-flags">
                      <span className="g-badge dash-flags__badge">Check before approving</span>
                      <SignalList signals={row.flags} />
                    </div>
                  )}
                </td>
                <td data-label="Email">{row.email || NO_EMAIL_TEXT}</td>
                <td>
                  {row.managedByIntegration ? (
                    <span className="g-badge g-badge--muted">
                      Managed by {row.managedByIntegration}
                    </span>
                  ) : (
                    mayWrite && (
                      <div className="dash-actions">
                        <Button size="sm" onClick={() => openApproval(row)}>
                          Approve
                        </Button>
                        <Button size="sm" variant="danger" onClick={() => setRemoving(row)}>
                          Remove
                        </Button>
                      </div>
                    )
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListFrame>
  );

  return (
    <>
      <PageHeader
        title="Prospective Members"
        description="Friends who joined through a referral link, waiting for you to approve them."
      />
      <Card>
        <AutoApproveSetting />
        {body}
      </Card>
      {mayWrite && <WelcomeOffersToHonour />}
      <FlaggedJoins />
      <Modal
        open={removing !== null}
        title={removing ? `Remove ${removing.name}?` : ''}
        onClose={closeRemove}
      >
        {removing && (
          <>
            <p>
              {removing.name} ({removing.email}) will no longer wait for your approval
              {removing.referringMemberName ? ` as ${removing.referringMemberName}’s friend` : ''}.
              No email is sent.
            </p>
            {remove.isError && <Alert>{remove.error.message}</Alert>}
            <div className="dash-confirm">
              <Button variant="secondary" onClick={closeRemove}>
                Cancel
              </Button>
              <Button
                variant="danger"
                busy={remove.isPending}
                onClick={() => remove.mutate(removing.id, { onSuccess: closeRemove })}
              >
                Remove
              </Button>
            </div>
          </>
        )}
      </Modal>
      <Modal
        open={approving !== null}
        title={
          approving
            ? approving.referringMemberName
              ? `Add a New Branch to ${approving.referringMemberName}`
              : `Add ${approving.name}`
            : ''
        }
        onClose={() => setApproving(null)}
      >
        {approving && (
          <>
            <p className="g-muted dash-note">
              {approving.referringMemberName
                ? `A discount will be applied to ${approving.referringMemberName}’s membership for this branch, and ${approving.name} is also added as a new tree.`
                : approving.referredByNote
                  ? `${approving.name} is added as a new tree. “${approving.referredByNote}” then waits in Referrals to match on Branches, where you pick the member it means.`
                  : `${approving.name} is added as a new tree.`}
            </p>
            {welcomeOffer && (
              <p className="dash-note" data-testid="approval-welcome-offer">
                <strong>Welcome offer:</strong> {welcomeOffer}.{' '}
                {offerInStripe
                  ? WELCOME_OFFER_STRIPE_TEXTS.approval(welcomeOffer)
                  : `It is listed under ‘Welcome offers to honour’ once you approve ${approving.name}.`}
              </p>
            )}
            <MemberForm
              key={approving.id}
              defaultValues={approvalValues(approving)}
              failurePrefix={MESSAGES.addBranchFailedPrefix}
              onSubmit={async (values) => {
                await approve.mutateAsync({
                  ...values,
                  id: approving.id,
                  ...(mindbody && addToMindbody ? { addToMindbody: true } : {}),
                });
                setApproving(null);
              }}
            >
              {mindbody && (
                <label className="dash-approval-mindbody">
                  <input
                    type="checkbox"
                    checked={addToMindbody}
                    onChange={(event) => setAddToMindbody(event.target.checked)}
                  />{' '}
                  <span>
                    <strong>{MESSAGES.mindbodyAddOption}</strong>
                    <span className="g-muted">
                      {' '}
                      Creates {approving.name} as a client at your Mindbody site (or links the
                      client with this email), so nobody types them in twice.
                    </span>
                  </span>
                </label>
              )}
            </MemberForm>
          </>
        )}
      </Modal>
    </>
  );
}
