import { useParams } from 'react-router-dom';
import { MEMBER_PAGE_MESSAGES } from '@grove/contracts';
import { Alert, Button, Card, Spinner } from '@grove/web-ui';
import { useUnsubscribe, useUnsubscribeStatus } from './api/member';
import '../../member.css';

/**
 * The public unsubscribe page (/member/unsubscribe/:token), where a member email's footer link
 * and a mail client's List-Unsubscribe lead: opening it changes nothing (link scanners open
 * links), the button unsubscribes.
 */
export function UnsubscribePage() {
  const { token = '' } = useParams();
  const status = useUnsubscribeStatus(token);
  const unsubscribe = useUnsubscribe(token);
  if (status.isPending) return <Spinner label="Loading…" />;
  return (
    <main className="member">
      <Card>
        <h1>Email preferences</h1>
        {status.isError ? (
          <Alert>{MEMBER_PAGE_MESSAGES.unsubscribeUnknown}</Alert>
        ) : unsubscribe.isSuccess || status.data.unsubscribed ? (
          <Alert tone="success">{MEMBER_PAGE_MESSAGES.unsubscribed}</Alert>
        ) : (
          <>
            <p>
              Stop emails from {status.data.businessName} about your referrals? You can still ask
              for a link to your page.
            </p>
            {unsubscribe.isError && <Alert>{unsubscribe.error.message}</Alert>}
            <Button busy={unsubscribe.isPending} onClick={() => unsubscribe.mutate()}>
              Unsubscribe
            </Button>
          </>
        )}
      </Card>
    </main>
  );
}
