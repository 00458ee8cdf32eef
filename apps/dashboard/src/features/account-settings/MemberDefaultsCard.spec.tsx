import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@grove/contracts';
import type { Schema } from '@grove/api-contract';
import { http, renderWithProviders, server } from '@grove/web-testing';
import { MemberDefaultsCard } from './MemberDefaultsCard';

/** A fake API holding the business's defaults. */
let stored: Schema<'MemberDefaults'>;
const puts: unknown[] = [];
beforeEach(() => {
  stored = { discountCents: null, membershipPriceCents: null };
  puts.length = 0;
  server.use(
    http.get('/getting-started', ({ response }) =>
      response(200).json({
        dismissed: false,
        steps: { discount: false, links: false, members: false, billing: false },
      }),
    ),
    http.get('/settings/member-defaults', ({ response }) => response(200).json(stored)),
    http.put('/settings/member-defaults', async ({ request, response }) => {
      stored = (await request.json()) as Schema<'MemberDefaults'>;
      puts.push(stored);
      return response(200).json(stored);
    }),
  );
});

function renderCard() {
  renderWithProviders(<MemberDefaultsCard />);
}

describe('MemberDefaultsCard (docs/product.md#member-defaults)', () => {
  it('shows the saved defaults in dollars and saves what the owner types as cents', async () => {
    stored = { discountCents: 1000, membershipPriceCents: null };
    const user = userEvent.setup();
    renderCard();
    const discount = (await screen.findByLabelText(
      'Discount Per Referral ($)',
    )) as HTMLInputElement;
    await waitFor(() => expect(discount.value).toBe('10.00'));
    const price = screen.getByLabelText('Membership price ($)') as HTMLInputElement;
    expect(price.value).toBe('');

    await user.clear(discount);
    await user.type(discount, '15');
    await user.type(price, '89');
    await user.click(screen.getByRole('button', { name: 'Save defaults' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(puts).toEqual([{ discountCents: 1500, membershipPriceCents: 8900 }]);
    await waitFor(() => expect(discount.value).toBe('15.00'));
  });

  it('refuses amounts the add-member form refuses, with its messages, and saves nothing', async () => {
    const user = userEvent.setup();
    renderCard();
    await user.type(await screen.findByLabelText('Discount Per Referral ($)'), '15.001');
    await user.type(screen.getByLabelText('Membership price ($)'), '$89');
    await user.click(screen.getByRole('button', { name: 'Save defaults' }));
    expect(await screen.findByText(MESSAGES.invalidDiscount)).toBeTruthy();
    expect(screen.getByText(MESSAGES.invalidAmount)).toBeTruthy();
    expect(puts).toEqual([]);
  });
});
