import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  MEMBER_CSV_MESSAGES,
  MESSAGES,
  guessMemberCsvMapping,
  type MemberImportDryRun,
  type MemberImportStatus,
  type MemberImportUpload,
} from '@grove/contracts';
import { ImportDialog } from './ImportDialog';

const reply = (status: number, body?: unknown) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});

const headers = ['Name', 'Email', 'Price', 'Discount'];
const uploaded: MemberImportUpload = {
  importId: 'imp-1',
  headers,
  rowCount: 3,
  mapping: guessMemberCsvMapping(headers),
};
const dryRun: MemberImportDryRun = {
  counts: { add: 2, update: 0, unchanged: 0, skipped: 0, error: 1 },
  rows: [
    { line: 2, memberName: 'Ann Lee', memberEmail: 'ann@x.com', outcome: 'add', messages: [] },
    {
      line: 3,
      memberName: 'Bob Ray',
      memberEmail: 'bob',
      outcome: 'error',
      messages: [MESSAGES.invalidEmail],
    },
    { line: 4, memberName: 'Cy Dee', memberEmail: 'cy@x.com', outcome: 'add', messages: [] },
  ],
};

const fetchMock = jest.fn();
let polls = 0;
let sent: { url: string; init?: RequestInit }[] = [];
beforeEach(() => {
  polls = 0;
  sent = [];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    sent.push({ url, init });
    if (url === '/api/members-csv/imports') return reply(201, uploaded);
    if (url.endsWith('/dry-run')) return reply(200, dryRun);
    const started: MemberImportStatus = {
      importId: 'imp-1',
      state: 'queued',
      totalRows: 3,
      processedRows: 0,
      counts: null,
      error: null,
    };
    if (url.endsWith('/run')) return reply(202, started);
    if (url === '/api/members-csv/imports/imp-1') {
      polls += 1;
      return reply(
        200,
        polls < 2
          ? { ...started, state: 'running', processedRows: 1 }
          : { ...started, state: 'done', processedRows: 3, counts: { ...dryRun.counts } },
      );
    }
    return reply(404, { message: 'not found' });
  });
  global.fetch = fetchMock as unknown as typeof fetch;
});

function renderDialog() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ImportDialog open onClose={() => undefined} />
    </QueryClientProvider>,
  );
}

const file = () => new File(['Name,Email,Price,Discount\n'], 'members.csv', { type: 'text/csv' });

describe('ImportDialog', () => {
  it('uploads the file as text/csv, shows the guessed mapping, lists the dry run with each row’s message, then imports with progress', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.upload(screen.getByLabelText('CSV file'), file());
    expect(sent[0]?.init?.headers).toEqual({ 'Content-Type': 'text/csv' });
    const selected = (label: string) => {
      const select = screen.getByLabelText(label) as HTMLSelectElement;
      return select.options[select.selectedIndex]?.text;
    };
    await screen.findByLabelText('Email');
    expect(selected('Email')).toBe('Email');
    expect(selected('Membership price (dollars)')).toBe('Price');
    expect(selected("Referrer's email (optional)")).toBe('(no column)');

    await user.click(screen.getByRole('button', { name: 'Check rows' }));
    const rows = await screen.findAllByTestId('csv-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1] as HTMLElement).getByText(MESSAGES.invalidEmail)).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('Error')).toBeTruthy();
    expect(screen.getByText(/2 to add, 0 to update, 0 unchanged/)).toBeTruthy();
    expect(sent.some(({ url }) => url.endsWith('/run'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Import 2 rows' }));
    expect(await screen.findByRole('progressbar', { name: 'Import progress' })).toBeTruthy();
    expect(await screen.findByText(/Imported: 2 added/, {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('value')).toBe('3');
  });

  it('asks for the missing columns before a dry run', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.upload(screen.getByLabelText('CSV file'), file());
    await user.selectOptions(await screen.findByLabelText('Discount per branch (dollars)'), '');
    expect(screen.getByText(MEMBER_CSV_MESSAGES.mappingIncomplete)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Check rows' })).toHaveProperty('disabled', true);
  });

  it('shows the API’s message for a refused file', async () => {
    fetchMock.mockImplementationOnce(async () =>
      reply(413, { message: MEMBER_CSV_MESSAGES.tooLarge }),
    );
    const user = userEvent.setup();
    renderDialog();
    await user.upload(screen.getByLabelText('CSV file'), file());
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(MEMBER_CSV_MESSAGES.tooLarge),
    );
  });
});
