import { useLocaleFormats, useRoleMay } from '@grove/web-data-access';
import { Alert, Button } from '@grove/web-ui';
import { useEmailSending, useResendVerification } from './api/data-rights';
import './data-rights.css';

/**
 * The banner above every dashboard page while member emails wait (docs/product.md#verified-senders):
 * until an owner verified their email (with 'Resend verification' for owners), or past the day's
 * cap. Nothing otherwise or while loading.
 */
export function SenderBanner() {
  const sending = useEmailSending();
  const resend = useResendVerification();
  const owner = useRoleMay('dataRights');
  const formats = useLocaleFormats();
  const status = sending.data;
  if (!status) return null;
  if (!status.senderVerified)
    return (
      <div className="dash-rights-banner">
        <Alert tone="info">
          Please verify your email: Grove sends emails to your members only after an owner has
          verified theirs.
          {status.waitingForVerification > 0 &&
            ` ${formats.count(status.waitingForVerification)} member ${status.waitingForVerification === 1 ? 'email waits' : 'emails wait'} and will go out once you verify.`}{' '}
          {owner &&
            (resend.isSuccess ? (
              <strong>{resend.data.message}</strong>
            ) : (
              <Button
                size="sm"
                variant="secondary"
                onClick={() => resend.mutate()}
                busy={resend.isPending}
              >
                Resend verification
              </Button>
            ))}
          {resend.error && ` ${resend.error.message}`}
        </Alert>
      </div>
    );
  if (status.waitingForTomorrow > 0)
    return (
      <div className="dash-rights-banner">
        <Alert tone="info">
          You reached today's limit of {formats.count(status.dailyCap)} emails to members.{' '}
          {formats.count(status.waitingForTomorrow)} more go out tomorrow.
        </Alert>
      </div>
    );
  return null;
}
