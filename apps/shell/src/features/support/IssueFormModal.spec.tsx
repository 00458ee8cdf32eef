import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { IssueFormModal } from './IssueFormModal';

/** The bodies `POST /api/support/issues` received. */
let sent: unknown[];
beforeEach(() => {
  sent = [];
});

/** Answers the issue form's `POST /api/support/issues` with `status` after recording its body. */
function supportAnswers(status: 201 | 500) {
  server.use(
    http.post('/support/issues', async ({ request, response }) => {
      sent.push(await request.json());
      return status === 201
        ? response(201).json({ message: MESSAGES.supportSuccess })
        : apiError(500, 'Internal server error');
    }),
  );
}

const renderForm = () => renderWithProviders(<IssueFormModal open onClose={() => undefined} />);

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
    expect(sent).toEqual([]);
  });

  it('sends the issue, says so and clears the form', async () => {
    const user = userEvent.setup();
    supportAnswers(201);
    renderForm();
    await user.type(screen.getByLabelText('Issue title'), 'Cannot add a branch');
    await user.type(screen.getByLabelText('Issue Description'), 'The Save button spins forever.');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect((await screen.findByRole('status')).textContent).toBe(MESSAGES.supportSuccess);
    expect(sent).toEqual([
      { summary: 'Cannot add a branch', description: 'The Save button spins forever.' },
    ]);
    expect((screen.getByLabelText('Issue title') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Issue Description') as HTMLTextAreaElement).value).toBe('');
  });

  it('keeps what was typed and says so when sending fails', async () => {
    const user = userEvent.setup();
    supportAnswers(500);
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
