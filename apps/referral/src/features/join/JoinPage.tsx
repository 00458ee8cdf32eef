import { Alert, Card } from '@grove/web-ui';

/** SPEC §2/§8: the text a friend sees when a referral link cannot be used. */
export const REFERRAL_FAILURE =
  'Something went wrong! Please try again. If this continues to occur, the link may be expired.';

/**
 * The referred friend's join page (/referral/:code). Referral links are issued by the referral
 * issue; until then no code is valid, so the page shows SPEC's failure text before anyone types.
 */
export function JoinPage() {
  return (
    <main className="referral-join">
      <Card>
        <h1>Join through a friend</h1>
        <Alert>{REFERRAL_FAILURE}</Alert>
      </Card>
    </main>
  );
}
