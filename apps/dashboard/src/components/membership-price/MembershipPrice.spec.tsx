import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { Schema } from '@grove/api-contract';
import { businessLocale } from '@grove/contracts';
import { sessionKey } from '@grove/web-data-access';
import { MESSAGES } from '@grove/contracts';
import {
  apiError,
  createTestQueryClient,
  http,
  renderWithProviders,
  server,
} from '@grove/web-testing';
import { MembershipPrice, isPricePending } from './MembershipPrice';

/** Renders inside a query client whose session is a business of `country` (Australia by default). */
function render(element: ReactElement, country = 'AU') {
  const client = createTestQueryClient();
  const session: Schema<'SessionUser'> = {
    id: 'u1',
    email: 'siobhan@harbour.example',
    firstName: 'Siobhán',
    lastName: "O'Brien",
    username: "Siobhán O'Brien",
    role: 'owner',
    business: { id: 'b1', name: 'Harbour Yoga', country, ...businessLocale(country) },
  };
  client.setQueryData(sessionKey, session);
  return renderWithProviders(element, { client });
}

const row = (overrides: Partial<Schema<'MemberRow'>> = {}): Schema<'MemberRow'> => ({
  id: 'm1',
  memberName: 'Alex Smith',
  memberEmail: 'alex@example.com',
  membershipPriceCents: 8_900,
  discountCents: 1_000,
  branches: 0,
  branchDetails: [],
  newPriceCents: 8_900,
  status: 'Active',
  managedByIntegration: 'Mindbody',
  referringMemberId: null,
  ...overrides,
});

describe('MembershipPrice (Branches table, Membership column)', () => {
  it("says 'Capped' under a price the business's reward cap stopped, and nothing otherwise", () => {
    const capped = row({
      managedByIntegration: null,
      branches: 4,
      membershipPriceCents: 10_000,
      newPriceCents: 6_000,
      rewardCapped: true,
    });
    const { unmount } = render(<MembershipPrice row={capped} />);
    expect(screen.getByText('$60.00')).toBeTruthy();
    expect(screen.getByText('Capped').getAttribute('title')).toBe(
      'More friends do not lower this price',
    );
    unmount();
    render(<MembershipPrice row={{ ...capped, rewardCapped: undefined }} />);
    expect(screen.queryByText('Capped')).toBeNull();
  });

  it('shows "Pricing…" with an accessible explanation, not $0.00, while Mindbody has not priced the member', () => {
    const pending = row({
      membershipPriceCents: 0,
      newPriceCents: 0,
      membershipPricePending: true,
    });
    render(<MembershipPrice row={pending} />);
    expect(screen.getByText(/Pricing…/).getAttribute('title')).toBe('Waiting for Mindbody');
    expect(screen.getByText(/waiting for Mindbody to send this member's price/).className).toBe(
      'g-visually-hidden',
    );
    expect(screen.queryByText(/\$0\.00/)).toBeNull();
    expect(isPricePending(pending)).toBe(true);
  });

  it('shows "No autopay" with an explanation, not $0.00, for a Mindbody member without an autopay contract', () => {
    const none = row({ membershipPriceCents: 0, newPriceCents: 0, noAutopayContract: true });
    render(<MembershipPrice row={none} />);
    expect(screen.getByText(/No autopay/).getAttribute('title')).toBe(
      'No autopay contract in Mindbody',
    );
    expect(
      screen.getByText(/no autopay contract in Mindbody, so there is no bill to discount/)
        .className,
    ).toBe('g-visually-hidden');
    expect(screen.queryByText(/\$0\.00/)).toBeNull();
    expect(isPricePending(none)).toBe(false);
  });

  it('shows "Ended", not a price, once a Mindbody membership has ended', () => {
    render(<MembershipPrice row={row({ membershipEnded: true })} />);
    expect(screen.getByText(/Ended/).getAttribute('title')).toBe('Membership ended in Mindbody');
    expect(screen.queryByText(/\$89\.00/)).toBeNull();
  });

  it("writes a Stripe-billed member's price in their subscription's currency, not the business's (issue 32)", () => {
    const { container } = render(
      <MembershipPrice
        row={row({
          managedByIntegration: 'Stripe',
          currency: 'EUR',
          membershipPriceCents: 6_000,
          newPriceCents: 6_000,
        })}
      />,
    );
    // An Australian business writes euros the way its locale does.
    expect(container.textContent).toMatch(/^EUR\s60\.00$/);
  });

  it('shows what Mindbody will actually charge next (tax and add-ons included) under the membership price', () => {
    const { container } = render(
      <MembershipPrice
        row={row({ mindbodyNextCharge: { amountCents: 10_890, on: '2026-12-01T00:00:00.000Z' } })}
      />,
    );
    expect(container.textContent).toBe('$89.00Mindbody will charge $108.90 on 1 Dec 2026');
  });

  it("writes money and the charge day the business's way: a US business, a UK business (issue 25)", () => {
    const charge = { mindbodyNextCharge: { amountCents: 10_890, on: '2026-12-01T00:00:00.000Z' } };
    const us = render(<MembershipPrice row={row(charge)} />, 'US');
    expect(us.container.textContent).toBe('$89.00Mindbody will charge $108.90 on Dec 1, 2026');
    us.unmount();
    const gb = render(<MembershipPrice row={row(charge)} />, 'GB');
    expect(gb.container.textContent).toBe('£89.00Mindbody will charge £108.90 on 1 Dec 2026');
  });

  it('shows the price once it is known', () => {
    const { container } = render(<MembershipPrice row={row()} />);
    expect(container.textContent).toBe('$89.00');
    expect(screen.queryByText(/Pricing/)).toBeNull();
  });

  it('shows the new price with the old one struck through for a discounted hand-managed tree', () => {
    const { container } = render(
      <MembershipPrice row={row({ managedByIntegration: null, newPriceCents: 7_900 })} />,
    );
    expect(container.textContent).toBe('$79.00was $89.00');
    expect(screen.getByText('was $89.00').className).toBe('dash-was');
  });

  it("shows what Stripe will charge next under the price of a member billed on the business's Stripe (issue 32)", async () => {
    const asked: string[] = [];
    server.use(
      http.get('/stripe-members/members/{id}/next-charge', ({ params, response }) => {
        asked.push(String(params.id));
        return params.id === 'm1'
          ? response(200).json({ amountCents: 5_000, currency: 'eur', at: '2026-12-29T09:00:00Z' })
          : apiError(404, MESSAGES.stripeNoSubscription);
      }),
    );
    const stripeRow = row({ managedByIntegration: null, stripeBilling: 'running' });
    const { container } = render(<MembershipPrice row={stripeRow} />);
    expect(await screen.findByText('Stripe will charge EUR 50.00 on 29 Dec 2026')).toBeTruthy();
    expect(container.textContent).toMatch(/^\$89\.00Stripe will charge/);
    // A member not billed on Stripe asks Stripe nothing.
    render(<MembershipPrice row={row({ id: 'm2', managedByIntegration: null })} />);
    expect(asked).toEqual(['m1']);
  });

  it('shows "Ended", not a price, once the Stripe subscription has ended', () => {
    render(<MembershipPrice row={row({ managedByIntegration: null, stripeBilling: 'ended' })} />);
    expect(screen.getByText(/Ended/).getAttribute('title')).toBe('Subscription ended in Stripe');
    expect(screen.queryByText(/\$89\.00/)).toBeNull();
  });
});
