import { useState } from 'react';
import type { ReferralToMatch } from '@grove/contracts';
import { useLocaleFormats, useRoleMay } from '@grove/web-data-access';
import { Alert, Button, Card } from '@grove/web-ui';
import { useDismissReferral, useMatchReferral, useReferralsToMatch } from './api/members';
import { MemberPicker, type PickedReferrer } from './MemberPicker';

const NOBODY: PickedReferrer = { member: null, text: '' };

/**
 * One waiting member: who they are, the name the desk typed, and (for a role that writes: not a
 * viewer, docs/product.md#staff-accounts) a member picker, Match and Dismiss.
 */
function ReferralToMatchRow({ item }: { item: ReferralToMatch }) {
  const mayWrite = useRoleMay('write');
  const format = useLocaleFormats();
  const [referrer, setReferrer] = useState<PickedReferrer>(NOBODY);
  const match = useMatchReferral();
  const dismiss = useDismissReferral();
  const failure = match.error ?? dismiss.error;
  return (
    <li className="dash-match">
      <p className="dash-match__who">
        <strong>{item.memberName}</strong> — referred by “{item.referredByNote}”
        <span className="g-muted"> · added {format.date(item.addedAt)}</span>
      </p>
      {failure && <Alert>{failure.message}</Alert>}
      {mayWrite && (
        <div className="dash-match__pick">
          <MemberPicker
            label={`Who referred ${item.memberName}?`}
            value={referrer}
            onChange={setReferrer}
            exclude={[item.memberId]}
          />
          <div className="dash-actions">
            <Button
              size="sm"
              disabled={!referrer.member}
              busy={match.isPending}
              onClick={() =>
                referrer.member &&
                match.mutate({ memberId: item.memberId, referrerId: referrer.member.id })
              }
            >
              Match
            </Button>
            <Button
              size="sm"
              variant="secondary"
              busy={dismiss.isPending}
              onClick={() => dismiss.mutate(item.memberId)}
            >
              Dismiss
            </Button>
          </div>
        </div>
      )}
    </li>
  );
}

/**
 * Referrals to match (issue 33 item 4, docs/product.md#referrals-to-match): shown while any
 * member added at the desk waits with a "referred by" that matched no member. Matching makes
 * the member the picked member's branch; dismissing keeps the member, referred by no one. Nothing
 * shows while none wait (or while the list loads: it is a reminder, not the page's content).
 */
export function ReferralsToMatchCard() {
  const waiting = useReferralsToMatch();
  if (!waiting.data || waiting.data.total === 0) return null;
  const { items, total } = waiting.data;
  return (
    <Card aria-labelledby="referrals-to-match-title">
      <h2 id="referrals-to-match-title">Referrals to match ({total})</h2>
      <p className="g-muted">
        Members added at the desk named someone who is not a member. Pick the member they meant, or
        dismiss it.{total > items.length ? ` The oldest ${items.length} are shown.` : ''}
      </p>
      <ul className="dash-match-list">
        {items.map((item) => (
          <ReferralToMatchRow key={item.memberId} item={item} />
        ))}
      </ul>
    </Card>
  );
}
