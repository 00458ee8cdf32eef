import {
  SECOND_FACTOR_MESSAGES,
  validateSecondFactorCode,
  type SessionUser,
} from '@grove/contracts';
import { ApiError, useSecondFactorSignIn } from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, TextField, useTimedMessage } from '@grove/web-ui';

/** The code field's rule: contracts' `validateSecondFactorCode` (6 digits or a recovery code). */
const validateCodeForm = (input: { code: string }) => ({
  code: validateSecondFactorCode(input.code) ?? undefined,
});

/**
 * The login's second step (docs/product.md#second-factor): after a right password of an account
 * with an authenticator app, the 6-digit code (or a recovery code). A wrong code shows 'That code
 * is not correct…' and clears the field; a challenge past its 5 minutes or 5 wrong codes sends the
 * owner back to the password with 'This sign-in has expired. Please sign in again.'.
 */
export function SecondFactorStep({
  challenge,
  onSignedIn,
  onExpired,
}: {
  challenge: string;
  onSignedIn: (user: SessionUser) => void;
  onExpired: (message: string) => void;
}) {
  const answer = useSecondFactorSignIn();
  const [error, setError] = useTimedMessage();
  const { submit, field, setValue } = useContractForm<{ code: string }>(validateCodeForm, {
    defaultValues: { code: '' },
    trim: ['code'],
    onSubmit: async ({ code }) => onSignedIn(await answer.mutateAsync({ challenge, code })),
    onError: (failure) => {
      setValue('code', '');
      if (failure instanceof ApiError && failure.status === 401) onExpired(failure.message);
      else
        setError(failure instanceof ApiError ? failure.message : SECOND_FACTOR_MESSAGES.codeWrong);
    },
  });
  return (
    <>
      <h1 className="shell-auth__title">Enter your code</h1>
      <p className="g-muted shell-auth__lead">
        Open your authenticator app and enter the 6-digit code for Grove, or one of your recovery
        codes.
      </p>
      {error && <Alert>{error}</Alert>}
      <form onSubmit={submit} noValidate>
        <TextField label="Code" inputMode="text" autoComplete="one-time-code" {...field('code')} />
        <Button type="submit" busy={answer.isPending} className="shell-auth__submit">
          Verify
        </Button>
      </form>
    </>
  );
}
