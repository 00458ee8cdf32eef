import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AUDIT_MESSAGES } from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { ActivityRetentionCard } from './ActivityRetentionCard';

/** A fake API holding the business's retention. */
let days: number;
const puts: unknown[] = [];
beforeEach(() => {
  days = 730;
  puts.length = 0;
  server.use(
    http.get('/audit-log/retention', ({ response }) => response(200).json({ days })),
    http.put('/audit-log/retention', async ({ request, response }) => {
      const body = (await request.json()) as { days: number };
      puts.push(body);
      days = body.days;
      return response(200).json({ days });
    }),
  );
});

describe('ActivityRetentionCard (docs/product.md#audit-log retention)', () => {
  it('shows how many days the log is kept and saves a new number', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ActivityRetentionCard />);
    const field = (await screen.findByLabelText('Keep activity for (days)')) as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe('730'));
    await user.clear(field);
    await user.type(field, '365');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(puts).toEqual([{ days: 365 }]);
  });

  it('refuses what the API refuses, with its message, and saves nothing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ActivityRetentionCard />);
    const field = (await screen.findByLabelText('Keep activity for (days)')) as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe('730'));
    for (const typed of ['29', '3651', '90.5', 'two years', ' ']) {
      await user.clear(field);
      if (typed.trim()) await user.type(field, typed);
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText(AUDIT_MESSAGES.retentionInvalid)).toBeTruthy();
    }
    expect(puts).toEqual([]);
  });

  it('says why when the retention cannot be read', async () => {
    server.use(http.get('/audit-log/retention', () => apiError(500, 'Something went wrong')));
    renderWithProviders(<ActivityRetentionCard />);
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });
});
