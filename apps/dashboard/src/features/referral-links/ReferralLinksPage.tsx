import { useState } from 'react';
import { ListFrame } from '../../components/list-frame/ListFrame';
import { MESSAGES, type ReferralLinkRow } from '@grove/contracts';
import { Alert, Button, Card, PageHeader } from '@grove/web-ui';
import { MemberLink } from '../../components/member-link/MemberLink';
import { ReferralLinkControls } from '../../components/referral-link/ReferralLinkControls';
import { useReferralLinkActions } from '../../components/referral-link/referral-link-api';
import { useReferralEmails, useReferralLinks } from './api/referral-links';
import { LinksForEveryone } from './LinksForEveryone';

const PAGE_SIZE = 25;

/**
 * Referral Links (docs/product.md#referral-links): Name, Email, Referral Link. A member without a link shows SPEC's
 * 'Referral link does not exist for this member' and a button to create one; a link can be
 * copied, rotated (the old one stops working), removed, or downloaded as a QR code poster. A
 * member's name opens their profile; above the table, links for everyone (one click for every
 * member without a link, and automatic links for new members). 'Email link' sends a member "Your
 * referral link" (their link and a link to their member page), 'Email all links' every member
 * with a link; at most once an hour per member.
 */
export function ReferralLinksPage() {
  const [page, setPage] = useState(1);
  const links = useReferralLinks({ page, pageSize: PAGE_SIZE });
  const actions = useReferralLinkActions();
  const emails = useReferralEmails();
  const [emailed, setEmailed] = useState<string | null>(null);
  const failure =
    actions.create.error ??
    actions.rotate.error ??
    actions.revoke.error ??
    emails.one.error ??
    emails.all.error;

  const emailOne = (row: ReferralLinkRow) => {
    emails.all.reset();
    emails.one.mutate(row.memberId, {
      onSuccess: () => setEmailed(`Referral link emailed to ${row.memberName}.`),
      onError: () => setEmailed(null),
    });
  };
  const emailAll = () => {
    emails.one.reset();
    emails.all.mutate(undefined, {
      onSuccess: ({ queued, skipped }) =>
        setEmailed(
          `Referral links emailed to ${queued} ${queued === 1 ? 'member' : 'members'}` +
            (skipped > 0 ? ` (${skipped} already emailed in the last hour).` : '.'),
        ),
      onError: () => setEmailed(null),
    });
  };

  const body = (
    <ListFrame
      query={links}
      loadingLabel="Loading referral links…"
      emptyMessage={MESSAGES.branchesEmpty}
      noun="members"
      onPageChange={setPage}
    >
      {(page) => (
        <table className="g-table g-table--stack">
          <caption className="g-visually-hidden">Referral links of your members</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Referral Link</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((row) => (
              <tr key={row.memberId} data-testid="link-row">
                <td className="dash-member">
                  <MemberLink memberId={row.memberId} name={row.memberName} />
                </td>
                <td data-label="Email">{row.memberEmail}</td>
                <td data-label="Referral Link">
                  <ReferralLinkControls
                    memberId={row.memberId}
                    memberName={row.memberName}
                    link={row.link}
                    actions={actions}
                  />
                  {row.link && (
                    <Button
                      size="sm"
                      variant="secondary"
                      className="dash-email-link"
                      aria-label={`Email referral link to ${row.memberName}`}
                      busy={emails.one.isPending && emails.one.variables === row.memberId}
                      onClick={() => emailOne(row)}
                    >
                      Email link
                    </Button>
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
        title="Referral Links"
        description="Each member's personal link to share with friends. Friends who join appear under Prospective Members."
        actions={
          <Button variant="secondary" busy={emails.all.isPending} onClick={emailAll}>
            Email all links
          </Button>
        }
      />
      <LinksForEveryone />
      {failure && <Alert>{failure.message}</Alert>}
      {emailed && !failure && <Alert tone="success">{emailed}</Alert>}
      <Card>{body}</Card>
    </>
  );
}
