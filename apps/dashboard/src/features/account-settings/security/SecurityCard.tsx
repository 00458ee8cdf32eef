import { useState } from 'react';
import {
  RECOVERY_CODE_COUNT,
  SECOND_FACTOR_MESSAGES,
  validateSecondFactorCode,
} from '@grove/contracts';
import { useRoleMay } from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, Card, Spinner, TextField } from '@grove/web-ui';
import {
  useConfirmTotp,
  useDisableTotp,
  useSecondFactor,
  useSetSecondFactorRequirement,
  useStartTotp,
} from './api/second-factor';
import './security.css';

/** The code field's rule: contracts' `validateSecondFactorCode`. */
const validateCode = (input: { code: string }) => ({
  code: validateSecondFactorCode(input.code) ?? undefined,
});

/** The 'Turn off' field takes a code or the password: a code's shape is sent as a code. */
const validateProof = (input: { proof: string }) => ({
  proof: input.proof.trim() ? undefined : SECOND_FACTOR_MESSAGES.disableNeedsProof,
});

/**
 * Account Settings' Security card (issue 34 item 3, docs/product.md#second-factor): a second
 * step at sign-in with an authenticator app. Off: 'Set up an authenticator app' shows a QR code
 * (and the secret to type by hand) and asks for a code the app shows; once confirmed, the 10
 * recovery codes are shown once. On: how many recovery codes are left, and 'Turn off' with a
 * code, a recovery code or the password. Every role manages their own; owners also require a
 * second factor of every member of staff.
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
      {setupRequired && status.data?.totp === false && (
        <Alert tone="info">{SECOND_FACTOR_MESSAGES.setupRequired}</Alert>
      )}
      {status.isPending ? (
        <Spinner label="Loading your sign-in security…" />
      ) : status.isError ? (
        <Alert>{status.error.message}</Alert>
      ) : recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
      ) : status.data.totp ? (
        <TotpOn left={status.data.recoveryCodesLeft} />
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
      {mayRequire && status.data && <Requirement status={status.data} />}
    </Card>
  );
}

/** Owners: require a second factor of every member of staff (their own app first). */
function Requirement({ status }: { status: { totp: boolean; businessRequires: boolean } }) {
  const set = useSetSecondFactorRequirement();
  return (
    <div className="dash-security__require">
      <label className="dash-security__check">
        <input
          type="checkbox"
          checked={status.businessRequires}
          disabled={set.isPending || (!status.totp && !status.businessRequires)}
          onChange={(event) => void set.mutateAsync(event.target.checked).catch(() => undefined)}
        />
        Require a second factor of every member of staff
      </label>
      <p className="g-muted dash-security__hint">
        {status.totp || status.businessRequires
          ? 'Staff without one are asked to set up an authenticator app when they next sign in.'
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

/** The recovery codes, shown once right after the app is confirmed. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div>
      <Alert tone="success">Your authenticator app is on.</Alert>
      <p>
        Save these {RECOVERY_CODE_COUNT} recovery codes somewhere safe. Each one signs you in once
        if you lose your phone. They will not be shown again.
      </p>
      <ul className="dash-security__codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <Button onClick={onDone}>I have saved them</Button>
    </div>
  );
}

/** The app is on: recovery codes left, and 'Turn off' with a code or the password. */
function TotpOn({ left }: { left: number }) {
  const disable = useDisableTotp();
  const [error, setError] = useState<string | null>(null);
  const { submit, field, setValue } = useContractForm<{ proof: string }>(validateProof, {
    defaultValues: { proof: '' },
    onSubmit: async ({ proof }) => {
      setError(null);
      const isCode = validateSecondFactorCode(proof) === null;
      await disable.mutateAsync(isCode ? { code: proof.trim() } : { password: proof });
    },
    onError: (failure) => {
      setValue('proof', '');
      setError(failure instanceof Error ? failure.message : String(failure));
    },
  });
  return (
    <div>
      <p className="dash-security__on">
        <span className="dash-security__badge">On</span> Signing in asks for a code from your
        authenticator app. {left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`}
      </p>
      {error && <Alert>{error}</Alert>}
      <form onSubmit={submit} noValidate className="dash-security__form">
        <TextField
          label="To turn it off, enter a code, a recovery code or your password"
          type="password"
          autoComplete="off"
          {...field('proof')}
        />
        <Button type="submit" variant="secondary" busy={disable.isPending}>
          Turn off
        </Button>
      </form>
    </div>
  );
}
