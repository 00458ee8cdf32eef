import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schema } from '@grove/api-contract';
import { hrefs } from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { BillingCard } from './BillingCard';
import { BillingBanner } from './BillingBanner';

type Summary = Schema<'BillingSummary'>;

const summary = (over: Partial<Summary> = {}): Summary => ({
  enabled: true,
  state: 'free',
  membersThroughGrove: 1,
  freeMembers: 2,
  priceCents: 9_900,
  currency: 'USD',
  graceEndsAt: null,
  paused: false,
  nextChargeAt: null,
  nextChargeCents: null,
  cancelAtPeriodEnd: false,
  canManage: false,
  invoices: [],
  ...over,
});

const answer = (body: Summary) =>
  server.use(http.get('/billing', ({ response }) => response(200).json(body)));

describe('Billing (docs/product.md#billing)', () => {
  it('counts the free members while Grove is free, with no card asked for and no banner', async () => {
    answer(summary());
    renderWithProviders(
      <>
        <BillingBanner />
        <BillingCard />
      </>,
    );
    expect(await screen.findByText('1 of 2 members through Grove')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: '1 of 2 members through Grove' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a card' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("asks for a card by the grace period's end, and says why when Stripe cannot be reached", async () => {
    answer(
      summary({
        state: 'card-needed',
        membersThroughGrove: 2,
        graceEndsAt: '2026-12-12T10:00:00Z',
      }),
    );
    server.use(
      http.post('/billing/checkout', () =>
        apiError(503, 'Billing is not available right now. Please try again in a few minutes.'),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <BillingBanner />
        <BillingCard />
      </>,
    );
    expect(await screen.findByText('2 of 2 members through Grove')).toBeTruthy();
    expect(screen.getAllByText(/12 Dec 2026/).length).toBe(2);
    expect(screen.getByRole('link', { name: 'Add a card' }).getAttribute('href')).toBe(
      hrefs.billing,
    );
    await user.click(screen.getByRole('button', { name: 'Add a card' }));
    expect(
      await screen.findByText(
        'Billing is not available right now. Please try again in a few minutes.',
      ),
    ).toBeTruthy();
  });

  it('shows the plan, the next charge, the invoices and Manage billing once paid', async () => {
    answer(
      summary({
        state: 'active',
        membersThroughGrove: 5,
        nextChargeAt: '2027-01-05T09:00:00Z',
        nextChargeCents: 9_900,
        canManage: true,
        invoices: [
          {
            id: 'in_1',
            number: 'GRV-0001',
            createdAt: '2026-12-05T09:00:00Z',
            amountCents: 9_900,
            currency: 'USD',
            status: 'paid',
            url: 'https://invoice.stripe.com/i/1',
          },
        ],
      }),
    );
    renderWithProviders(<BillingCard />);
    expect(await screen.findByText('Active')).toBeTruthy();
    expect(screen.getByText('$99.00 on 5 Jan 2027')).toBeTruthy();
    expect(screen.getByRole('link', { name: '5 Dec 2026' }).getAttribute('href')).toBe(
      'https://invoice.stripe.com/i/1',
    );
    expect(screen.getByText('Paid')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Manage billing' })).toBeTruthy();
  });

  it('a failed payment: a banner on every page and Update your card; paused once the grace period is over', async () => {
    answer(
      summary({
        state: 'past-due',
        graceEndsAt: '2026-12-20T00:00:00Z',
        canManage: true,
        nextChargeAt: '2026-12-05T00:00:00Z',
        nextChargeCents: 9_900,
      }),
    );
    const { unmount } = renderWithProviders(<BillingBanner />);
    expect(
      await screen.findByText(/Your last Grove payment failed\. Update your card by 20 Dec 2026/),
    ).toBeTruthy();
    unmount();
    answer(
      summary({
        state: 'past-due',
        graceEndsAt: '2026-12-20T00:00:00Z',
        paused: true,
        canManage: true,
      }),
    );
    renderWithProviders(<BillingBanner />);
    expect(await screen.findByText(/Grove is paused until your subscription is paid/)).toBeTruthy();
  });

  it('shows nothing at all with GROVE_BILLING=off', async () => {
    answer(summary({ enabled: false, state: 'card-needed', membersThroughGrove: 9 }));
    const { container } = renderWithProviders(
      <>
        <BillingBanner />
        <BillingCard />
      </>,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Billing')).toBeNull();
    expect(container.textContent).toBe('');
  });
});
