import { useState } from 'react';
import type { FlaggedJoinRow } from '@grove/contracts';
import { useDismissJoinFlag, useJoinFlags } from './api/prospects';
import { Alert, Button, Card, Pagination } from '@grove/web-ui';
import { useRoleMay } from '@grove/web-data-access';
import { SignalList } from './SignalList';
import { MemberLink } from '../../components/member-link/MemberLink';

const PAGE_SIZE = 25;

/** 'Tried to join through Riley's link' (+ how often, when more than once). */
function attemptLine(flag: FlaggedJoinRow) {
  const times = flag.attempts > 1 ? ` (${flag.attempts} times)` : '';
  return (
    <>
      Tried to join through{' '}
      <MemberLink memberId={flag.referringMemberId} name={flag.referringMemberName} />
      ’s link
      {times}
    </>
  );
}

/**
 * Flagged joins on the Prospective Members screen (issue 11): someone who is already a member of
 * this business, or a member using their own link, joined through a referral link. The join page
 * told them 'Successfully registered!' like anyone else (it reveals nothing about members), but
 * they were not queued; here the owner sees each with its reasons and can dismiss it. Renders
 * nothing while there are none.
 */
export function FlaggedJoins() {
  const [page, setPage] = useState(1);
  const flags = useJoinFlags({ page, pageSize: PAGE_SIZE });
  const dismiss = useDismissJoinFlag();
  // Dismissing is for owners and managers (`DELETE /api/prospects/flags/{id}`).
  const mayDismiss = useRoleMay('manage');

  if (flags.isError) return <Alert>{flags.error.message}</Alert>;
  if (!flags.data || flags.data.total === 0) return null;
  const { items, total, pageSize } = flags.data;

  return (
    <Card className="dash-flags">
      <h2 className="dash-flags__title">Flagged joins</h2>
      <p className="g-muted dash-flags__lead">
        These people joined through a referral link but are already members, or used their own link.
        They saw the usual confirmation and were not added as prospective members.
      </p>
      {dismiss.isError && <Alert>{dismiss.error.message}</Alert>}
      <div className="g-table-wrap">
        <table className="g-table g-table--stack">
          <caption className="g-visually-hidden">Flagged joins</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Reason</th>
              {mayDismiss && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {items.map((flag) => (
              <tr key={flag.id} data-testid="flag-row">
                <td>
                  <div className="dash-member">
                    <span className="g-badge dash-flags__badge">Flagged</span> {flag.name}
                  </div>
                  <div className="dash-member__email">{attemptLine(flag)}</div>
                </td>
                <td data-label="Email">{flag.email}</td>
                <td data-label="Reason" className="dash-flags__reason-cell">
                  <SignalList signals={flag.reasons} />
                </td>
                {mayDismiss && (
                  <td>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={`Dismiss flag for ${flag.name}`}
                      busy={dismiss.isPending && dismiss.variables === flag.id}
                      onClick={() => dismiss.mutate(flag.id)}
                    >
                      Dismiss
                    </Button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > pageSize && (
        <Pagination
          page={page}
          pageSize={pageSize}
          total={total}
          onPageChange={setPage}
          noun="flagged joins"
        />
      )}
    </Card>
  );
}
