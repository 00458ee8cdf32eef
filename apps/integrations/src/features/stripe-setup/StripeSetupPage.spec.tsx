import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schema } from '@grove/api-contract';
import { MESSAGES } from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { StripeSetupPage } from './StripeSetupPage';

type Status = Schema<'StripeMembersStatus'>;
type BillChanges = Schema<'StripeBillChanges'>;
type Run = Schema<'StripeMembersRun'>;

const disconnected: Status = {
  connected: false,
  keyLast4: null,
  livemode: false,
  discountOnReferralCents: null,
  discountForRefereeCents: 0,
  subscriptions: 0,
  discountedSubscriptions: 0,
  importedAt: null,
  lastSyncAt: null,
  lastSyncBillsWritten: null,
  webhookUrl: null,
  webhookConfigured: false,
  automaticSync: false,
  pendingBillsSince: null,
  run: null,
};
const connected: Status = {
  ...disconnected,
  connected: true,
  keyLast4: 'a1b2',
  discountOnReferralCents: 1_500,
  subscriptions: 2,
  webhookUrl:
    'https://grove.example.com/api/stripe-members/webhooks/Tk0xYzJkM2U0ZjVnNmg3aThqOWswbDE',
};
/** A run as the API reports it; `over` changes some fields. */
const run = (over: Partial<Run>): Run => ({
  kind: 'import',
  state: 'running',
  done: 0,
  total: null,
  listed: null,
  membersWritten: null,
  ended: null,
  billsWritten: null,
  error: null,
  startedAt: '2026-11-29T07:00:00.000Z',
  finishedAt: null,
  ...over,
});
const syncDone = run({ kind: 'sync', state: 'done', done: 1, total: 1, billsWritten: 1 });
const changes: BillChanges = {
  items: [
    {
      memberId: '00000000-0000-4000-8000-000000000001',
      name: 'Zoë O’Brien',
      currency: 'usd',
      currentCents: 6_500,
      newCents: 5_000,
      differenceCents: -1_500,
    },
  ],
  total: 1,
  page: 1,
  pageSize: 100,
  monthlyDifferenceCents: -1_500,
  fingerprint: 'f'.repeat(32),
};

/** The status the fake API answers, and what each write sent. */
function fakeApi(status: Status, previews: BillChanges[] = [changes]) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  const queue = [...previews];
  const body = async (request: Request) => {
    const text = await request.text();
    sent.push({
      method: request.method,
      path: new URL(request.url).pathname.slice('/api'.length),
      body: text ? JSON.parse(text) : undefined,
    });
  };
  server.use(
    http.get('/stripe-members', ({ response }) => response(200).json(status)),
    http.get('/stripe-members/sync/preview', ({ response }) =>
      response(200).json(queue.length > 1 ? (queue.shift() as BillChanges) : queue[0]),
    ),
    http.put('/stripe-members/credentials', async ({ request, response }) => {
      await body(request);
      return response(200).json(connected);
    }),
    http.delete('/stripe-members', async ({ request, response }) => {
      await body(request);
      return response(200).json({ discountsRemoved: 3, status: disconnected });
    }),
  );
  return sent;
}

describe('StripeSetupPage (issue 32: Stripe as the member billing)', () => {
  it('asks for a restricted key with the permissions Grove needs, refuses a secret key before sending it, and connects', async () => {
    const sent = fakeApi(disconnected);
    renderWithProviders(<StripeSetupPage />);
    const permissions = await screen.findByRole('list', { name: 'Permissions the key needs' });
    expect(
      within(permissions)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Customers: Write', 'Subscriptions: Write', 'Coupons: Write', 'Invoices: Read']);
    await userEvent.type(screen.getByLabelText('Restricted key'), 'sk_test_everything');
    await userEvent.click(screen.getByRole('button', { name: 'Connect Stripe' }));
    expect(await screen.findByText(MESSAGES.stripeInvalidKey)).toBeTruthy();
    expect(sent).toEqual([]);

    await userEvent.clear(screen.getByLabelText('Restricted key'));
    await userEvent.type(screen.getByLabelText('Restricted key'), 'rk_test_harbour_a1b2');
    await userEvent.click(screen.getByRole('button', { name: 'Connect Stripe' }));
    expect(await screen.findByText('Connected with the key ending in a1b2.')).toBeTruthy();
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: '/stripe-members/credentials',
        body: { apiKey: 'rk_test_harbour_a1b2' },
      },
    ]);
  });

  it("shows Stripe's refusal of a key", async () => {
    fakeApi(disconnected);
    server.use(
      http.put('/stripe-members/credentials', () =>
        apiError(400, MESSAGES.stripeKeyMissingPermissions),
      ),
    );
    renderWithProviders(<StripeSetupPage />);
    await userEvent.type(await screen.findByLabelText('Restricted key'), 'rk_test_narrow');
    await userEvent.click(screen.getByRole('button', { name: 'Connect Stripe' }));
    expect(await screen.findByText(MESSAGES.stripeKeyMissingPermissions)).toBeTruthy();
  });

  it('previews the bills that change in their currency and confirms exactly that preview', async () => {
    fakeApi(connected);
    const confirmed: unknown[] = [];
    server.use(
      http.post('/stripe-members/sync', async ({ request, response }) => {
        confirmed.push(await request.json());
        return response(202).json({ ...connected, run: syncDone });
      }),
    );
    renderWithProviders(<StripeSetupPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Review bill changes' }));
    const bills = await screen.findByRole('list', { name: 'Bills that change' });
    expect(bills.textContent).toContain('Zoë O’Brien');
    expect(bills.textContent).toContain('USD');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and write 1 bill' }));
    expect(await screen.findByText('1 bill written.')).toBeTruthy();
    expect(confirmed).toEqual([{ confirm: 'f'.repeat(32), automatic: false }]);
  });

  it("previews the referrers' one-off credits and writes exactly that preview (issue 33)", async () => {
    fakeApi(connected);
    const confirmed: unknown[] = [];
    let written = false;
    const credits = {
      items: [
        {
          rewardId: '00000000-0000-4000-8000-000000000009',
          referrerName: "Siobhán O'Brien",
          branchName: "Ben O'Connor",
          amountCents: 2_500,
          currency: 'AUD',
        },
      ],
      totalCents: 2_500,
      fingerprint: 'c'.repeat(32),
    };
    server.use(
      http.get('/stripe-members/credits/preview', ({ response }) =>
        response(200).json(
          written ? { items: [], totalCents: 0, fingerprint: 'd'.repeat(32) } : credits,
        ),
      ),
      http.post('/stripe-members/credits', async ({ request, response }) => {
        confirmed.push(await request.json());
        written = true;
        return response(200).json({ credited: 1 });
      }),
    );
    renderWithProviders(<StripeSetupPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Review referral credits' }));
    const list = await screen.findByRole('list', { name: 'Credits to write' });
    expect(list.textContent).toContain("Siobhán O'Brien, for Ben O'Connor");
    expect(list.textContent).toContain('$25.00');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and write 1 credit' }));
    expect(await screen.findByText('1 credit written to Stripe.')).toBeTruthy();
    expect(confirmed).toEqual([{ confirm: 'c'.repeat(32) }]);
    expect(
      await screen.findByText(
        'No referral credits to write: every credit owed is in Stripe or honoured.',
      ),
    ).toBeTruthy();
  });

  it('confirms with automatic sync when the owner ticks it, and says when Stripe changes wait for review', async () => {
    fakeApi({ ...connected, pendingBillsSince: '2026-11-29T07:00:00.000Z' });
    const confirmed: unknown[] = [];
    server.use(
      http.post('/stripe-members/sync', async ({ request, response }) => {
        confirmed.push(await request.json());
        return response(202).json({ ...connected, automaticSync: true, run: syncDone });
      }),
    );
    renderWithProviders(<StripeSetupPage />);
    expect(
      await screen.findByText(
        "Stripe reported changes that move members' bills: review them before they are written.",
      ),
    ).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Review bill changes' }));
    await userEvent.click(await screen.findByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and write 1 bill' }));
    expect(await screen.findByText('1 bill written.')).toBeTruthy();
    expect(confirmed).toEqual([{ confirm: 'f'.repeat(32), automatic: true }]);
  });

  it('shows the webhook URL, refuses what is not a signing secret before sending it, and saves one', async () => {
    fakeApi(connected);
    const saved: unknown[] = [];
    server.use(
      http.put('/stripe-members/webhook', async ({ request, response }) => {
        saved.push(await request.json());
        return response(200).json({ ...connected, webhookConfigured: true });
      }),
    );
    renderWithProviders(<StripeSetupPage />);
    expect((await screen.findByRole('status', { name: 'Webhook endpoint URL' })).textContent).toBe(
      connected.webhookUrl,
    );
    await userEvent.type(screen.getByLabelText('Signing secret'), 'rk_test_not_a_secret');
    await userEvent.click(screen.getByRole('button', { name: 'Save signing secret' }));
    expect(await screen.findByText(MESSAGES.stripeInvalidWebhookSecret)).toBeTruthy();
    expect(saved).toEqual([]);
    await userEvent.clear(screen.getByLabelText('Signing secret'));
    await userEvent.type(screen.getByLabelText('Signing secret'), 'whsec_harbour0fitness');
    await userEvent.click(screen.getByRole('button', { name: 'Save signing secret' }));
    expect(await screen.findByText('Signing secret saved.')).toBeTruthy();
    expect(saved).toEqual([{ signingSecret: 'whsec_harbour0fitness' }]);
  });

  it('imports in the background: shows the progress while the run goes on, polling every 3 seconds, then what it did', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    const statuses: Status[] = [
      { ...connected, run: run({ done: 200 }) },
      { ...connected, run: run({ state: 'done', done: 350, total: 350, listed: 350 }) },
    ];
    let current: Status = connected;
    let gets = 0;
    fakeApi(connected);
    server.use(
      http.get('/stripe-members', ({ response }) => {
        gets += 1;
        return response(200).json(current);
      }),
      http.post('/stripe-members/import', ({ response }) => {
        current = { ...connected, run: run({}) };
        return response(202).json(current);
      }),
    );
    try {
      renderWithProviders(<StripeSetupPage />);
      await userEvent.click(await screen.findByRole('button', { name: 'Import members' }));
      const bar = await screen.findByRole('progressbar', { name: 'Import progress' });
      // An import's total is unknown until Stripe's last page: no value, the bar is busy.
      expect(bar.getAttribute('aria-valuenow')).toBeNull();
      expect(screen.getByText('0 active subscriptions so far')).toBeTruthy();
      const before = gets;
      current = statuses[0] as Status;
      await act(() => jest.advanceTimersByTimeAsync(3_100));
      expect(await screen.findByText('200 active subscriptions so far')).toBeTruthy();
      expect(gets).toBe(before + 1);
      current = statuses[1] as Status;
      await act(() => jest.advanceTimersByTimeAsync(3_100));
      expect(await screen.findByText('350 active subscriptions imported.')).toBeTruthy();
      // Done: no more polling.
      const after = gets;
      await act(() => jest.advanceTimersByTimeAsync(9_000));
      expect(gets).toBe(after);
    } finally {
      jest.useRealTimers();
    }
  });

  it('says why an import failed and that nothing was lost', async () => {
    fakeApi({
      ...connected,
      run: run({ state: 'failed', done: 100, error: MESSAGES.stripeUnavailable }),
    });
    renderWithProviders(<StripeSetupPage />);
    expect(
      await screen.findByText(
        `Import did not finish: ${MESSAGES.stripeUnavailable}. Nothing was lost: run it again.`,
      ),
    ).toBeTruthy();
  });

  it('says when the reviewed bills went stale, and shows the new preview', async () => {
    const fresh: BillChanges = {
      ...changes,
      items: [{ ...changes.items[0], name: 'Amélie Dubois' }],
      fingerprint: 'a'.repeat(32),
    };
    fakeApi(connected, [changes, fresh]);
    server.use(
      http.post('/stripe-members/sync', () => apiError(409, MESSAGES.mindbodySyncPreviewStale)),
    );
    renderWithProviders(<StripeSetupPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Review bill changes' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm and write 1 bill' }));
    expect(await screen.findByText(MESSAGES.mindbodySyncPreviewStale)).toBeTruthy();
    expect(await screen.findByText('Amélie Dubois')).toBeTruthy();
  });

  it("removes Grove's discounts and reports the count", async () => {
    const sent = fakeApi(connected);
    renderWithProviders(<StripeSetupPage />);
    await userEvent.click(
      await screen.findByRole('button', { name: "Remove Grove's discounts and disconnect" }),
    );
    expect(
      await screen.findByText(
        "Disconnected: 3 discounts removed from your members' subscriptions.",
      ),
    ).toBeTruthy();
    expect(sent.map((call) => call.method)).toEqual(['DELETE']);
  });
});
