import { useState } from 'react';
import {
  MESSAGES,
  PASSWORD_HINT,
  validatePasswordChange,
  type PasswordChangeInput,
} from '@grove/contracts';
import { ApiError } from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { useChangePassword } from './api/account';
import { NewPasswordFields } from './security/NewPasswordFields';
import { Alert, Button, Card, TextField } from '@grove/web-ui';

type PasswordForm = Required<PasswordChangeInput>;

const emptyPasswords: PasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * 'Change password' on Account Settings: current password, new password (Grove's rule: 12 to 128
 * characters here; the API also refuses common passwords, shown on the field) and its
 * confirmation. A wrong current password shows 'Your current password is not correct' on that
 * field; success clears the form and says so.
 * @param required the owner's password no longer meets the rule: a notice asks for a new one
 *   until the change succeeds
 */
export function ChangePasswordCard({ required = false }: { required?: boolean }) {
  const changePassword = useChangePassword();
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [changed, setChanged] = useState(false);
  const {
    submit,
    field,
    reset,
    setError,
    formState: { isSubmitting },
  } = useContractForm<PasswordForm>(validatePasswordChange, {
    defaultValues: emptyPasswords,
    onSubmit: async ({ currentPassword, newPassword }) => {
      setNote(null);
      const reply = await changePassword.mutateAsync({ currentPassword, newPassword });
      reset(emptyPasswords);
      setChanged(true);
      setNote({ tone: 'success', text: reply.message });
    },
    onError: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
      // The API names the field at fault (a wrong current password comes as its field error).
      if (fieldErrors.currentPassword) {
        setError(
          'currentPassword',
          { message: fieldErrors.currentPassword },
          { shouldFocus: true },
        );
      } else if (fieldErrors.newPassword) {
        setError('newPassword', { message: fieldErrors.newPassword }, { shouldFocus: true });
      } else {
        setNote({ tone: 'error', text: message });
      }
    },
  });

  return (
    <Card className="dash-account__card" aria-labelledby="change-password-title">
      <h2 id="change-password-title" className="dash-account__title">
        Change password
      </h2>
      {required && !changed && <Alert tone="info">{MESSAGES.passwordChangeRequired}</Alert>}
      <p className="g-muted dash-account__lead">{PASSWORD_HINT}</p>
      <form onSubmit={submit} noValidate aria-labelledby="change-password-title">
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...field('currentPassword', { onChange: () => setNote(null) })}
        />
        <NewPasswordFields
          newPassword={field('newPassword')}
          confirmPassword={field('confirmPassword')}
        />
        {note && <Alert tone={note.tone}>{note.text}</Alert>}
        <Button type="submit" busy={isSubmitting}>
          Change password
        </Button>
      </form>
    </Card>
  );
}
