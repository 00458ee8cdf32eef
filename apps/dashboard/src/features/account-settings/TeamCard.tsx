import { useState, type FormEvent } from 'react';
import {
  STAFF_ROLES,
  STAFF_ROLE_LABELS,
  validateStaffInvitation,
  type StaffRole,
} from '@grove/contracts';
import type { Schema } from '@grove/api-contract';
import { useLocaleFormats } from '@grove/web-data-access';
import {
  Alert,
  Button,
  Card,
  Modal,
  SelectField,
  Spinner,
  TextField,
  useTimedMessage,
} from '@grove/web-ui';
import {
  useChangeRole,
  useInvite,
  useLiftSignInPause,
  useRemoveStaff,
  useRevokeInvitation,
  useTeam,
} from './api/team';
import './team.css';

const ROLE_OPTIONS = STAFF_ROLES.map((role) => ({ value: role, label: STAFF_ROLE_LABELS[role] }));

/**
 * Account Settings' Team card (owners only; docs/product.md#staff-accounts): the business's staff
 * (name, email, role, last sign-in) with a role select and 'Remove' (confirmed; their sessions end
 * at once), pending invitations with 'Revoke', and the invite form (email and role; the link is
 * emailed, valid 7 days). A member whose sign-in is paused (too many failed sign-ins on their
 * account) is marked 'Sign-in paused', with 'Let them sign in' to lift it. The API's messages (409 last owner, address taken) show as they come.
 */
export function TeamCard() {
  const team = useTeam();
  const invite = useInvite();
  const revoke = useRevokeInvitation();
  const changeRole = useChangeRole();
  const remove = useRemoveStaff();
  const lift = useLiftSignInPause();
  const formats = useLocaleFormats();
  const [note, setNote] = useTimedMessage();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('front_desk');
  const [errors, setErrors] = useState<{ email?: string; role?: string }>({});
  const [removing, setRemoving] = useState<Schema<'StaffMember'> | null>(null);
  /** The last action's refusal (the API's message), cleared when another starts. */
  const [failure, setFailure] = useState<string | null>(null);
  /** Runs one action, showing its refusal; never rejects. */
  const attempt = async (action: () => Promise<unknown>): Promise<boolean> => {
    setFailure(null);
    setNote(null);
    try {
      await action();
      return true;
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
      return false;
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateStaffInvitation({ email: email.trim(), role });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (await attempt(() => invite.mutateAsync({ email: email.trim(), role }))) {
      setEmail('');
      setNote(`Invitation sent to ${email.trim()}`);
    }
  };
  const name = (member: Schema<'StaffMember'>) => `${member.firstName} ${member.lastName}`;

  return (
    <Card>
      <h2 className="dash-account__title" id="team-title">
        Team
      </h2>
      <p className="g-muted dash-account__lead">
        Invite your staff, each with their own sign-in and a role that decides what they can change.
      </p>
      {team.isError ? (
        <Alert>{team.error.message}</Alert>
      ) : team.isPending ? (
        <Spinner label="Loading your team…" />
      ) : (
        <>
          <ul className="dash-team" aria-labelledby="team-title">
            {team.data.members.map((member) => (
              <li key={member.id} className="dash-team__row">
                <span>
                  <span className="dash-team__name">{name(member)}</span>
                  {member.you && <span className="dash-sign-ins__current">You</span>}
                  {member.signInPausedSeconds > 0 && (
                    <span className="dash-team__paused">Sign-in paused</span>
                  )}
                  <span className="dash-team__when g-muted">
                    {member.email} ·{' '}
                    {member.lastSignInAt
                      ? `last signed in ${formats.dateTime(member.lastSignInAt)}`
                      : 'never signed in'}
                  </span>
                  {member.signInPausedSeconds > 0 && (
                    <span className="dash-team__when">
                      Too many failed sign-ins: paused for about{' '}
                      {Math.ceil(member.signInPausedSeconds / 60)} min.{' '}
                      <Button
                        variant="secondary"
                        size="sm"
                        busy={lift.isPending && lift.variables === member.id}
                        onClick={() => {
                          void attempt(() => lift.mutateAsync(member.id)).then(
                            (lifted) => lifted && setNote(`${name(member)} can sign in again`),
                          );
                        }}
                      >
                        Let them sign in
                      </Button>
                    </span>
                  )}
                </span>
                <SelectField
                  label={`Role of ${name(member)}`}
                  options={ROLE_OPTIONS}
                  value={member.role}
                  disabled={changeRole.isPending}
                  onChange={(event) => {
                    const next = event.target.value as StaffRole;
                    void attempt(() => changeRole.mutateAsync({ id: member.id, role: next }));
                  }}
                />
                <Button variant="danger" size="sm" onClick={() => setRemoving(member)}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
          {team.data.invitations.length > 0 && (
            <>
              <h3 className="dash-team__subtitle" id="invitations-title">
                Pending invitations
              </h3>
              <ul className="dash-team" aria-labelledby="invitations-title">
                {team.data.invitations.map((invitation) => (
                  <li key={invitation.id} className="dash-team__row">
                    <span>
                      <span className="dash-team__name">{invitation.email}</span>
                      <span className="dash-team__when g-muted">
                        {STAFF_ROLE_LABELS[invitation.role]} · link valid until{' '}
                        {formats.dateTime(invitation.expiresAt)}
                      </span>
                    </span>
                    <Button
                      variant="secondary"
                      size="sm"
                      busy={revoke.isPending && revoke.variables === invitation.id}
                      onClick={() => void attempt(() => revoke.mutateAsync(invitation.id))}
                      aria-label={`Revoke the invitation to ${invitation.email}`}
                    >
                      Revoke
                    </Button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {failure && <Alert>{failure}</Alert>}
      {note && <Alert tone="success">{note}</Alert>}
      <form className="dash-team__invite" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Email to invite"
          type="email"
          autoComplete="off"
          value={email}
          error={errors.email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <SelectField
          label="Role"
          options={ROLE_OPTIONS}
          value={role}
          error={errors.role}
          onChange={(event) => setRole(event.target.value as StaffRole)}
        />
        <Button type="submit" busy={invite.isPending}>
          Send invitation
        </Button>
      </form>
      <Modal
        open={removing !== null}
        title="Remove from your team?"
        onClose={() => setRemoving(null)}
      >
        {removing && (
          <>
            <p>
              {name(removing)} ({removing.email}) will be signed out at once and can no longer sign
              in to this business.
            </p>
            <div className="dash-actions">
              <Button variant="secondary" onClick={() => setRemoving(null)}>
                Cancel
              </Button>
              <Button
                variant="danger"
                busy={remove.isPending}
                onClick={() => {
                  const id = removing.id;
                  setRemoving(null);
                  void attempt(() => remove.mutateAsync(id));
                }}
              >
                Remove {name(removing)}
              </Button>
            </div>
          </>
        )}
      </Modal>
    </Card>
  );
}
