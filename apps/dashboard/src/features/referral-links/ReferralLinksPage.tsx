import { useState } from 'react';
import { ListFrame } from '../../components/list-frame/ListFrame';
import { MESSAGES } from '@grove/contracts';
import { Alert, Card, PageHeader } from '@grove/web-ui';
import { MemberLink } from '../../components/member-link/MemberLink';
import { ReferralLinkControls } from '../../components/referral-link/ReferralLinkControls';
import { useReferralLinkActions } from '../../components/referral-link/referral-link-api';
import { useReferralLinks } from './api/referral-links';
import { LinksForEveryone } from './LinksForEveryone';

const PAGE_SIZE = 25;

/**
 * Referral Links (docs/product.md#referral-links): Name, Email, Referral Link. A member without a link shows SPEC's
 * 'Referral link does not exist for this member' and a button to create one; a link can be
 * copied, rotated (the old one stops working), removed, or downloaded as a QR code poster. A
 * member's name opens their profile; above the table, links for everyone (one click for every
 * member without a link, and automatic links for new members).
 */
export function ReferralLinksPage() {
  const [page, setPage] = useState(1);
  const links = useReferralLinks({ page, pageSize: PAGE_SIZE });
  const actions = useReferralLinkActions();
  const failure = actions.create.error ?? actions.rotate.error ?? actions.revoke.error;

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
      />
      <LinksForEveryone />
      {failure && <Alert>{failure.message}</Alert>}
      <Card>{body}</Card>
    </>
  );
}
