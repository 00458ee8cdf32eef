import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { MESSAGES, isValidEmail, isValidName } from '@grove/contracts';
import { useJoinReferral, useReferralInfo } from './api/join';
import { Alert, Button, Card, Spinner, TextField } from '@grove/web-ui';
import '../../referral.css';

/**
 * The referred friend's join page (/referral/:code, docs/product.md#referral-join): shows the business and the first
 * name of the member who referred them, then Name and Email. Success: 'Successfully registered!'.
 * The API answers every friend of a live link alike, so a stranger, a member of the business and
 * the referrer all see 'Successfully registered!' (the page reveals nothing about members; the
 * owner sees the last two as flagged joins). An unknown, revoked or expired link shows SPEC's
 * failure text before anyone types; any failed send shows it too.
 */
export function JoinPage() {
  const { code = '' } = useParams();
  const info = useReferralInfo(code);
  const join = useJoinReferral(code);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [website, setWebsite] = useState('');
  const [errors, setErrors] = useState<{ name?: string; email?: string }>({});

  if (info.isPending) return <Spinner label="Opening your invitation…" />;
  if (info.isError) {
    return (
      <main className="referral-join">
        <Card>
          <h1>Join through a friend</h1>
          <Alert>{MESSAGES.referralFailed}</Alert>
        </Card>
      </main>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      name: isValidName(name) ? undefined : MESSAGES.invalidName,
      email: isValidEmail(email) ? undefined : MESSAGES.invalidEmail,
    };
    setErrors(found);
    if (found.name || found.email) return;
    join.mutate({ name: name.trim(), email: email.trim(), website });
  };

  const failure = join.isError ? MESSAGES.referralFailed : null;

  return (
    <main className="referral-join">
      <Card>
        <p className="referral-join__eyebrow">{info.data.businessName}</p>
        <h1>{info.data.referrerFirstName} invited you to join</h1>
        {join.isSuccess ? (
          <Alert tone="success">{MESSAGES.referralSuccess}</Alert>
        ) : (
          <>
            <p className="g-muted">
              Leave your name and email and {info.data.businessName} will be in touch to welcome
              you.
            </p>
            {failure && <Alert>{failure}</Alert>}
            <form onSubmit={submit} noValidate>
              <TextField
                label="Name"
                autoComplete="name"
                value={name}
                error={errors.name}
                onChange={(e) => setName(e.target.value)}
              />
              <TextField
                label="Email"
                type="email"
                autoComplete="email"
                value={email}
                error={errors.email}
                onChange={(e) => setEmail(e.target.value)}
              />
              <div className="referral-join__trap" aria-hidden="true">
                <label htmlFor="referral-website">Website</label>
                <input
                  id="referral-website"
                  tabIndex={-1}
                  autoComplete="off"
                  value={website}
                  onChange={(e) => setWebsite(e.target.value)}
                />
              </div>
              <Button type="submit" busy={join.isPending} className="referral-join__submit">
                Submit
              </Button>
            </form>
          </>
        )}
      </Card>
    </main>
  );
}
