import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schema } from '@grove/api-contract';
import { http, renderWithProviders, server } from '@grove/web-testing';
import { ReferralLinksPage } from './ReferralLinksPage';

/** A fake 'Email all links' run over 300 members: each poll after the start goes through 120. */
let run: Schema<'ReferralEmailRun'>;
/** The members the list answers. */
let rows: Schema<'ReferralLinkRow'>[] = [];
/** How many 'Email all links' runs were started (POST /referral-links/email). */
let posts = 0;
beforeEach(() => {
  run = { status: 'idle', total: 0, processed: 0, queued: 0, skipped: 0 };
  rows = [];
  posts = 0;
  server.use(
    http.get('/referral-links/email/preview', ({ response }) =>
      response(200).json({ members: 298, alreadyEmailed: 2 }),
    ),
    http.get('/referral-links/email/example', ({ response }) =>
      response(200).json({
        memberId: 'm1',
        memberName: 'Anne-Marie Dubois',
        subject: 'Your referral link for Peak Fitness',
        html: '<!doctype html><p>Hi Anne-Marie, share http://grove.test/referral/abc</p>',
        text: 'Hi Anne-Marie, share http://grove.test/referral/abc',
      }),
    ),
    http.post('/referral-links/email', ({ response }) => {
      posts += 1;
      if (run.status !== 'running')
        run = { status: 'running', total: 300, processed: 0, queued: 0, skipped: 0 };
      return response(202).json(run);
    }),
    http.get('/referral-links/email', ({ response }) => {
      if (run.status === 'running') {
        const processed = Math.min(run.total, run.processed + 120);
        run = {
          status: processed === run.total ? 'done' : 'running',
          total: run.total,
          processed,
          queued: Math.max(0, processed - 2),
          skipped: Math.min(processed, 2),
        };
      }
      return response(200).json(run);
    }),
    http.get('/referral-links', ({ response }) =>
      response(200).json({ items: rows, total: rows.length, page: 1, pageSize: 25 }),
    ),
    http.get('/referral-links/all', ({ response }) =>
      response(200).json({ status: 'idle', total: 0, processed: 0, created: 0, withoutLink: 0 }),
    ),
    http.get('/referral-links/settings', ({ response }) =>
      response(200).json({ autoCreate: false }),
    ),
  );
});

describe('ReferralLinksPage: Email all links', () => {
  it('starts one background run, shows its progress, and says how many were emailed and skipped', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ReferralLinksPage />);
    // It asks first, with how many members it will email (issue 25); Cancel sends nothing.
    await user.click(await screen.findByRole('button', { name: 'Email all links' }));
    const ask = await screen.findByRole('dialog', {
      name: 'Email 298 members their referral link?',
    });
    expect(ask.textContent).toContain(
      '2 members were emailed it in the last hour and are skipped.',
    );
    // One example: the email a real member gets, subject and rendered body (issue 25).
    expect(ask.textContent).toContain('Example: the email Anne-Marie Dubois will get');
    expect(ask.textContent).toContain('Subject: Your referral link for Peak Fitness');
    const frame = screen.getByTitle('Example email to Anne-Marie Dubois') as HTMLIFrameElement;
    expect(frame.getAttribute('srcdoc')).toContain('http://grove.test/referral/abc');
    expect(frame.getAttribute('sandbox')).toBe('');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Email all links' }));
    await user.click(await screen.findByRole('button', { name: 'Email 298 members' }));
    expect(
      await screen.findByRole('progressbar', { name: 'Emailing referral links' }),
    ).toBeTruthy();
    expect(screen.getByText(/Emailing links… \d+ of 300/)).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Email all links' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    await waitFor(
      () =>
        expect(
          screen.getByText(
            'Referral links emailed to 298 members (2 already emailed in the last hour).',
          ),
        ).toBeTruthy(),
      { timeout: 5_000 },
    );
    expect(screen.queryByRole('progressbar', { name: 'Emailing referral links' })).toBeNull();
    expect(posts).toBe(1);
  });
});

describe('ReferralLinksPage: members without an email', () => {
  it("shows 'No email' for a member stored without one (a Mindbody client whose email Grove refused)", async () => {
    rows = [{ memberId: 'm1', memberName: 'Nia Lee', memberEmail: '', link: null }];
    renderWithProviders(<ReferralLinksPage />);
    expect(await screen.findByText('No email')).toBeTruthy();
  });
});
