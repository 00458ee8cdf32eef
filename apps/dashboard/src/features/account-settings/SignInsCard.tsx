import { useLocaleFormats } from '@grove/web-data-access';
import { Alert, Button, Card, Spinner, useTimedMessage } from '@grove/web-ui';
import { useEndSignIn, useSignIns, useSignOutOthers } from './api/sessions';

/**
 * "Where you're signed in" on Account Settings (issue 34): each browser signed in to this account
 * (browser and system, when it signed in, when it was last active), this one first and marked;
 * 'Sign out' ends another at once (its next request is refused), 'Sign out everywhere else' all
 * of them but this one. Shown also while the business requires a second factor the person has not
 * set up: a person always sees where their own account is signed in (the API opens these routes
 * before a second factor, docs/product.md#second-factor).
 */
export function SignInsCard() {
  const signIns = useSignIns();
  const end = useEndSignIn();
  const others = useSignOutOthers();
  const formats = useLocaleFormats();
  const [note, setNote] = useTimedMessage();
  const rows = signIns.data ?? [];
  const otherCount = rows.filter((row) => !row.current).length;

  const signOutOthers = async () => {
    setNote(null);
    const { ended } = await others.mutateAsync();
    setNote(ended === 1 ? 'Signed out 1 other browser' : `Signed out ${ended} other browsers`);
  };

  return (
    <Card>
      <h2 className="dash-account__title" id="sign-ins-title">
        Where you’re signed in
      </h2>
      <p className="g-muted dash-account__lead">
        Browsers signed in to your account. Sign out any you do not recognise, then change your
        password.
      </p>
      {signIns.isError ? (
        <Alert>{signIns.error.message}</Alert>
      ) : signIns.isPending ? (
        <Spinner label="Loading where you’re signed in…" />
      ) : (
        <>
          <ul className="dash-sign-ins" aria-labelledby="sign-ins-title">
            {rows.map((row) => (
              <li key={row.id} className="dash-sign-ins__row">
                <span>
                  <span className="dash-sign-ins__device">{row.device}</span>
                  {row.current && <span className="dash-sign-ins__current">This browser</span>}
                  <span className="dash-sign-ins__when g-muted">
                    Signed in {formats.dateTime(row.signedInAt)} · last active{' '}
                    {formats.dateTime(row.lastActiveAt)}
                  </span>
                </span>
                {!row.current && (
                  <Button
                    variant="secondary"
                    busy={end.isPending && end.variables === row.id}
                    onClick={() => void end.mutateAsync(row.id).catch(() => undefined)}
                    aria-label={`Sign out ${row.device}, signed in ${formats.dateTime(row.signedInAt)}`}
                  >
                    Sign out
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {(end.isError || others.isError) && <Alert>{(end.error ?? others.error)?.message}</Alert>}
          {note && <Alert tone="success">{note}</Alert>}
          {otherCount > 0 && (
            <Button
              variant="secondary"
              busy={others.isPending}
              onClick={() => void signOutOthers().catch(() => undefined)}
            >
              Sign out everywhere else
            </Button>
          )}
        </>
      )}
    </Card>
  );
}
