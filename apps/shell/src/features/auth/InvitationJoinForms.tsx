import { useState } from 'react';
import {
  PASSWORD_HINT,
  validateInvitationAccept,
  validateInvitationPasskey,
  type InvitationAcceptRequest,
  type InvitationPasskeyOptionsRequest,
  type SessionUser,
} from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { ApiError, passkeyErrorMessage } from '@grove/web-data-access';
import { Alert, Button, TextField } from '@grove/web-ui';
import { useAcceptInvitation, useAcceptInvitationWithPasskey } from './api/invitation';

/** The invitee's name, kept when they switch between a password and a passkey. */
export interface JoinNames {
  firstName: string;
  lastName: string;
}

interface JoinFormProps {
  token: string;
  names: JoinNames;
  /** Switches to the other way of joining, with the names typed so far. */
  onSwitch: (names: JoinNames) => void;
}

/** True when the API placed its messages on the form's fields (nothing else to say). */
const onFields = (error: unknown) =>
  error instanceof ApiError && Object.keys(error.fieldErrors).length > 0;

/** The first and last name fields of either form. */
function NameFields({ field }: { field: (name: 'firstName' | 'lastName') => object }) {
  return (
    <>
      <TextField label="First name" autoComplete="given-name" {...field('firstName')} />
      <TextField label="Last name" autoComplete="family-name" {...field('lastName')} />
    </>
  );
}

/**
 * Joining with a name and a password (signup's rules, `validateInvitationAccept`): 'Join and sign
 * in' signs in and calls `onJoined`; 'Use a passkey' switches to `PasskeyJoinForm`.
 */
export function PasswordJoinForm({
  token,
  names,
  onSwitch,
  onJoined,
}: JoinFormProps & { onJoined: () => void }) {
  const accept = useAcceptInvitation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useContractForm<Omit<InvitationAcceptRequest, 'token'>>(validateInvitationAccept, {
    defaultValues: { ...names, password: '' },
    trim: ['firstName', 'lastName'],
    fields: ['firstName', 'lastName', 'password'],
    onSubmit: async (values) => {
      setFailure(null);
      await accept.mutateAsync({ token, ...values });
      onJoined();
    },
    onError: (error) => {
      if (!onFields(error)) setFailure(error instanceof Error ? error.message : String(error));
    },
  });
  const typedNames = () => ({
    firstName: form.getValues('firstName'),
    lastName: form.getValues('lastName'),
  });
  return (
    <>
      {failure && <Alert>{failure}</Alert>}
      <form onSubmit={form.submit} noValidate>
        <NameFields field={form.field} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
          {...form.field('password')}
        />
        <Button type="submit" busy={accept.isPending} className="shell-auth__submit">
          Join and sign in
        </Button>
      </form>
      <p className="shell-auth__or">or</p>
      <Button
        type="button"
        variant="secondary"
        className="shell-auth__submit"
        onClick={() => onSwitch(typedNames())}
      >
        Use a passkey
      </Button>
    </>
  );
}

/**
 * Joining with a passkey instead of a password (docs/product.md#staff-accounts): the name and a
 * 'Passkey name' (`validateInvitationPasskey`), then the browser's passkey prompt; the passkey is
 * added to the new account in the same step and `onJoined` gets the member of staff and their
 * recovery codes. A cancelled prompt, a browser without passkeys or a refused link says so
 * (`passkeyErrorMessage`); 'Set a password instead' switches back.
 */
export function PasskeyJoinForm({
  token,
  names,
  onSwitch,
  onJoined,
}: JoinFormProps & { onJoined: (joined: { user: SessionUser; recoveryCodes: string[] }) => void }) {
  const accept = useAcceptInvitationWithPasskey();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useContractForm<Omit<InvitationPasskeyOptionsRequest, 'token'>>(
    validateInvitationPasskey,
    {
      defaultValues: { ...names, passkeyName: '' },
      trim: ['firstName', 'lastName', 'passkeyName'],
      fields: ['firstName', 'lastName', 'passkeyName'],
      onSubmit: async (values) => {
        setFailure(null);
        onJoined(await accept.mutateAsync({ token, ...values }));
      },
      onError: (error) => {
        if (!onFields(error)) setFailure(passkeyErrorMessage(error));
      },
    },
  );
  return (
    <>
      {failure && <Alert>{failure}</Alert>}
      <form onSubmit={form.submit} noValidate>
        <NameFields field={form.field} />
        <TextField
          label="Passkey name"
          placeholder="e.g. Work laptop"
          hint="Your fingerprint, face or device PIN signs you in; no password needed."
          {...form.field('passkeyName')}
        />
        <Button type="submit" busy={accept.isPending} className="shell-auth__submit">
          Join with a passkey
        </Button>
      </form>
      <p className="shell-auth__or">or</p>
      <Button
        type="button"
        variant="secondary"
        className="shell-auth__submit"
        onClick={() =>
          onSwitch({ firstName: form.getValues('firstName'), lastName: form.getValues('lastName') })
        }
      >
        Set a password instead
      </Button>
    </>
  );
}
