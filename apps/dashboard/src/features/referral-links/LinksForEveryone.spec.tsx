import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schema } from '@grove/api-contract';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { LinksForEveryone } from './LinksForEveryone';

/** A fake server run: each status poll after the start advances it by 500 of 1,200 members. */
let run: Schema<'ReferralLinkRun'>;
let autoCreate: boolean;
/** How many runs were started (POST /referral-links/all). */
let posts = 0;
beforeEach(() => {
  run = { status: 'idle', total: 0, processed: 0, created: 0, withoutLink: 1200 };
  autoCreate = false;
  posts = 0;
  server.use(
    http.post('/referral-links/all', ({ response }) => {
      posts += 1;
      if (run.status !== 'running')
        run = {
          status: 'running',
          total: run.withoutLink,
          processed: 0,
          created: 0,
          withoutLink: run.withoutLink,
        };
      return response(202).json(run);
    }),
    http.get('/referral-links/all', ({ response }) => {
      if (run.status === 'running') {
        const processed = Math.min(run.total, run.processed + 500);
        run = {
          status: processed === run.total ? 'done' : 'running',
          total: run.total,
          processed,
          created: processed,
          withoutLink: run.total - processed,
        };
      }
      return response(200).json(run);
    }),
    http.put('/referral-links/settings', async ({ request, response }) => {
      autoCreate = (await request.json()).autoCreate;
      return response(200).json({ autoCreate });
    }),
    http.get('/referral-links/settings', ({ response }) => response(200).json({ autoCreate })),
  );
});

function renderCard() {
  renderWithProviders(<LinksForEveryone />);
}

describe('LinksForEveryone', () => {
  it('creates links for all members in one request and shows the progress until every member has one', async () => {
    const user = userEvent.setup();
    renderCard();
    expect(await screen.findByText('1,200 members without a link.')).toBeTruthy();
    await user.click(
      screen.getByRole('button', { name: 'Create links for all members without one' }),
    );
    expect(
      await screen.findByRole('progressbar', { name: 'Creating referral links' }),
    ).toBeTruthy();
    await waitFor(
      () => expect(screen.getByText(/Every member has a referral link\./)).toBeTruthy(),
      {
        timeout: 5_000,
      },
    );
    expect(screen.getByText(/Last run created 1,200 links\./)).toBeTruthy();
    expect(posts).toBe(1);
    expect(
      (
        screen.getByRole('button', {
          name: 'Create links for all members without one',
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(true);
  });

  it('turns automatic links for new members on', async () => {
    const user = userEvent.setup();
    renderCard();
    const box = await screen.findByRole('checkbox', {
      name: /Create a referral link automatically/,
    });
    await waitFor(() => expect((box as HTMLInputElement).disabled).toBe(false));
    await user.click(box);
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
    expect(autoCreate).toBe(true);
  });

  it('keeps the tick the owner gave while the setting is being saved, and takes it back if saving fails', async () => {
    let answer: () => void = () => undefined;
    server.use(
      http.put(
        '/referral-links/settings',
        () =>
          new Promise((resolve) => {
            answer = () => resolve(apiError(503, 'Service unavailable'));
          }),
      ),
    );
    renderCard();
    const box = (await screen.findByRole('checkbox', {
      name: /Create a referral link automatically/,
    })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    // A plain click, read straight after (as a browser paints it): no waiting for the mutation.
    fireEvent.click(box);
    // The request is still unanswered: the box stays ticked.
    expect(box.checked).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(box.checked).toBe(true);
    answer();
    await waitFor(() => expect(box.checked).toBe(false));
  });
});
