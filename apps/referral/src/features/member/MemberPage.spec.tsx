import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  MEMBER_PAGE_MESSAGES,
  MESSAGES,
  type MemberPage as MemberPageData,
} from '@grove/contracts';
import { MemberPage } from './MemberPage';

const reply = (status: number, body?: unknown) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});

const ana: MemberPageData = {
  businessName: 'Peak Fitness',
  memberFirstName: 'Ana',
  referralUrl: 'https://grove.example.com/referral/abc',
  referralQrSvg:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0 0h1v1H0z"/></svg>',
  membershipPriceCents: 10_000,
  priceNowCents: 8_500,
  discountPerBranchCents: 1_500,
  managedBy: null,
  savedSoFarCents: 493,
  branches: [
    { firstName: 'Ben', status: 'counting', since: '2026-11-01T00:00:00.000Z' },
    { firstName: 'Cleo', status: 'pending', since: '2026-11-02T00:00:00.000Z' },
  ],
  projections: [{ friends: 1, priceCents: 7_000 }],
  ledger: [
    {
      occurredAt: '2026-11-01T00:00:00.000Z',
      reason: 'branch_added',
      oldPriceCents: 10_000,
      newPriceCents: 8_500,
      membershipPriceCents: 10_000,
    },
  ],
};

/** A fake member API: tokens in `goodTokens` sign in once; `/me` answers once signed in. */
let goodTokens: Set<string>;
let signedIn: boolean;
const fetchMock = jest.fn();
beforeEach(() => {
  goodTokens = new Set(['good-token']);
  signedIn = false;
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    if (url === '/api/member/session') {
      const { token } = JSON.parse(String(init?.body)) as { token: string };
      if (!goodTokens.delete(token))
        return reply(401, { statusCode: 401, message: MEMBER_PAGE_MESSAGES.linkExpired });
      signedIn = true;
      return reply(204);
    }
    if (url === '/api/member/me')
      return signedIn
        ? reply(200, ana)
        : reply(401, { statusCode: 401, message: MEMBER_PAGE_MESSAGES.sessionEnded });
    if (url === '/api/member/magic-link')
      return reply(202, { message: MEMBER_PAGE_MESSAGES.linkRequested });
    throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
  });
  global.fetch = fetchMock as unknown as typeof fetch;
});

function renderAt(path: string) {
  window.history.pushState({}, '', path);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemberPage />
    </QueryClientProvider>,
  );
}

describe('MemberPage', () => {
  it('uses the magic link once, cleans the address and shows the link, price and friends', async () => {
    renderAt('/member#token=good-token');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/member');
    expect(await screen.findByRole('heading', { name: 'Hi Ana' })).toBeTruthy();
    expect(screen.getByTestId('referral-url').textContent).toBe(ana.referralUrl);
    // The QR code comes with the page's reply: no request of its own.
    expect(screen.getByAltText('QR code of your referral link').getAttribute('src')).toBe(
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(ana.referralQrSvg ?? '')}`,
    );
    expect(screen.getByTestId('price-now').textContent).toBe('$85.00 a month');
    expect(screen.getByTestId('saved').textContent).toBe('$4.93');
    expect(screen.getByText(/1 more friend/).textContent).toBe('1 more friend → $70.00');
    expect(screen.getByText('Pending')).toBeTruthy();
    expect(screen.getByText('$100.00 → $85.00')).toBeTruthy();
    // jsdom has no Web Share API: the page offers text and email links instead.
    expect(screen.getByRole('link', { name: 'Text it' }).getAttribute('href')).toContain(
      encodeURIComponent(ana.referralUrl ?? ''),
    );
    const signIns = fetchMock.mock.calls.filter(([url]) => url === '/api/member/session');
    expect(signIns).toHaveLength(1);
  });

  it('tells a used link apart and sends a new one to a valid email', async () => {
    renderAt('/member#token=used-token');
    expect(await screen.findByText(MEMBER_PAGE_MESSAGES.linkExpired)).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Your email'), 'not an email');
    await user.click(screen.getByRole('button', { name: 'Send me a new link' }));
    expect(await screen.findByText(MESSAGES.invalidEmail)).toBeTruthy();
    await user.clear(screen.getByLabelText('Your email'));
    await user.type(screen.getByLabelText('Your email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a new link' }));
    expect(await screen.findByText(MEMBER_PAGE_MESSAGES.linkRequested)).toBeTruthy();
  });

  it('without a link or session, explains and offers the form', async () => {
    renderAt('/member');
    expect(await screen.findByText(MEMBER_PAGE_MESSAGES.sessionEnded)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send me a new link' })).toBeTruthy();
  });
});
