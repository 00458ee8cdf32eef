import { MESSAGES, type MemberRow } from '@grove/contracts';
import { Button } from '@grove/web-ui';
import { useRoleMay } from '@grove/web-data-access';
import { useRetryMindbodyClient } from './api/members';

/**
 * A member approved with 'Add to Mindbody' whose client is not there yet (issue 33 item 4): 'Adding
 * to Mindbody…' while the job runs, else 'Not added to Mindbody.' with why and, for an owner,
 * 'Try again'. Nothing for anyone else.
 */
export function MindbodyClientState({ row }: { row: MemberRow }) {
  const request = row.mindbodyClientRequest;
  const mayRetry = useRoleMay('integrations');
  const retry = useRetryMindbodyClient();
  if (!request) return null;
  if (request.state === 'pending')
    return (
      <div className="dash-mindbody-client" role="status">
        <span className="g-badge g-badge--muted">{MESSAGES.mindbodyAddPending}</span>
      </div>
    );
  return (
    <div className="dash-mindbody-client dash-mindbody-client--failed" role="status">
      <strong>{MESSAGES.mindbodyAddFailed}</strong> {request.message}
      {mayRetry && (
        <Button
          size="sm"
          variant="secondary"
          busy={retry.isPending}
          onClick={() => retry.mutate(row.id)}
        >
          Try again
        </Button>
      )}
      {retry.isError && <span className="dash-mindbody-client__error">{retry.error.message}</span>}
    </div>
  );
}
