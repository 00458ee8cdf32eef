import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schema } from '@grove/api-contract';
import { HttpResponse, apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { MindbodySetupPage } from './MindbodySetupPage';

type MindbodyStatus = Schema<'MindbodyStatus'>;
type MindbodyBillChanges = Schema<'MindbodyBillChanges'>;

const base: MindbodyStatus = {
  stage: 1,
  siteId: null,
  discounts: null,
  processState: null,
  progress: null,
  lastSyncAt: null,
  invalidEmails: null,
};

/** A request the fake API saw: its method, its path and query relative to the API's root, its JSON body. */
interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** What a write answers: a status (200 unless given) or the API's error reply. */
type WriteReply = HttpResponse<MindbodyStatus> | HttpResponse<Schema<'ApiErrorBody'>>;

/** A status reply with an HTTP status (default 200). */
const statusReply = (status: MindbodyStatus, code = 200) =>
  HttpResponse.json<MindbodyStatus>(status, { status: code });

/** A reply of the site's activation check. */
const activationReply = (activation: Schema<'MindbodySiteActivation'>) =>
  HttpResponse.json<Schema<'MindbodySiteActivation'>>(activation);

/** The request's path and query, relative to the API's root (as the client names them). */
function relativeUrl(request: Request): string {
  const url = new URL(request.url);
  return url.pathname.slice('/api'.length) + url.search;
}

/** Records a request with its JSON body (undefined when it has none). */
async function record(calls: Call[], request: Request): Promise<Call> {
  const text = await request.text();
  const call = {
    method: request.method,
    url: relativeUrl(request),
    body: text ? JSON.parse(text) : undefined,
  };
  calls.push(call);
  return call;
}

/** A preview of no bill changes (issue 25). */
const NO_CHANGES: MindbodyBillChanges = {
  items: [],
  total: 0,
  page: 1,
  pageSize: 100,
  monthlyDifferenceCents: 0,
  fingerprint: '0'.repeat(32),
  unreadContracts: 0,
  waitingFriends: 0,
};

/**
 * A fake API: the status (`GET /mindbody`) answers the next queued status (the last one
 * repeats); the previews answer the next of `previews.sync` / `previews.removal` (the last
 * repeats); writes (credentials, import, discounts, sync, remove) answer `onWrite`.
 * @returns every request the wizard sent, in order
 */
function fakeApi(
  statuses: MindbodyStatus[],
  onWrite: (call: Call) => WriteReply = () => statusReply(statuses.at(-1) as MindbodyStatus),
  previews: { sync?: MindbodyBillChanges[]; removal?: MindbodyBillChanges[] } = {},
) {
  const syncPreviews = [...(previews.sync ?? [NO_CHANGES])];
  const removalPreviews = [...(previews.removal ?? [NO_CHANGES])];
  const next = <T,>(queue: T[]): T => (queue.length > 1 ? (queue.shift() as T) : queue[0]);
  const calls: Call[] = [];
  const queue = [...statuses];
  const write = async ({ request }: { request: Request }) => onWrite(await record(calls, request));
  server.use(
    http.get('/mindbody', async ({ request, response }) => {
      await record(calls, request);
      return response(200).json(next(queue));
    }),
    http.get('/mindbody/sync/preview', async ({ request, response }) => {
      await record(calls, request);
      return response(200).json(next(syncPreviews));
    }),
    http.get('/mindbody/removal/preview', async ({ request, response }) => {
      await record(calls, request);
      return response(200).json(next(removalPreviews));
    }),
    http.post('/mindbody/credentials', write),
    http.post('/mindbody/import', write),
    http.put('/mindbody/discounts', write),
    http.post('/mindbody/sync', write),
    http.delete('/mindbody', write),
    http.get('/mindbody/referral-types', ({ response }) =>
      response(200).json({ referralTypes: ['Friend', 'Walk-in'], selected: null }),
    ),
  );
  return calls;
}

/**
 * Answers the site's activation check (`GET /mindbody/activation?siteId=`) with `reply(url)`, the
 * url relative to the API's root.
 */
function routeActivation(reply: (url: string) => HttpResponse<Schema<'MindbodySiteActivation'>>) {
  server.use(http.get('/mindbody/activation', ({ request }) => reply(relativeUrl(request))));
}

function renderPage() {
  return renderWithProviders(<MindbodySetupPage />);
}

afterEach(() => {
  jest.useRealTimers();
});

describe('MindbodySetupPage (docs/product.md#mindbody-setup Mindbody setup, docs/product.md#mindbody-stages stages)', () => {
  it('stage 1 asks for the site ID first; an activated site goes on to the staff login, which asks for both fields and shows a refusal', async () => {
    const calls = fakeApi([base], () => apiError(400, 'Invalid credentials provided'));
    const activation = jest.fn((_url: string) =>
      activationReply({
        siteId: '-99',
        activated: true,
        activationCode: null,
        activationLink: null,
      }),
    );
    routeActivation(activation);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByText('Enter your Mindbody site number, e.g. -99 for the sandbox'),
    ).toBeTruthy();
    expect(activation).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText('Site ID'), '-99');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));

    await userEvent.click(await screen.findByRole('button', { name: 'Connect Mindbody' }));
    expect(await screen.findAllByText('Invalid credentials provided')).toHaveLength(2);
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Username'), 'owner@sandbox.example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Connect Mindbody' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid credentials provided');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: '/mindbody/credentials',
        body: { username: 'owner@sandbox.example.com', password: 'wrong', siteId: '-99' },
      },
    ]);
    expect(activation).toHaveBeenCalledWith('/mindbody/activation?siteId=-99');
    expect(screen.queryByRole('button', { name: 'Remove integration' })).toBeNull();
  });

  it('a site that has not activated Grove shows the activation link and code; Check again moves on once the site answers', async () => {
    fakeApi([base]);
    const pending = {
      siteId: '-98',
      activated: false,
      activationCode: 'AB12CD34',
      activationLink: 'https://mindbody.example/activate?code=AB12CD34',
    };
    const answers = [
      pending,
      pending,
      { ...pending, activated: true, activationCode: null, activationLink: null },
    ];
    routeActivation(() => activationReply(answers.shift() as (typeof answers)[number]));
    renderPage();
    await userEvent.type(await screen.findByLabelText('Site ID'), '-98');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(
      await screen.findByRole('heading', { name: 'Give Grove access to site -98' }),
    ).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Open the activation link' });
    expect(link.getAttribute('href')).toBe(pending.activationLink);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getByText('AB12CD34')).toBeTruthy();
    expect(
      screen.getByText(
        /Open this link while signed in to Mindbody as the site owner, then come back/,
      ),
    ).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Site -98 has not activated Grove yet.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByLabelText('Password')).toBeTruthy();
    expect(screen.getByText(/Site -98/)).toBeTruthy();
  });

  it("stage 1 shows the API's 429 with the wait when too many credential checks were tried", async () => {
    fakeApi([base], () => apiError(429, 'Too many attempts. Try again in 12 minutes.'));
    routeActivation(() =>
      activationReply({
        siteId: '-99',
        activated: true,
        activationCode: null,
        activationLink: null,
      }),
    );
    renderPage();
    await userEvent.type(await screen.findByLabelText('Site ID'), '-99');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.type(await screen.findByLabelText('Username'), 'owner@sandbox.example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'guess');
    await userEvent.click(screen.getByRole('button', { name: 'Connect Mindbody' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Try again in 12 minutes.',
    );
    expect(screen.getByRole('heading', { name: 'Connect your Mindbody account' })).toBeTruthy();
  });

  it('while the import runs it says so, shows the progress and polls every 10 seconds until it ends', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    const running: MindbodyStatus = {
      ...base,
      stage: 2,
      siteId: '-99',
      processState: 'running',
      progress: { done: 400, total: 2_500 },
    };
    const calls = fakeApi([
      running,
      { ...running, progress: { done: 1_800, total: 2_500 } },
      {
        ...running,
        stage: 3,
        processState: 'completed 2026-11-21T09:30:00.000Z',
        progress: { done: 2_500, total: 2_500 },
      },
    ]);
    renderPage();
    expect(await screen.findByText('Still working on it, thanks for your patience')).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Import progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('400');
    expect(bar.getAttribute('aria-valuemax')).toBe('2500');
    const gets = () => calls.filter((call) => call.method === 'GET').length;
    expect(gets()).toBe(1);
    await act(() => jest.advanceTimersByTimeAsync(9_000));
    expect(gets()).toBe(1);
    await act(() => jest.advanceTimersByTimeAsync(1_100));
    await waitFor(() =>
      expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('1800'),
    );
    await act(() => jest.advanceTimersByTimeAsync(10_100));
    expect(
      await screen.findByRole('heading', { name: 'Set your referral discounts' }),
    ).toBeTruthy();
    const settled = gets();
    await act(() => jest.advanceTimersByTimeAsync(30_000));
    expect(gets()).toBe(settled);
  });

  it("the import's summary counts the clients whose email Grove cannot send to (issue 24)", async () => {
    fakeApi([
      {
        ...base,
        stage: 3,
        siteId: '-99',
        processState: 'completed 2026-11-21T09:30:00.000Z',
        progress: { done: 2_500, total: 2_500 },
        invalidEmails: 2,
      },
    ]);
    renderPage();
    expect(await screen.findByText(/Members imported: 2,500 clients read\./)).toBeTruthy();
    expect(
      screen.getByText(
        "2 clients have an email address in Mindbody that Grove cannot send to: they show 'No email' and get no emails until it is corrected in Mindbody.",
      ),
    ).toBeTruthy();
  });

  it('a failed import shows "Failed at:" with the time, suggests support, and can run again', async () => {
    const failed: MindbodyStatus = {
      ...base,
      stage: 2,
      siteId: '-99',
      processState: 'failed 2026-11-21T09:30:00.000Z',
      progress: { done: 600, total: 2_500 },
    };
    const calls = fakeApi([failed], () => statusReply({ ...failed, processState: 'running' }, 202));
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/Failed at: 21 Nov 2026/);
    expect(alert.textContent).toMatch(/contact support/);
    await userEvent.click(screen.getByRole('button', { name: 'Run the import again' }));
    expect(await screen.findByText('Still working on it, thanks for your patience')).toBeTruthy();
    expect(calls.at(-1)).toEqual({ method: 'POST', url: '/mindbody/import', body: undefined });
  });

  it('stage 3 refuses a discount below 0.01 with "Please provide valid values." and sends the dollars typed as cents', async () => {
    const imported: MindbodyStatus = {
      ...base,
      stage: 3,
      siteId: '-99',
      processState: 'completed 2026-11-21T09:30:00.000Z',
    };
    const calls = fakeApi([imported], () =>
      statusReply({
        ...imported,
        stage: 4,
        discounts: { discountOnReferralCents: 1_000, discountForRefereeCents: 0 },
      }),
    );
    renderPage();
    await userEvent.type(await screen.findByLabelText('Discount on referral ($)'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Save discounts and finish' }));
    expect(await screen.findByText('Please provide valid values.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText('Discount on referral ($)'));
    await userEvent.type(screen.getByLabelText('Discount on referral ($)'), '10');
    await userEvent.click(screen.getByRole('button', { name: 'Save discounts and finish' }));
    expect(await screen.findByRole('heading', { name: 'Sync with Mindbody' })).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([
      { method: 'PUT', url: '/mindbody/discounts', body: { discountOnReferralCents: 1000 } },
    ]);
    expect(screen.getByText('not yet')).toBeTruthy();
  });

  it('remove integration asks first, then goes back to stage 1 with the discounts cleared', async () => {
    const configured: MindbodyStatus = {
      ...base,
      stage: 4,
      siteId: '-99',
      discounts: { discountOnReferralCents: 1_000, discountForRefereeCents: 500 },
      lastSyncAt: '2026-11-21T09:30:00.000Z',
    };
    const calls = fakeApi([configured], () => statusReply(base));
    renderPage();
    expect(
      ((await screen.findByLabelText('Discount on referral ($)')) as HTMLInputElement).value,
    ).toBe('10.00');
    await userEvent.click(screen.getByRole('button', { name: 'Remove integration' }));
    const dialog = await screen.findByRole('dialog');
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
    await userEvent.click(
      Array.from(dialog.querySelectorAll('button')).find(
        (button) => button.textContent === 'Remove integration',
      ) as HTMLButtonElement,
    );
    expect(
      await screen.findByRole('heading', { name: 'Connect your Mindbody account' }),
    ).toBeTruthy();
    expect(screen.queryByLabelText('Discount on referral ($)')).toBeNull();
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });

  it('after removal it says how many Mindbody autopays are back at their own amounts, and whose could not be put back', async () => {
    const configured: MindbodyStatus = {
      ...base,
      stage: 4,
      siteId: '-99',
      discounts: { discountOnReferralCents: 1_000, discountForRefereeCents: 500 },
    };
    fakeApi([configured], () =>
      statusReply({
        ...base,
        removal: { autopaysRestored: 41, autopaysNotRestored: ['Ada Lovelace', 'Ben Okri'] },
      }),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove integration' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText(/Grove has not changed any member’s bill in Mindbody/),
    ).toBeTruthy();
    await userEvent.click(
      Array.from(dialog.querySelectorAll('button')).find(
        (button) => button.textContent === 'Remove integration',
      ) as HTMLButtonElement,
    );
    expect((await screen.findByRole('status')).textContent).toBe(
      'Mindbody integration removed. 41 autopays are back at their own amounts in Mindbody.',
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'Grove could not put back the autopay of Ada Lovelace, Ben Okri: change them in Mindbody.',
    );
  });

  it('says how many Mindbody calls the last run and this month made (Mindbody bills them)', async () => {
    fakeApi([
      {
        ...base,
        stage: 4,
        siteId: '-99',
        discounts: { discountOnReferralCents: 1_000, discountForRefereeCents: 0 },
        lastSyncAt: '2026-11-21T09:30:00.000Z',
        processState: 'completed 2026-11-21T09:30:00.000Z',
        mindbodyCalls: { lastRun: 13, thisMonth: 2_541 },
      },
    ]);
    renderPage();
    expect((await screen.findByText(/Last run: 13 Mindbody calls/)).textContent).toBe(
      'Last run: 13 Mindbody calls · This month: 2,541 Mindbody calls',
    );
  });

  it('says when Mindbody stopped sending changes (the webhook subscription is down)', async () => {
    fakeApi([
      {
        ...base,
        stage: 4,
        siteId: '-99',
        discounts: { discountOnReferralCents: 1_000, discountForRefereeCents: 0 },
        webhooksDown: {
          since: '2026-11-21T09:30:00.000Z',
          status: 'DeactivatedTooManyFailedMessageDeliveryAttempts',
        },
      },
    ]);
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Mindbody stopped sending changes to Grove on');
    expect(alert.textContent).toContain('(DeactivatedTooManyFailedMessageDeliveryAttempts)');
    expect(alert.textContent).toContain('Grove tries to turn them back on every hour');
  });

  describe('issue 25: bills previewed, confirmed, counted', () => {
    const configured: MindbodyStatus = {
      ...base,
      stage: 4,
      siteId: '-99',
      discounts: { discountOnReferralCents: 1_000, discountForRefereeCents: 500 },
    };
    const twoBills: MindbodyBillChanges = {
      ...NO_CHANGES,
      items: [
        {
          memberId: 'm-1',
          name: 'Anne-Marie Dubois',
          currentCents: 7_900,
          newCents: 5_900,
          differenceCents: -2_000,
        },
        {
          memberId: 'm-2',
          name: 'Siobhán O’Brien',
          currentCents: 4_900,
          newCents: 3_900,
          differenceCents: -1_000,
        },
      ],
      total: 2,
      monthlyDifferenceCents: -3_000,
      fingerprint: 'a'.repeat(32),
    };
    const steps = () =>
      Array.from(screen.getByRole('list', { name: 'Setup steps' }).querySelectorAll('li')).map(
        (item) => item.textContent,
      );

    it('the stepper ticks Sync only once a sync has completed, as "Last sync" says', async () => {
      fakeApi([configured]);
      const { unmount } = renderPage();
      expect(await screen.findByText('not yet')).toBeTruthy();
      expect(steps()).toEqual([
        '✓Connect (done)',
        '✓Import members (done)',
        '✓Discounts (done)',
        '4Sync',
      ]);
      unmount();
      fakeApi([
        {
          ...configured,
          lastSyncAt: '2026-11-21T09:30:00.000Z',
          processState: 'completed 2026-11-21T09:30:00.000Z',
          lastSyncBillsWritten: 12,
        },
      ]);
      renderPage();
      expect(await screen.findByText('Last sync: 12 bills written.')).toBeTruthy();
      expect(steps().at(-1)).toBe('✓Sync (done)');
    });

    it('"Sync with mindbody" lists the bills that change, old → new, and starts only once confirmed', async () => {
      const calls = fakeApi(
        [configured],
        () => statusReply({ ...configured, processState: 'running' }, 202),
        { sync: [twoBills] },
      );
      renderPage();
      await userEvent.click(await screen.findByRole('button', { name: 'Sync with mindbody' }));
      const dialog = await screen.findByRole('dialog');
      const list = await within(dialog).findByRole('list', { name: 'Bills this sync changes' });
      expect(Array.from(list.querySelectorAll('li')).map((item) => item.textContent)).toEqual([
        'Anne-Marie Dubois from $79.00 →  to $59.00 (−$20.00)',
        'Siobhán O’Brien from $49.00 →  to $39.00 (−$10.00)',
      ]);
      expect(dialog.textContent).toContain(
        'This sync will change 2 members’ bills in Mindbody: $30.00 less a month in total.',
      );
      expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm and sync' }));
      await waitFor(() =>
        expect(calls.filter((call) => call.method === 'POST')).toEqual([
          { method: 'POST', url: '/mindbody/sync', body: { confirm: twoBills.fingerprint } },
        ]),
      );
    });

    it('issue 31: bills a webhook’s sync holds show "N bills would change"; Review lists them and only Confirm and sync writes them', async () => {
      const calls = fakeApi(
        [
          {
            ...configured,
            lastSyncAt: '2026-11-21T09:30:00.000Z',
            processState: 'completed 2026-11-21T09:30:00.000Z',
            pendingBills: { count: 2, since: '2026-11-21T09:30:00.000Z' },
          },
        ],
        () => statusReply({ ...configured, processState: 'running' }, 202),
        { sync: [twoBills] },
      );
      renderPage();
      const notice = (await screen.findByText('2 bills would change.')).closest('.g-alert');
      expect(notice?.textContent).toContain(
        'Grove changes no bill in Mindbody until you review and confirm.',
      );
      expect(calls.filter((call) => call.url === '/mindbody/sync/preview')).toHaveLength(0);
      await userEvent.click(within(notice as HTMLElement).getByRole('button', { name: 'Review' }));
      const dialog = await screen.findByRole('dialog');
      expect(await within(dialog).findByText('Siobhán O’Brien')).toBeTruthy();
      expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm and sync' }));
      await waitFor(() =>
        expect(calls.filter((call) => call.method === 'POST')).toEqual([
          { method: 'POST', url: '/mindbody/sync', body: { confirm: twoBills.fingerprint } },
        ]),
      );
    });

    it('says nothing of held bills when none wait', async () => {
      fakeApi([{ ...configured, lastSyncAt: '2026-11-21T09:30:00.000Z' }]);
      renderPage();
      await screen.findByRole('button', { name: 'Sync with mindbody' });
      expect(screen.queryByText(/would change/)).toBeNull();
      expect(screen.queryByRole('button', { name: 'Review' })).toBeNull();
    });

    it('when the bills changed since the preview (409) it says so, shows them again and the sync under way', async () => {
      const third: MindbodyBillChanges = {
        ...twoBills,
        items: [
          ...twoBills.items,
          {
            memberId: 'm-3',
            name: 'Łukasz Nowak',
            currentCents: 6_000,
            newCents: 5_500,
            differenceCents: -500,
          },
        ],
        total: 3,
        monthlyDifferenceCents: -3_500,
        fingerprint: 'b'.repeat(32),
      };
      // A sync Mindbody's webhook started changed them: the status, read again, says it runs.
      const calls = fakeApi(
        [configured, { ...configured, processState: 'running' }],
        () =>
          apiError(
            409,
            'The bills to change are no longer those you reviewed: review them again before syncing',
          ),
        { sync: [twoBills, third] },
      );
      renderPage();
      await userEvent.click(await screen.findByRole('button', { name: 'Sync with mindbody' }));
      const dialog = await screen.findByRole('dialog');
      await within(dialog).findByText('Anne-Marie Dubois');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm and sync' }));
      expect(
        await within(dialog).findByText(/no longer those you reviewed: review them again/),
      ).toBeTruthy();
      expect(await within(dialog).findByText('Łukasz Nowak')).toBeTruthy();
      expect(dialog.textContent).toContain('3 members’ bills');
      expect(calls.filter((call) => call.url === '/mindbody/sync/preview')).toHaveLength(2);
      expect(await screen.findByRole('progressbar', { name: 'Sync progress' })).toBeTruthy();
    });

    it('"Remove integration" says which bills get their own amount back, and how many', async () => {
      fakeApi([{ ...configured, lastSyncAt: '2026-11-21T09:30:00.000Z' }], undefined, {
        removal: [
          {
            ...twoBills,
            items: twoBills.items.map((item) => ({
              ...item,
              currentCents: item.newCents,
              newCents: item.currentCents,
              differenceCents: -item.differenceCents,
            })),
            monthlyDifferenceCents: 3_000,
          },
        ],
      });
      renderPage();
      await userEvent.click(await screen.findByRole('button', { name: 'Remove integration' }));
      const dialog = await screen.findByRole('dialog');
      const list = await within(dialog).findByRole('list', {
        name: 'Bills that get their own amount back',
      });
      expect(list.querySelectorAll('li')[0].textContent).toBe(
        'Anne-Marie Dubois from $59.00 →  to $79.00 (+$20.00)',
      );
      expect(dialog.textContent).toContain(
        'Grove will put 2 members’ bills in Mindbody back to their own amount: $30.00 more a month in total.',
      );
    });
  });

  it("keeps the referral type for friends added to Mindbody: the site's own list, saved, and a refusal shown", async () => {
    const configured: MindbodyStatus = {
      ...base,
      stage: 4,
      siteId: '-99',
      discounts: { discountOnReferralCents: 1_000, discountForRefereeCents: 0 },
      lastSyncAt: '2026-11-21T09:30:00.000Z',
    };
    fakeApi([configured]);
    const saved: unknown[] = [];
    let refuse = true;
    server.use(
      http.put('/mindbody/referral-type', async ({ request }) => {
        const body = (await request.json()) as { referralType: string | null };
        if (refuse) return apiError(400, 'Pick one of the referral types of your Mindbody site');
        saved.push(body);
        return HttpResponse.json({
          referralTypes: ['Friend', 'Walk-in'],
          selected: body.referralType,
        });
      }),
    );
    renderPage();
    const select = (await screen.findByLabelText(
      'Referral type for friends added to Mindbody',
    )) as HTMLSelectElement;
    expect(select.value).toBe('');
    expect(Array.from(select.options).map((option) => option.text)).toEqual([
      'None',
      'Friend',
      'Walk-in',
    ]);
    await userEvent.selectOptions(select, 'Walk-in');
    await userEvent.click(screen.getByRole('button', { name: 'Save referral type' }));
    expect(
      await screen.findByText('Pick one of the referral types of your Mindbody site'),
    ).toBeTruthy();
    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Save referral type' }));
    expect(await screen.findByText('Referral type saved.')).toBeTruthy();
    expect(saved).toEqual([{ referralType: 'Walk-in' }]);
    expect(select.value).toBe('Walk-in');
  });
});
