import { useLocaleFormats, useRoleMay } from '@grove/web-data-access';
import { Alert, Button, Card } from '@grove/web-ui';
import { MemberLink } from '../member-link/MemberLink';

/** One thing promised to a member, for the owner to give by hand and mark honoured. */
export interface ToHonourItem {
  id: string;
  /** Who is owed it. */
  memberId: string;
  memberName: string;
  /** The friend it is for, when the list names one (a referrer's reward). */
  friend?: { id: string; name: string };
  /** What was promised, worded ('$20 off your first 3 months', 'A $25 credit'). */
  wording: string;
  /** When it was promised (ISO 8601). */
  since: string;
  /** When it was marked honoured (ISO 8601), or null. */
  honouredAt: string | null;
  /** Why nothing is owed (a reward past the cap), shown instead of 'Mark honoured'. */
  nothingOwed?: string;
  /** Where it stands in the gym's billing ('Waiting for their Stripe subscription'), under it. */
  note?: string;
  /** What 'Honoured <date>' says instead, when the billing applied it ('Applied in Stripe'). */
  honouredLabel?: string;
}

/** What a to-honour list says; each list (welcome offers, referrers' rewards) has its own words. */
export interface ToHonourTexts {
  title: string;
  /** The lead line while `open` promises wait (open ≥ 1). */
  lead: (open: number) => string;
  /** The lead line once every promise is honoured. */
  allHonoured: string;
  /** The column of what was promised ('Offer', 'Reward'). */
  what: string;
  /** The column of when it was promised ('Approved', 'Counted'). */
  since: string;
  /** The accessible name of an item's 'Mark honoured' button. */
  markLabel: (item: ToHonourItem) => string;
  /** The row's test id. */
  rowTestId: string;
}

/**
 * A list of promises to honour by hand (docs/product.md#welcome-offer 'Welcome offers to honour',
 * docs/product.md#referrer-reward 'Rewards to honour'): the member (and the friend, when given),
 * what was promised and since when, and 'Mark honoured' (for a role that writes:
 * docs/product.md#staff-accounts) or when it was honoured. Open ones first, as the API orders
 * them. Renders nothing while the list is loading or empty; the load error otherwise.
 */
export function ToHonourCard({
  texts,
  items,
  error,
  mark,
}: {
  texts: ToHonourTexts;
  items: ToHonourItem[] | undefined;
  error: Error | null;
  mark: {
    mutate: (id: string) => void;
    isPending: boolean;
    variables: string | undefined;
    error: Error | null;
  };
}) {
  const formats = useLocaleFormats();
  const mayWrite = useRoleMay('write');

  if (error) return <Alert>{error.message}</Alert>;
  if (!items || items.length === 0) return null;
  const open = items.filter((item) => item.honouredAt === null && !item.nothingOwed).length;
  const withFriend = items.some((item) => item.friend);

  return (
    <Card className="dash-flags">
      <h2 className="dash-flags__title">{texts.title}</h2>
      <p className="g-muted dash-flags__lead">
        {open === 0 ? texts.allHonoured : texts.lead(open)}
      </p>
      {mark.error && <Alert>{mark.error.message}</Alert>}
      <div className="g-table-wrap">
        <table className="g-table g-table--stack">
          <caption className="g-visually-hidden">{texts.title}</caption>
          <thead>
            <tr>
              <th scope="col">Member</th>
              {withFriend && <th scope="col">Friend</th>}
              <th scope="col">{texts.what}</th>
              <th scope="col">{texts.since}</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} data-testid={texts.rowTestId}>
                <td>
                  <MemberLink memberId={item.memberId} name={item.memberName} />
                </td>
                {withFriend && (
                  <td data-label="Friend">
                    {item.friend && (
                      <MemberLink memberId={item.friend.id} name={item.friend.name} />
                    )}
                  </td>
                )}
                <td data-label={texts.what}>
                  {item.wording}
                  {item.note && <div className="g-muted">{item.note}</div>}
                </td>
                <td data-label={texts.since}>{formats.date(item.since)}</td>
                <td>
                  {item.nothingOwed ? (
                    <span className="g-muted">{item.nothingOwed}</span>
                  ) : item.honouredAt ? (
                    <span className="g-muted">
                      {item.honouredLabel ?? 'Honoured'} {formats.date(item.honouredAt)}
                    </span>
                  ) : (
                    mayWrite && (
                      <Button
                        size="sm"
                        variant="secondary"
                        aria-label={texts.markLabel(item)}
                        busy={mark.isPending && mark.variables === item.id}
                        onClick={() => mark.mutate(item.id)}
                      >
                        Mark honoured
                      </Button>
                    )
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
