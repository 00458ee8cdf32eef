import { fetchFake, server } from '@grove/web-testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { MESSAGES, type MemberDefaults } from '@grove/contracts';
import { MemberDefaultsCard } from './MemberDefaultsCard';

const reply = (status: number, body?: unknown) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});

/** A fake API holding the business's defaults. */
let stored: MemberDefaults;
const puts: unknown[] = [];
const fetchMock = jest.fn();
beforeEach(() => {
  stored = { discountCents: null, membershipPriceCents: null };
  puts.length = 0;
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    if (url === '/api/getting-started') return reply(200, {});
    if (url !== '/api/settings/member-defaults') throw new Error(`unexpected ${url}`);
    if (init?.method === 'PUT') {
      stored = JSON.parse(String(init.body)) as MemberDefaults;
      puts.push(stored);
    }
    return reply(200, stored);
  });
  server.use(fetchFake(fetchMock));
});

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
        <MemberDefaultsCard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
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
