import {
  SECOND_FACTOR_MESSAGES,
  validateSecondFactorCode,
  type SessionUser,
} from '@grove/contracts';
import {
  ApiError,
  passkeyErrorMessage,
  usePasskeySignIn,
  useSecondFactorSignIn,
} from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, TextField, useTimedMessage } from '@grove/web-ui';

/** The code field's rule: contracts' `validateSecondFactorCode` (6 digits or a recovery code). */
const validateCodeForm = (input: { code: string }) => ({
  code: validateSecondFactorCode(input.code) ?? undefined,
});

/**
 * The login's second step (docs/product.md#second-factor): after a right password of an account
 * with an authenticator app or a passkey, the 6-digit code (or a recovery code), or 'Use your
 * passkey' (docs/product.md#passkeys). A wrong code shows 'That code is not correct…' and clears
 * the field; a challenge past its 5 minutes or 5 wrong codes sends the owner back to the password
 * with 'This sign-in has expired. Please sign in again.'.
 * @param totp the account has an authenticator app (else the code field takes recovery codes)
 * @param passkey the account has a passkey: offered first
 */
export function SecondFactorStep({
  challenge,
  totp,
  passkey,
  onSignedIn,
  onExpired,
}: {
  challenge: string;
  totp: boolean;
  passkey: boolean;
  onSignedIn: (user: SessionUser) => void;
  onExpired: (message: string) => void;
}) {
  const answer = useSecondFactorSignIn();
  const withPasskey = usePasskeySignIn();
  const [error, setError] = useTimedMessage();
  const usePasskey = () =>
    void withPasskey.mutateAsync(challenge).then(onSignedIn, (failure: unknown) => {
      if (
        failure instanceof ApiError &&
        failure.message === SECOND_FACTOR_MESSAGES.challengeExpired
      )
        onExpired(failure.message);
      else setError(passkeyErrorMessage(failure));
    });
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
      <h1 className="shell-auth__title">{totp ? 'Enter your code' : 'Use your passkey'}</h1>
      <p className="g-muted shell-auth__lead">
        {totp
          ? 'Open your authenticator app and enter the 6-digit code for Grove, or one of your recovery codes.'
          : 'Confirm it is you with your passkey, or enter one of your recovery codes.'}
      </p>
      {error && <Alert>{error}</Alert>}
      {passkey && (
        <Button
          type="button"
          variant={totp ? 'secondary' : 'primary'}
          busy={withPasskey.isPending}
          onClick={usePasskey}
          className="shell-auth__submit"
        >
          Use your passkey
        </Button>
      )}
      <form onSubmit={submit} noValidate>
        <TextField label="Code" inputMode="text" autoComplete="one-time-code" {...field('code')} />
        <Button type="submit" busy={answer.isPending} className="shell-auth__submit">
          Verify
        </Button>
      </form>
    </>
  );
}
