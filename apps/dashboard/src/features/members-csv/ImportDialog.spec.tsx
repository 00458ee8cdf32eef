import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schema } from '@grove/api-contract';
import {
  ERASED_EMAIL_ROW_MESSAGE,
  MEMBER_CSV_MESSAGES,
  MEMBER_IMPORT_TEMPLATE_HEADER,
  MESSAGES,
  guessMemberCsvMapping,
} from '@grove/contracts';
import { HttpResponse, apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { ImportDialog } from './ImportDialog';

const headers = ['Name', 'Email', 'Price', 'Discount'];
const uploaded: Schema<'MemberImportUpload'> = {
  importId: 'imp-1',
  headers,
  rowCount: 3,
  mapping: guessMemberCsvMapping(headers),
};
const dryRun: Schema<'MemberImportDryRun'> = {
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

/** A request the fake API saw: its path (relative to /api, as the client's), Content-Type and body (JSON parsed, else text). */
interface Sent {
  url: string;
  contentType: string | null;
  body?: unknown;
}
let polls = 0;
let sent: Sent[] = [];
/** The upload the API answers with (a test may swap it for an Excel one). */
let answer: Schema<'MemberImportUpload'> = uploaded;
const FAILED_CSV =
  '\uFEFFName,Email,Price,Discount,Line,Reason\r\nBob Ray,bob,10,1,3,Not a valid email address\r\n';

/** Records a request (reading its body) as {@link Sent}. */
async function record(request: Request): Promise<void> {
  const contentType = request.headers.get('Content-Type');
  const text = request.method === 'GET' ? '' : await request.text();
  const body = contentType?.includes('json') && text ? JSON.parse(text) : text || undefined;
  sent.push({ url: new URL(request.url).pathname.replace(/^\/api/, ''), contentType, body });
}

const started: Schema<'MemberImportStatus'> = {
  importId: 'imp-1',
  state: 'queued',
  totalRows: 3,
  processedRows: 0,
  counts: null,
  error: null,
};

beforeEach(() => {
  polls = 0;
  sent = [];
  answer = uploaded;
  server.use(
    http.post('/members-csv/imports', async ({ request, response }) => {
      await record(request);
      return response(201).json(answer);
    }),
    http.get('/members-csv/imports/{id}/failed-rows', async ({ request }) => {
      await record(request);
      return new HttpResponse(FAILED_CSV, {
        headers: {
          'Content-Type': 'text/csv',
          'Content-Disposition': 'attachment; filename="grove-failed-rows.csv"',
        },
      });
    }),
    http.post('/members-csv/imports/{id}/dry-run', async ({ request, response }) => {
      await record(request);
      return response(200).json(dryRun);
    }),
    http.post('/members-csv/imports/{id}/run', async ({ request, response }) => {
      await record(request);
      return response(202).json(started);
    }),
    http.get('/members-csv/imports/{id}', async ({ request, response }) => {
      await record(request);
      polls += 1;
      return response(200).json(
        polls < 2
          ? { ...started, state: 'running', processedRows: 1 }
          : { ...started, state: 'done', processedRows: 3, counts: { ...dryRun.counts } },
      );
    }),
    http.get('/settings/member-defaults', async ({ request }) => {
      await record(request);
      return apiError(404, 'not found');
    }),
  );
});

const renderDialog = () => renderWithProviders(<ImportDialog open onClose={() => undefined} />);

const file = () => new File(['Name,Email,Price,Discount\n'], 'members.csv', { type: 'text/csv' });

/** Records the files the dialog saves (jsdom cannot follow a download link). */
function recordDownloads() {
  const saved: { name: string; blob: Blob }[] = [];
  let last: Blob | undefined;
  URL.createObjectURL = jest.fn((made: Blob) => {
    last = made;
    return 'blob:csv';
  });
  URL.revokeObjectURL = jest.fn();
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push({ name: this.download, blob: last as Blob });
  });
  return { saved, restore: () => click.mockRestore() };
}

const bytesOf = (blob: Blob) =>
  new Promise<Uint8Array>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });

describe('ImportDialog', () => {
  it('uploads the file as text/csv, shows the guessed mapping, lists the dry run with each row’s message, then imports with progress', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.upload(screen.getByLabelText('CSV file'), file());
    await waitFor(() => expect(sent.some(({ url }) => url === '/members-csv/imports')).toBe(true));
    const uploadCall = sent.find(({ url }) => url === '/members-csv/imports');
    expect(uploadCall?.contentType).toBe('text/csv');
    // (jsdom's File reaches the fake API as text '[object File]': the bytes sent are the e2e's.)
    const selected = (label: string) => {
      const select = screen.getByLabelText(label) as HTMLSelectElement;
      return select.options[select.selectedIndex]?.text;
    };
    await screen.findByLabelText('Email');
    expect(selected('Email')).toBe('Email');
    expect(selected('Membership price (dollars)')).toBe('Price');
    expect(selected('Referred by: email or name (optional)')).toBe('(no column)');

    await user.click(screen.getByRole('button', { name: 'Check rows' }));
    await waitFor(() => expect(sent.some(({ url }) => url.endsWith('/dry-run'))).toBe(true));
    const asked = sent.find(({ url }) => url.endsWith('/dry-run'))?.body;
    expect(asked).toEqual({
      mapping: uploaded.mapping,
      discountForEveryRow: null,
      locale: navigator.language,
    });
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

  it('an import that stopped (a deploy, a crash) says so and runs again with the same settings on "Try again"', async () => {
    const stopped = 'The import failed and nothing was written. Please try again.';
    let runs = 0;
    server.use(
      http.post('/members-csv/imports/{id}/run', async ({ request, response }) => {
        await record(request);
        runs += 1;
        return response(202).json(started);
      }),
      http.get('/members-csv/imports/{id}', async ({ response }) =>
        response(200).json(
          runs < 2
            ? { ...started, state: 'failed', error: stopped }
            : { ...started, state: 'done', processedRows: 3, counts: { ...dryRun.counts } },
        ),
      ),
    );
    const user = userEvent.setup();
    renderDialog();
    await user.upload(screen.getByLabelText('CSV file'), file());
    await user.click(await screen.findByRole('button', { name: 'Check rows' }));
    await user.click(await screen.findByRole('button', { name: 'Import 2 rows' }));
    expect(await screen.findByText(stopped)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Import stopped' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/Imported: 2 added/, {}, { timeout: 3000 })).toBeTruthy();
    const bodies = sent.filter(({ url }) => url.endsWith('/run')).map(({ body }) => body);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
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
    server.use(
      http.post('/members-csv/imports', () => apiError(413, MEMBER_CSV_MESSAGES.tooLarge)),
    );
    const user = userEvent.setup();
    renderDialog();
    await user.upload(screen.getByLabelText('CSV file'), file());
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(MEMBER_CSV_MESSAGES.tooLarge),
    );
  });

  it('offers a template with the headers the import reads, with a byte-order mark', async () => {
    const downloads = recordDownloads();
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('button', { name: 'Download a template' }));
    downloads.restore();
    expect(downloads.saved.map((saved) => saved.name)).toEqual(['grove-members-template.csv']);
    const bytes = await bytesOf(downloads.saved[0]?.blob as Blob);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // The header is ASCII: one byte per character after the mark.
    expect(String.fromCharCode(...bytes.slice(3))).toBe(
      `${MEMBER_IMPORT_TEMPLATE_HEADER.join(',')}\r\n`,
    );
  });

  it("starts the discount for every row from the business's default (docs/product.md#member-defaults)", async () => {
    const headers = ['Name', 'Email', 'Price'];
    answer = { importId: 'imp-1', headers, rowCount: 3, mapping: guessMemberCsvMapping(headers) };
    server.use(
      http.get('/settings/member-defaults', ({ response }) =>
        response(200).json({ discountCents: 1500, membershipPriceCents: 8900 }),
      ),
    );
    const user = userEvent.setup();
    renderDialog();
    await user.upload(screen.getByLabelText('CSV file'), file());
    const typed = (await screen.findByLabelText(
      'Discount per branch for every row (dollars)',
    )) as HTMLInputElement;
    expect(typed.value).toBe('15.00');
    expect(screen.queryByText(MEMBER_CSV_MESSAGES.mappingIncomplete)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Check rows' }));
    await screen.findAllByTestId('csv-row');
    const dryRunCall = sent.find(({ url }) => url.endsWith('/dry-run'));
    expect(dryRunCall?.body).toMatchObject({
      discountForEveryRow: '15.00',
    });
  });

  it('maps First Name / Last Name, takes one discount for every row when no column has it, and offers the failed rows as a file', async () => {
    const excelHeaders = ['First Name', 'Last Name', 'Email', 'Price', 'Referred By'];
    answer = {
      importId: 'imp-1',
      headers: excelHeaders,
      rowCount: 3,
      mapping: guessMemberCsvMapping(excelHeaders),
    };
    const user = userEvent.setup();
    renderDialog();
    await user.upload(screen.getByLabelText('CSV file'), file());
    const selected = (label: string) => {
      const select = screen.getByLabelText(label) as HTMLSelectElement;
      return select.options[select.selectedIndex]?.text;
    };
    await screen.findByLabelText('First name');
    expect(selected('Full name')).toBe('(no column)');
    expect(selected('First name')).toBe('First Name');
    expect(selected('Last name')).toBe('Last Name');
    expect(selected('Referred by: email or name (optional)')).toBe('Referred By');
    expect(selected('Discount per branch (dollars)')).toBe('(no column)');
    // No discount yet: the import cannot go on.
    expect(screen.getByText(MEMBER_CSV_MESSAGES.mappingIncomplete)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Check rows' })).toHaveProperty('disabled', true);

    // A full name column replaces first and last names, and back.
    await user.selectOptions(screen.getByLabelText('Full name'), 'Email');
    expect(selected('First name')).toBe('(no column)');
    expect(selected('Email')).toBe('(no column)');
    await user.selectOptions(screen.getByLabelText('First name'), 'First Name');
    await user.selectOptions(screen.getByLabelText('Email'), 'Email');
    expect(selected('Full name')).toBe('(no column)');
    await user.selectOptions(screen.getByLabelText('Last name'), 'Last Name');

    await user.type(screen.getByLabelText('Discount per branch for every row (dollars)'), '$5.00');
    expect(screen.queryByText(MEMBER_CSV_MESSAGES.mappingIncomplete)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Check rows' }));
    await screen.findAllByTestId('csv-row');
    const dryRunCall = sent.find(({ url }) => url.endsWith('/dry-run'));
    expect(dryRunCall?.body).toMatchObject({
      mapping: { memberName: null, firstName: 0, lastName: 1, memberEmail: 2, discount: null },
      discountForEveryRow: '$5.00',
    });

    const downloads = recordDownloads();
    await user.click(screen.getByRole('button', { name: 'Download failed rows (1)' }));
    await waitFor(() => expect(downloads.saved).toHaveLength(1));
    downloads.restore();
    expect(sent.at(-1)?.url).toBe('/members-csv/imports/imp-1/failed-rows');
    expect(downloads.saved[0]?.name).toBe('grove-failed-rows.csv');

    // The run takes the same settings; once done, the rows still failing are offered again.
    await user.click(screen.getByRole('button', { name: 'Import 2 rows' }));
    expect(await screen.findByText(/Imported: 2 added/, {}, { timeout: 3000 })).toBeTruthy();
    const runCall = sent.find(({ url }) => url.endsWith('/run'));
    expect(runCall?.body).toMatchObject({
      discountForEveryRow: '$5.00',
    });
    expect(screen.getByRole('button', { name: 'Download failed rows (1)' })).toBeTruthy();
  });
});

describe('ImportDialog: rows erased on request (docs/product.md#data-rights)', () => {
  const held: Schema<'MemberImportDryRun'> = {
    counts: { add: 1, update: 0, unchanged: 0, skipped: 0, error: 1 },
    rows: [
      { line: 2, memberName: 'Ann Lee', memberEmail: 'ann@x.com', outcome: 'add', messages: [] },
      {
        line: 3,
        memberName: 'Siobhán O’Brien',
        memberEmail: 'siobhan@x.com',
        outcome: 'error',
        messages: [ERASED_EMAIL_ROW_MESSAGE],
      },
    ],
  };
  const confirmed: Schema<'MemberImportDryRun'> = {
    counts: { add: 2, update: 0, unchanged: 0, skipped: 0, error: 0 },
    rows: [held.rows[0], { ...held.rows[1], outcome: 'add', messages: [] }] as typeof held.rows,
  };

  it('asks whether they asked to come back; ticking checks the rows again with importErased and imports them', async () => {
    server.use(
      http.post('/members-csv/imports/{id}/dry-run', async ({ request, response }) => {
        await record(request);
        const body = sent[sent.length - 1]?.body as { importErased?: boolean };
        return response(200).json(body.importErased ? confirmed : held);
      }),
    );
    const user = userEvent.setup();
    renderDialog();
    await user.upload(screen.getByLabelText('CSV file'), file());
    await user.click(await screen.findByRole('button', { name: 'Check rows' }));
    const question = await screen.findByRole('group', { name: /whose data was erased/ });
    expect(question.textContent).toContain(
      '1 row is a person whose data was erased at their request',
    );
    expect(question.textContent).toContain('Did they ask to come back?');
    expect(screen.getByRole('button', { name: 'Import 1 row' })).toBeTruthy();

    await user.click(within(question).getByLabelText('Import erased members too'));
    expect(await screen.findByRole('button', { name: 'Import 2 rows' })).toBeTruthy();
    const runs = sent.filter(({ url }) => url.endsWith('/dry-run'));
    expect(runs.map(({ body }) => (body as { importErased?: boolean }).importErased)).toEqual([
      undefined,
      true,
    ]);
    // The question stays, ticked, to take it back.
    expect((screen.getByLabelText('Import erased members too') as HTMLInputElement).checked).toBe(
      true,
    );
    await user.click(screen.getByRole('button', { name: 'Import 2 rows' }));
    await waitFor(() => expect(sent.some(({ url }) => url.endsWith('/run'))).toBe(true));
    expect(sent.find(({ url }) => url.endsWith('/run'))?.body).toMatchObject({
      importErased: true,
    });
  });
});
