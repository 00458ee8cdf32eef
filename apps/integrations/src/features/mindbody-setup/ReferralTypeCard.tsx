import { useState } from 'react';
import { Alert, Button, Card, SelectField, Spinner } from '@grove/web-ui';
import { useMindbodyReferralTypes, useSaveMindbodyReferralType } from './api/mindbody';

/** The select's value for "no referral type". */
const NONE = '';

/**
 * The referral type Grove gives the friends it adds to Mindbody (issue 33 item 4: 'Add to
 * Mindbody' in the approval dialog sends it as the client's `ReferredBy`), picked from the site's
 * own list (`GET /client/clientreferraltypes`); 'None' sends none. Loading, Mindbody failing and
 * the saved state each show.
 */
export function ReferralTypeCard() {
  const types = useMindbodyReferralTypes();
  const save = useSaveMindbodyReferralType();
  const [picked, setPicked] = useState<string | null>(null);
  const value = picked ?? types.data?.selected ?? NONE;
  let body;
  if (types.isPending) body = <Spinner label="Reading your Mindbody referral types" />;
  else if (types.isError) body = <Alert>{types.error.message}</Alert>;
  else
    body = (
      <form
        className="mb-form"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(value === NONE ? null : value, { onSuccess: () => setPicked(null) });
        }}
      >
        {save.isError && <Alert>{save.error.message}</Alert>}
        {save.isSuccess && picked === null && <Alert tone="success">Referral type saved.</Alert>}
        <SelectField
          label="Referral type for friends added to Mindbody"
          hint="When you approve a friend with ‘Add to Mindbody’, their new Mindbody client says how they were referred."
          value={value}
          onChange={(event) => {
            save.reset();
            setPicked(event.target.value);
          }}
          options={[
            { value: NONE, label: 'None' },
            ...types.data.referralTypes.map((type) => ({ value: type, label: type })),
          ]}
        />
        <Button type="submit" busy={save.isPending}>
          Save referral type
        </Button>
      </form>
    );
  return (
    <Card className="mb-card">
      <h2 className="mb-card__title">Friends added to Mindbody</h2>
      {body}
    </Card>
  );
}
