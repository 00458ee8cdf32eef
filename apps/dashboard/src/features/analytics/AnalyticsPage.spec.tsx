import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation, useNavigate } from 'react-router-dom';
import { ANALYTICS_MESSAGES } from '@grove/contracts';
import type { Schema } from '@grove/api-contract';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { AnalyticsPage } from './AnalyticsPage';

type FunnelReport = Schema<'FunnelReport'>;
type JoinChannelsReport = Schema<'JoinChannelsReport'>;
type TopReferrersReport = Schema<'TopReferrersReport'>;
type MoneyReport = Schema<'MoneyReport'>;
type RetentionReport = Schema<'RetentionReport'>;

/** uPlot draws on a canvas, which jsdom lacks: record what each chart was given instead. */
const charts: { series: string[]; data: unknown[][] }[] = [];
jest.mock('uplot', () => ({
  __esModule: true,
  default: class {
    constructor(options: { series: { label?: string }[] }, data: unknown[][]) {
      charts.push({ series: options.series.slice(1).map((s) => s.label ?? ''), data });
    }
    setSize() {}
    destroy() {}
  },
}));

global.ResizeObserver = class {
  observe() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

const span = { from: '2026-10-25', to: '2026-11-23' };
const share = (active: number, eligible: number) => ({
  active,
  eligible,
  share: eligible ? active / eligible : null,
});

const funnel = (counts: number[]): FunnelReport => ({
  ...span,
  steps: (['links', 'visits', 'joins', 'approved'] as const).map((key, index) => ({
    key,
    label: ['Links shared', 'Join-page visits', 'Joins', 'Approved branches'][index],
    count: counts[index],
    conversion: index && counts[index - 1] ? counts[index] / counts[index - 1] : null,
  })),
  overallConversion: counts[1] ? counts[3] / counts[1] : null,
});
const channels = (rows: JoinChannelsReport['channels']): JoinChannelsReport => ({
  ...span,
  channels: rows,
});
const referrers = (rows: TopReferrersReport['referrers']): TopReferrersReport => ({
  ...span,
  referrers: rows,
});
const moneyReport = (
  months: MoneyReport['months'],
  offers: Pick<
    MoneyReport,
    'welcomeOffersGranted' | 'welcomeOffersCostCents' | 'welcomeOffersByHand'
  > = { welcomeOffersGranted: 0, welcomeOffersCostCents: 0, welcomeOffersByHand: 0 },
): MoneyReport => ({
  ...span,
  months,
  totalDiscountsCents: months.reduce((sum, m) => sum + m.discountsCents, 0),
  totalReferredRevenueCents: months.reduce((sum, m) => sum + m.referredRevenueCents, 0),
  ...offers,
});
const retention = (eligible: number): RetentionReport => ({
  ...span,
  horizons: ([30, 90, 180] as const).map((days) => ({
    days,
    referred: share(eligible, eligible),
    nonReferred: share(Math.floor(eligible / 2), eligible),
  })),
});

/** What the fake API answers for each report. */
interface Answers {
  funnel: FunnelReport;
  channels: JoinChannelsReport;
  referrers: TopReferrersReport;
  money: MoneyReport;
  retention: RetentionReport;
}

const full: Answers = {
  funnel: funnel([3, 7, 4, 2]),
  channels: channels([
    { channel: 'whatsapp', visits: 4, joins: 3, approved: 2 },
    { channel: 'direct', visits: 3, joins: 1, approved: 0 },
  ]),
  referrers: referrers([
    { memberId: 'm1', memberName: 'Tina Tree', branchesGained: 2, savingsCents: 2000 },
    { memberId: 'm2', memberName: null, branchesGained: 1, savingsCents: 250 },
  ]),
  money: moneyReport(
    [
      { month: '2026-10', discountsCents: 4000, referredRevenueCents: 5000 },
      { month: '2026-11', discountsCents: 2700, referredRevenueCents: 4500 },
    ],
    // Issue 33 item 1: two welcome offers granted, one of them a text offer honoured by hand.
    { welcomeOffersGranted: 2, welcomeOffersCostCents: 5000, welcomeOffersByHand: 1 },
  ),
  retention: retention(4),
};
const empty: Answers = {
  funnel: funnel([0, 0, 0, 0]),
  channels: channels([]),
  referrers: referrers([]),
  money: moneyReport([{ month: '2026-11', discountsCents: 0, referredRevenueCents: 0 }]),
  retention: retention(0),
};

let answers: Answers = full;
let failing = false;
/** While true, no report is answered (the page keeps loading). */
let hanging = false;
/** Every request sent, as '/path?query' (relative to /api, as the client's paths). */
let requests: string[] = [];
beforeEach(() => {
  charts.length = 0;
  answers = full;
  failing = false;
  hanging = false;
  requests = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    requests.push(`${url.pathname.replace(/^\/api/, '')}${url.search}`);
  });
  /** A report's reply: never (while hanging), the error (while failing), else its answer. */
  const answer = async <T,>(report: T, json: (report: T) => Response) => {
    if (hanging) await new Promise(() => {});
    if (failing) return apiError(503, 'The database is busy');
    return json(report);
  };
  server.use(
    http.get('/analytics/funnel', ({ response }) =>
      answer(answers.funnel, (report) => response(200).json(report)),
    ),
    http.get('/analytics/channels', ({ response }) =>
      answer(answers.channels, (report) => response(200).json(report)),
    ),
    http.get('/analytics/referrers', ({ response }) =>
      answer(answers.referrers, (report) => response(200).json(report)),
    ),
    http.get('/analytics/money', ({ response }) =>
      answer(answers.money, (report) => response(200).json(report)),
    ),
    http.get('/analytics/retention', ({ response }) =>
      answer(answers.retention, (report) => response(200).json(report)),
    ),
  );
});
afterEach(() => server.events.removeAllListeners());

/** The address bar and the browser's Back button, for the tests of the period in the URL. */
function Browser() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output data-testid="address">{location.search}</output>
      <button type="button" onClick={() => navigate(-1)}>
        Browser back
      </button>
    </>
  );
}

function renderPage(address = '/dashboard/analytics') {
  renderWithProviders(
    <>
      <AnalyticsPage />
      <Browser />
    </>,
    { route: address },
  );
}

const asked = (path: string) => expect(requests).toContainEqual(expect.stringContaining(path));
const pressed = (name: string) =>
  screen.getByRole('button', { name }).getAttribute('aria-pressed') === 'true';

const card = (title: string) => screen.getByRole('heading', { name: title }).closest('section')!;

describe('AnalyticsPage', () => {
  it('shows a spinner per report while loading', () => {
    hanging = true;
    renderPage();
    expect(screen.getByText('Loading referral funnel…')).toBeTruthy();
    expect(screen.getByText('Loading retention: referred vs other members…')).toBeTruthy();
  });

  it('shows the funnel, referrers, money and retention as tables, and draws the charts', async () => {
    renderPage();
    const funnelTable = await within(card('Referral funnel')).findByRole('table');
    const rows = within(funnelTable)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'Links shared3–',
      'Join-page visits72.3 per link',
      'Joins457.1%',
      'Approved branches250.0%',
    ]);
    const top = await within(card('Top referrers')).findByRole('table');
    expect(within(top).getByRole('rowheader', { name: 'Removed member' })).toBeTruthy();
    expect(within(top).getByText('$20.00')).toBeTruthy();
    const moneyTable = await within(
      card("Discounts given vs referred members' revenue"),
    ).findByRole('table');
    expect(within(moneyTable).getByRole('row', { name: /Total/ }).textContent).toBe(
      'Total$67.00$95.00',
    );
    // The welcome offers' cost, next to the referrer discounts.
    expect(within(moneyTable).getByRole('row', { name: /Welcome offers/ }).textContent).toBe(
      'Welcome offers to friends (2 granted, 1 by hand)$50.00',
    );
    await waitFor(() => expect(charts).toHaveLength(2));
    expect(charts.map((chart) => chart.series)).toEqual(
      expect.arrayContaining([
        ['Discounts given', "Referred members' revenue"],
        ['Referred members', 'Other members'],
      ]),
    );
    const retentionTable = within(card('Retention: referred vs other members')).getByRole('table');
    expect(within(retentionTable).getAllByText('100.0% (4 of 4)')).toHaveLength(3);
  });

  it('shows joins by channel: a bar per channel and the visits, joins and approvals', async () => {
    renderPage();
    const channelCard = card('Joins by channel');
    const table = await within(channelCard).findByRole('table');
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['ChannelVisitsJoinsApproved', 'WhatsApp432', 'Direct310']);
    expect(
      within(table).getByText(
        'Join-page visits, joins and approvals by channel, 25 Oct 2026 to 23 Nov 2026',
      ),
    ).toBeTruthy();
    const bars = channelCard.querySelectorAll<HTMLElement>('.dash-funnel__bar');
    expect([...bars].map((bar) => bar.style.width)).toEqual(['100%', '33.33333333333333%']);
    asked('/analytics/channels?period=30');
  });

  it('says how joins by channel fill in when no friend opened a link', async () => {
    answers = { ...full, channels: channels([]) };
    renderPage();
    const channelCard = card('Joins by channel');
    expect(
      await within(channelCard).findByText(/No friend opened a referral link in this period\./),
    ).toBeTruthy();
    expect(within(channelCard).queryByRole('table')).toBeNull();
    expect(within(channelCard).queryByRole('button', { name: 'Download CSV' })).toBeNull();
  });

  it('downloads a report as CSV', async () => {
    let blob: Blob | undefined;
    URL.createObjectURL = jest.fn((made: Blob) => {
      blob = made;
      return 'blob:analytics';
    });
    URL.revokeObjectURL = jest.fn();
    // jsdom cannot follow a download link: record which file the click asked for.
    const downloads: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(this.download);
    });
    renderPage();
    const top = card('Top referrers');
    await within(top).findByRole('table');
    await userEvent.click(within(top).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(blob).toBeDefined());
    click.mockRestore();
    expect(downloads).toEqual(['top-referrers.csv']);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob!);
    });
    expect(text.split(/\r?\n/)).toEqual([
      'Member,Branches gained,Savings',
      'Tina Tree,2,20.00',
      'Removed member,1,2.50',
    ]);
  });

  it('says what to do when there is nothing to show', async () => {
    answers = empty;
    renderPage();
    expect(await screen.findByText(/Share a referral link to see visits here\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open Referral Links' }).getAttribute('href')).toBe(
      '/referral-links',
    );
    expect(
      await screen.findByText(/Approve friends who joined through a referral link/),
    ).toBeTruthy();
    expect(await screen.findByText(/Discounts appear here once/)).toBeTruthy();
    expect(await screen.findByText(/Choose a longer period/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
  });

  it('shows the error with Try again, which loads the report', async () => {
    failing = true;
    renderPage();
    const funnelCard = card('Referral funnel');
    expect(await within(funnelCard).findByText('The database is busy')).toBeTruthy();
    failing = false;
    await userEvent.click(within(funnelCard).getByRole('button', { name: 'Try again' }));
    expect(await within(funnelCard).findByRole('table')).toBeTruthy();
  });

  it('asks for the chosen period, and refuses a custom range that ends before it starts', async () => {
    renderPage();
    await within(card('Referral funnel')).findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Last 365 days' }));
    await waitFor(() => asked('/analytics/money?period=365'));
    await userEvent.click(screen.getByRole('button', { name: 'Custom' }));
    await userEvent.type(screen.getByLabelText('From'), '2026-03-02');
    await userEvent.type(screen.getByLabelText('To'), '2026-03-01');
    const sent = requests.length;
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect((await screen.findByRole('alert')).textContent).toBe(ANALYTICS_MESSAGES.startAfterEnd);
    expect(requests).toHaveLength(sent);
    await userEvent.clear(screen.getByLabelText('From'));
    await userEvent.type(screen.getByLabelText('From'), '2026-02-01');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => asked('/analytics/funnel?from=2026-02-01&to=2026-03-01'));
  });

  describe('the period in the URL (issue 25)', () => {
    it('opens on the period the URL names, puts a new one in the URL, and Back returns to it', async () => {
      renderPage('/dashboard/analytics?period=90');
      await within(card('Referral funnel')).findByRole('table');
      asked('/analytics/funnel?period=90');
      expect(pressed('Last 90 days')).toBe(true);
      await userEvent.click(screen.getByRole('button', { name: 'Last 365 days' }));
      expect(screen.getByTestId('address').textContent).toBe('?period=365');
      await waitFor(() => asked('/analytics/retention?period=365'));
      expect(pressed('Last 365 days')).toBe(true);
      await userEvent.click(screen.getByRole('button', { name: 'Browser back' }));
      expect(screen.getByTestId('address').textContent).toBe('?period=90');
      expect(pressed('Last 90 days')).toBe(true);
      expect(pressed('Last 365 days')).toBe(false);
    });

    it('keeps a custom range in the URL: reopening it shows the dates and asks for them', async () => {
      renderPage('/dashboard/analytics?from=2026-02-01&to=2026-03-01');
      await within(card('Referral funnel')).findByRole('table');
      asked('/analytics/money?from=2026-02-01&to=2026-03-01');
      expect(pressed('Custom')).toBe(true);
      expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-02-01');
      expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('2026-03-01');
      await userEvent.click(screen.getByRole('button', { name: 'Last 30 days' }));
      expect(screen.getByTestId('address').textContent).toBe('?period=30');
    });

    it('shows the last 30 days for a period the API would refuse (?period=7)', async () => {
      renderPage('/dashboard/analytics?period=7');
      await within(card('Referral funnel')).findByRole('table');
      asked('/analytics/funnel?period=30');
      expect(requests.filter((request) => request.includes('period=7'))).toEqual([]);
      expect(pressed('Last 30 days')).toBe(true);
    });
  });

  it("writes the period's days and the months in one date format (the business's locale)", async () => {
    renderPage();
    const funnelTable = await within(card('Referral funnel')).findByRole('table');
    expect(
      within(funnelTable).getByText('Referral funnel, 25 Oct 2026 to 23 Nov 2026'),
    ).toBeTruthy();
    const moneyTable = within(card("Discounts given vs referred members' revenue")).getByRole(
      'table',
    );
    expect(within(moneyTable).getByRole('row', { name: /Oct 2026/ })).toBeTruthy();
    expect(within(moneyTable).getByRole('row', { name: /Nov 2026/ })).toBeTruthy();
  });
});
