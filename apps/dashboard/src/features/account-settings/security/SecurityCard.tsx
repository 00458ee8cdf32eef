import { useState } from 'react';
import { SECOND_FACTOR_MESSAGES, validateSecondFactorCode } from '@grove/contracts';
import { useRoleMay } from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card, RecoveryCodes, Spinner, TextField } from '@grove/web-ui';
import {
  useConfirmTotp,
  useDisableTotp,
  useSecondFactor,
  useSetSecondFactorRequirement,
  useStartTotp,
} from './api/second-factor';
import { NewRecoveryCodes } from './NewRecoveryCodes';
import { PasskeysSection } from './PasskeysSection';
import { ProofForm } from './ProofForm';
import './security.css';

/** The code field's rule: contracts' `validateSecondFactorCode`. */
const validateCode = (input: { code: string }) => ({
  code: validateSecondFactorCode(input.code) ?? undefined,
});

/**
 * Account Settings' Security card (issue 34 item 3, docs/product.md#second-factor): a second
 * step at sign-in with an authenticator app. Off: 'Set up an authenticator app' shows a QR code
 * (and the secret to type by hand) and asks for a code the app shows; once confirmed, the 10
 * recovery codes are shown once. On: 'Turn off' with a code, a recovery code or the password.
 * With any second factor: how many recovery codes are left and 'New recovery codes'. Passkeys
 * (`PasskeysSection`). Every role manages their own; owners also require a second factor of every
 * member of staff.
 * @param setupRequired the login sent this member of staff here because the business requires a
 *   second factor they do not have: a notice says so until they set one up
 */
export function SecurityCard({ setupRequired = false }: { setupRequired?: boolean }) {
  const status = useSecondFactor();
  const start = useStartTotp();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const mayRequire = useRoleMay('team');

  return (
    <Card>
      <h2 className="dash-account__title">Security</h2>
      <p className="g-muted dash-account__lead">
        Ask for a code from an authenticator app after your password, so a stolen password alone
        cannot open your account.
      </p>
      {setupRequired && status.data?.hasFactor === false && (
        <Alert tone="info">{SECOND_FACTOR_MESSAGES.setupRequired}</Alert>
      )}
      {status.isPending ? (
        <Spinner label="Loading your sign-in security…" />
      ) : status.isError ? (
        <Alert>{status.error.message}</Alert>
      ) : recoveryCodes ? (
        <RecoveryCodes
          codes={recoveryCodes}
          title="Your authenticator app is on."
          onDone={() => setRecoveryCodes(null)}
        />
      ) : status.data.totp ? (
        <TotpOn />
      ) : start.data ? (
        <TotpEnrol
          enrolment={start.data}
          onConfirmed={setRecoveryCodes}
          onCancel={() => start.reset()}
        />
      ) : (
        <>
          {start.isError && <Alert>{start.error.message}</Alert>}
          <Button
            busy={start.isPending}
            onClick={() => void start.mutateAsync().catch(() => undefined)}
          >
            Set up an authenticator app
          </Button>
        </>
      )}
      {status.data?.hasFactor && !recoveryCodes && (
        <NewRecoveryCodes left={status.data.recoveryCodesLeft} />
      )}
      <PasskeysSection passwordSet={status.data?.passwordSet} />
      {mayRequire && status.data && <Requirement status={status.data} />}
    </Card>
  );
}

/** Owners: require a second factor of every member of staff (their own app first). */
function Requirement({ status }: { status: { hasFactor: boolean; businessRequires: boolean } }) {
  const set = useSetSecondFactorRequirement();
  return (
    <div className="dash-security__require">
      <label className="dash-security__check">
        <input
          type="checkbox"
          checked={status.businessRequires}
          disabled={set.isPending || (!status.hasFactor && !status.businessRequires)}
          onChange={(event) => void set.mutateAsync(event.target.checked).catch(() => undefined)}
        />
        Require a second factor of every member of staff
      </label>
      <p className="g-muted dash-security__hint">
        {status.hasFactor || status.businessRequires
          ? 'Staff without one are asked to set up an authenticator app or a passkey when they next sign in.'
          : SECOND_FACTOR_MESSAGES.requireOwnFirst}
      </p>
      {set.isError && <Alert>{set.error.message}</Alert>}
    </div>
  );
}

/** The QR code, the secret and the code that confirms them. */
function TotpEnrol({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: { secret: string; qrSvg: string };
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const confirm = useConfirmTotp();
  const [error, setError] = useState<string | null>(null);
  const { submit, field, setValue } = useContractForm<{ code: string }>(validateCode, {
    defaultValues: { code: '' },
    trim: ['code'],
    onSubmit: async ({ code }) => {
      setError(null);
      onConfirmed((await confirm.mutateAsync(code)).recoveryCodes);
    },
    onError: (failure) => {
      setValue('code', '');
      setError(failure instanceof Error ? failure.message : String(failure));
    },
  });
  return (
    <div className="dash-security__enrol">
      <ol className="dash-security__steps">
        <li>
          Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy…).
        </li>
        <li>Enter the 6-digit code the app shows for Grove.</li>
      </ol>
      <img
        className="dash-security__qr"
        src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qrSvg)}`}
        alt="QR code to scan with your authenticator app"
        width={180}
        height={180}
      />
      <p className="g-muted">
        Cannot scan it? Type this key instead:{' '}
        <code className="dash-security__secret" data-testid="totp-secret">
          {enrolment.secret}
        </code>
      </p>
      {error && <Alert>{error}</Alert>}
      <form onSubmit={submit} noValidate className="dash-security__form">
        <TextField label="Code from your app" autoComplete="one-time-code" {...field('code')} />
        <div className="dash-security__actions">
          <Button type="submit" busy={confirm.isPending}>
            Turn on
          </Button>
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}

/** The app is on: 'Turn off' with a code, a recovery code or the password. */
function TotpOn() {
  const disable = useDisableTotp();
  return (
    <div>
      <p className="dash-security__on">
        <span className="dash-security__badge">On</span> Signing in asks for a code from your
        authenticator app.
      </p>
      <ProofForm
        label="To turn it off, enter a code, a recovery code or your password"
        action="Turn off"
        busy={disable.isPending}
        onProof={(proof) => disable.mutateAsync(proof)}
      />
    </div>
  );
}
