import { useLocaleFormats } from '@grove/web-data-access';
import { Alert, Button, Card } from '@grove/web-ui';
import { MemberLink } from '../../components/member-link/MemberLink';
import { useMarkWelcomeOfferHonoured, useWelcomeOfferGrants } from './api/prospects';

/**
 * 'Welcome offers to honour' on Prospective Members (issue 33 item 1,
 * docs/product.md#welcome-offer): each friend approved while the business had a welcome offer,
 * with the offer as it was at approval, until the owner applies it by hand and marks it honoured
 * ('Mark honoured'; the gym's billing does not apply it yet: docs/decisions/welcome-offer.md).
 * Renders nothing while no offer was ever granted.
 */
export function WelcomeOffersToHonour() {
  const grants = useWelcomeOfferGrants();
  const mark = useMarkWelcomeOfferHonoured();
  const formats = useLocaleFormats();

  if (grants.isError) return <Alert>{grants.error.message}</Alert>;
  if (!grants.data || grants.data.items.length === 0) return null;
  const open = grants.data.items.filter((grant) => grant.honouredAt === null).length;

  return (
    <Card className="dash-flags">
      <h2 className="dash-flags__title">Welcome offers to honour</h2>
      <p className="g-muted dash-flags__lead">
        {open === 0
          ? 'Every welcome offer has been honoured.'
          : `${open} approved ${open === 1 ? 'friend was' : 'friends were'} promised a welcome offer. Apply it in your billing, then mark it honoured.`}
      </p>
      {mark.isError && <Alert>{mark.error.message}</Alert>}
      <div className="g-table-wrap">
        <table className="g-table g-table--stack">
          <caption className="g-visually-hidden">Welcome offers to honour</caption>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Offer</th>
              <th scope="col">Approved</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {grants.data.items.map((grant) => (
              <tr key={grant.id} data-testid="welcome-offer-row">
                <td>
                  <MemberLink memberId={grant.memberId} name={grant.memberName} />
                </td>
                <td data-label="Offer">{grant.wording}</td>
                <td data-label="Approved">{formats.date(grant.grantedAt)}</td>
                <td>
                  {grant.honouredAt ? (
                    <span className="g-muted">Honoured {formats.date(grant.honouredAt)}</span>
                  ) : (
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={`Mark ${grant.memberName}’s welcome offer honoured`}
                      busy={mark.isPending && mark.variables === grant.id}
                      onClick={() => mark.mutate(grant.id)}
                    >
                      Mark honoured
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
