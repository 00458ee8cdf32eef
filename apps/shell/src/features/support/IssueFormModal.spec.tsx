import { fetchFake, server } from '@grove/web-testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MESSAGES } from '@grove/contracts';
import { IssueFormModal } from './IssueFormModal';

const reply = (status: number, body?: unknown) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});

const fetchMock = jest.fn();
beforeEach(() => {
  fetchMock.mockReset();
  server.use(fetchFake(fetchMock));
});

function renderForm() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <IssueFormModal open onClose={() => undefined} />
    </QueryClientProvider>,
  );
}

/** The text that `aria-describedby` of the field labelled `label` points to. */
function descriptionOf(label: string): string {
  const ids = screen.getByLabelText(label).getAttribute('aria-describedby') ?? '';
  return ids
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('IssueFormModal', () => {
  it('requires both the title and the description before sending', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(MESSAGES.issueTitleRequired)).toBeTruthy();
    expect(descriptionOf('Issue title')).toBe(MESSAGES.issueTitleRequired);
    expect(descriptionOf('Issue Description')).toBe(MESSAGES.issueDescriptionRequired);

    // Spaces only is still empty; a title alone is not enough.
    await user.type(screen.getByLabelText('Issue title'), 'Cannot add a branch');
    await user.type(screen.getByLabelText('Issue Description'), '   ');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByText(MESSAGES.issueTitleRequired)).toBeNull());
    expect(descriptionOf('Issue Description')).toBe(MESSAGES.issueDescriptionRequired);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the issue, says so and clears the form', async () => {
    const user = userEvent.setup();
    fetchMock.mockResolvedValueOnce(reply(201, { message: MESSAGES.supportSuccess }));
    renderForm();
    await user.type(screen.getByLabelText('Issue title'), 'Cannot add a branch');
    await user.type(screen.getByLabelText('Issue Description'), 'The Save button spins forever.');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect((await screen.findByRole('status')).textContent).toBe(MESSAGES.supportSuccess);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/support/issues',
      expect.objectContaining({ method: 'POST' }),
    );
    expect(JSON.parse(fetchMock.mock.calls[0][1].body)).toEqual({
      summary: 'Cannot add a branch',
      description: 'The Save button spins forever.',
    });
    expect((screen.getByLabelText('Issue title') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Issue Description') as HTMLTextAreaElement).value).toBe('');
  });

  it('keeps what was typed and says so when sending fails', async () => {
    const user = userEvent.setup();
    fetchMock.mockResolvedValueOnce(
      reply(500, { statusCode: 500, message: 'Internal server error' }),
    );
    renderForm();
    await user.type(screen.getByLabelText('Issue title'), 'Cannot add a branch');
    await user.type(screen.getByLabelText('Issue Description'), 'The Save button spins forever.');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.supportFailed);
    expect((screen.getByLabelText('Issue title') as HTMLInputElement).value).toBe(
      'Cannot add a branch',
    );
  });
});
