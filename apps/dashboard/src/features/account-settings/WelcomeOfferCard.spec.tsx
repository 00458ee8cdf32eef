import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NO_WELCOME_OFFER, WELCOME_OFFER_MESSAGES, type WelcomeOffer } from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { WelcomeOfferCard } from './WelcomeOfferCard';

/** A fake API holding the business's welcome offer. */
let stored: WelcomeOffer;
const puts: unknown[] = [];
let refuse = false;
beforeEach(() => {
  stored = NO_WELCOME_OFFER;
  puts.length = 0;
  refuse = false;
  server.use(
    http.get('/settings/welcome-offer', ({ response }) => response(200).json(stored)),
    http.put('/settings/welcome-offer', async ({ request, response }) => {
      const body = (await request.json()) as WelcomeOffer;
      puts.push(body);
      if (refuse)
        return apiError(400, WELCOME_OFFER_MESSAGES.months, {
          months: WELCOME_OFFER_MESSAGES.months,
        });
      stored = body;
      return response(200).json(stored);
    }),
  );
});

const preview = () => screen.getByTestId('welcome-offer-preview').textContent;

describe('WelcomeOfferCard (docs/product.md#welcome-offer)', () => {
  it('previews the wording as the owner chooses and types, and saves the offer in cents', async () => {
    const user = userEvent.setup();
    renderWithProviders(<WelcomeOfferCard />);
    const kind = (await screen.findByLabelText('Offer')) as HTMLSelectElement;
    expect(kind.value).toBe('none');
    expect(preview()).toContain('No welcome offer');

    await user.selectOptions(kind, 'amount');
    await user.type(screen.getByLabelText('Amount off each month'), '20');
    const months = screen.getByLabelText('For the first … months');
    await user.clear(months);
    await user.type(months, '3');
    expect(preview()).toBe('$20 off your first 3 months');

    await user.click(screen.getByRole('button', { name: 'Save offer' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(puts).toEqual([
      { kind: 'amount', amountCents: 2000, percent: null, months: 3, text: null },
    ]);

    await user.selectOptions(kind, 'free');
    await user.clear(months);
    await user.type(months, '1');
    expect(preview()).toBe('Your first month free');
    await user.selectOptions(kind, 'text');
    await user.type(screen.getByLabelText('The offer'), "a free class with Siobhán O'Brien");
    expect(preview()).toBe("A free class with Siobhán O'Brien");
  });

  it('refuses a broken rule before sending, and shows the API’s refusal under its field', async () => {
    const user = userEvent.setup();
    renderWithProviders(<WelcomeOfferCard />);
    const kind = (await screen.findByLabelText('Offer')) as HTMLSelectElement;
    await user.selectOptions(kind, 'percent');
    await user.type(screen.getByLabelText('Percentage off each month'), '150');
    await user.click(screen.getByRole('button', { name: 'Save offer' }));
    expect(await screen.findByText(WELCOME_OFFER_MESSAGES.percent)).toBeTruthy();
    expect(puts).toEqual([]);

    refuse = true;
    const percent = screen.getByLabelText('Percentage off each month');
    await user.clear(percent);
    await user.type(percent, '50');
    expect(preview()).toBe('50% off your first month');
    await user.click(screen.getByRole('button', { name: 'Save offer' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect((await screen.findAllByText(WELCOME_OFFER_MESSAGES.months)).length).toBeGreaterThan(0);
    expect(screen.queryByText('Saved')).toBeNull();
  });
});
