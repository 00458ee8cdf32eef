import { useState } from 'react';
import { PASSKEY_MESSAGES, validatePasskeyName, type PasskeyNameInput } from '@grove/contracts';
import { passkeyErrorMessage, useLocaleFormats } from '@grove/web-data-access';
import { useContractForm } from '@grove/web-forms';
import { Alert, Button, RecoveryCodes, Spinner, TextField } from '@grove/web-ui';
import { useAddPasskey, usePasskeys, useRemovePasskey } from './api/passkeys';
import { ProofForm } from './ProofForm';

/**
 * The Security card's passkeys (docs/product.md#passkeys): each one's name, when it was added and
 * last used, and 'Remove', which asks for a code, a recovery code or the password first (as
 * turning off the app does); a name and 'Add a passkey' open the browser's passkey prompt. The
 * first second factor of the account also shows its recovery codes once. The last passkey of an
 * account without a password of its own offers no 'Remove' but says to set a password first (the
 * API refuses it too, docs/product.md#set-a-password).
 * @param passwordSet whether the person has a password of their own (`passwordSet` of
 *   `GET /api/account/second-factor`); absent while it loads
 */
export function PasskeysSection({ passwordSet }: { passwordSet?: boolean }) {
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const formats = useLocaleFormats();
  const [error, setError] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  /** The one passkey left of an account without a password of its own: it cannot be removed. */
  const keepsLast = passwordSet === false && passkeys.data?.length === 1;
  /** The passkey whose 'Remove' asks for the proof. */
  const [removing, setRemoving] = useState<string | null>(null);
  const { submit, field, reset } = useContractForm<PasskeyNameInput>(validatePasskeyName, {
    defaultValues: { name: '' },
    trim: ['name'],
    onSubmit: async ({ name }) => {
      setError(null);
      const added = await add.mutateAsync(name);
      reset();
      if (added.recoveryCodes) setRecoveryCodes(added.recoveryCodes);
    },
    onError: (failure) => setError(passkeyErrorMessage(failure)),
  });

  if (recoveryCodes)
    return (
      <section className="dash-security__section">
        <RecoveryCodes
          codes={recoveryCodes}
          title="Your passkey is added."
          onDone={() => setRecoveryCodes(null)}
        />
      </section>
    );
  return (
    <section className="dash-security__section" aria-labelledby="dash-passkeys-title">
      <h3 id="dash-passkeys-title" className="dash-security__subtitle">
        Passkeys
      </h3>
      <p className="g-muted dash-security__hint">
        Sign in with your fingerprint, face or device PIN instead of a password and a code. A
        passkey also counts as your second factor.
      </p>
      {passkeys.isPending ? (
        <Spinner label="Loading your passkeys…" />
      ) : passkeys.isError ? (
        <Alert>{passkeys.error.message}</Alert>
      ) : passkeys.data.length === 0 ? (
        <p className="dash-security__empty">No passkeys yet.</p>
      ) : (
        <ul className="dash-security__passkeys" aria-label="Your passkeys">
          {passkeys.data.map((passkey) => (
            <li key={passkey.id} className="dash-security__passkey">
              <div className="dash-security__passkey-row">
                <span>
                  <strong>{passkey.name}</strong>
                  <span className="g-muted dash-security__when">
                    Added {formats.date(passkey.createdAt)}
                    {passkey.lastUsedAt
                      ? ` · last used ${formats.date(passkey.lastUsedAt)}`
                      : ' · not used yet'}
                  </span>
                </span>
                {keepsLast ? null : removing === passkey.id ? (
                  <Button variant="secondary" onClick={() => setRemoving(null)}>
                    Cancel
                  </Button>
                ) : (
                  <Button
                    variant="secondary"
                    aria-label={`Remove ${passkey.name}`}
                    onClick={() => {
                      setError(null);
                      setRemoving(passkey.id);
                    }}
                  >
                    Remove
                  </Button>
                )}
              </div>
              {keepsLast && (
                <p className="g-muted dash-security__hint">
                  {PASSKEY_MESSAGES.lastWithoutPassword}
                </p>
              )}
              {removing === passkey.id && (
                <ProofForm
                  label="To remove this passkey, enter a code, a recovery code or your password"
                  action="Remove passkey"
                  busy={remove.isPending}
                  onProof={async (proof) => {
                    await remove.mutateAsync({ id: passkey.id, proof });
                    setRemoving(null);
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {error && <Alert>{error}</Alert>}
      <form onSubmit={submit} noValidate className="dash-security__form">
        <TextField label="Passkey name" placeholder="e.g. Work laptop" {...field('name')} />
        <Button type="submit" busy={add.isPending}>
          Add a passkey
        </Button>
      </form>
    </section>
  );
}
