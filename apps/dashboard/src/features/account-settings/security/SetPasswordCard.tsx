import { useState } from 'react';
import {
  PASSWORD_HINT,
  SET_PASSWORD_LEAD,
  validatePasswordSet,
  type PasswordSetInput,
} from '@grove/contracts';
import { ApiError, passkeyErrorMessage } from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card } from '@grove/web-ui';
import { useSetPassword } from './api/password';
import { NewPasswordFields } from './NewPasswordFields';

type SetPasswordForm = Required<PasswordSetInput>;

const empty: SetPasswordForm = { newPassword: '', confirmPassword: '' };

/**
 * 'Set a password' on Security, in place of 'Change password' for an account that joined with a
 * passkey (no password its person knows, docs/product.md#passkeys): new password (Grove's rule:
 * 12 to 128 characters here; the API also refuses common ones, shown on the field) and its
 * confirmation; submitting asks the browser for one of the person's passkeys to confirm it is
 * them. A cancelled prompt or a refusal says so; success says so in place of the form ('Change
 * password' from the next visit on).
 */
export function SetPasswordCard() {
  const setPassword = useSetPassword();
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [done, setDone] = useState(false);
  const {
    submit,
    field,
    reset,
    setError,
    formState: { isSubmitting },
  } = useContractForm<SetPasswordForm>(validatePasswordSet, {
    defaultValues: empty,
    onSubmit: async ({ newPassword }) => {
      setNote(null);
      const reply = await setPassword.mutateAsync(newPassword);
      reset(empty);
      setDone(true);
      setNote({ tone: 'success', text: reply.message });
    },
    onError: (error) => {
      const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
      if (fieldErrors.newPassword)
        setError('newPassword', { message: fieldErrors.newPassword }, { shouldFocus: true });
      else setNote({ tone: 'error', text: passkeyErrorMessage(error) });
    },
  });

  return (
    <Card className="dash-account__card" aria-labelledby="set-password-title">
      <h2 id="set-password-title" className="dash-account__title">
        Set a password
      </h2>
      {done && note ? (
        <Alert tone="success">{note.text}</Alert>
      ) : (
        <>
          <p className="g-muted dash-account__lead">{SET_PASSWORD_LEAD}</p>
          <p className="g-muted dash-account__lead">{PASSWORD_HINT}</p>
          <form onSubmit={submit} noValidate aria-labelledby="set-password-title">
            <NewPasswordFields
              newPassword={field('newPassword', { onChange: () => setNote(null) })}
              confirmPassword={field('confirmPassword')}
            />
            {note && <Alert tone={note.tone}>{note.text}</Alert>}
            <Button type="submit" busy={isSubmitting}>
              Set a password
            </Button>
          </form>
        </>
      )}
    </Card>
  );
}
