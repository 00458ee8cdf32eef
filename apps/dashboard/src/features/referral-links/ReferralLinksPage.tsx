import { useState } from 'react';
import { MESSAGES } from '@grove/contracts';
import { useMembers } from '@grove/web-data-access';
import { Button, Card, EmptyState, PageHeader, Pagination, Spinner } from '@grove/web-ui';

/** SPEC §2: shown for a member without a referral link. */
export const NO_REFERRAL_LINK = 'Referral link does not exist for this member';

/**
 * Referral Links (SPEC §2): Name, Email, Referral Link. Links are issued by the referral issue;
 * until then every member shows SPEC's 'does not exist' text.
 */
export function ReferralLinksPage() {
  const [page, setPage] = useState(1);
  const members = useMembers({ page, pageSize: 25, sort: 'memberName', order: 'asc' });
  let body;
  if (members.isPending) body = <Spinner />;
  else if (members.isError)
    body = <EmptyState message={members.error.message} action={<Button onClick={() => members.refetch()}>Try again</Button>} />;
  else if (members.data.items.length === 0) body = <EmptyState message={MESSAGES.branchesEmpty} />;
  else
    body = (
      <>
        <div className="g-table-wrap">
          <table className="g-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Referral Link</th>
              </tr>
            </thead>
            <tbody>
              {members.data.items.map((member) => (
                <tr key={member.id}>
                  <td>{member.memberName}</td>
                  <td>{member.memberEmail}</td>
                  <td className="g-muted">{NO_REFERRAL_LINK}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pagination page={page} pageSize={25} total={members.data.total} onPageChange={setPage} noun="members" />
      </>
    );
  return (
    <>
      <PageHeader title="Referral Links" description="Each member's personal link to share with friends." />
      <Card>{body}</Card>
    </>
  );
}
