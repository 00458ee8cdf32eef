import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MemberEmailSettings } from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { MemberEmailsCard } from './MemberEmailsCard';

/** A fake API holding the business's settings. */
let stored: MemberEmailSettings;
beforeEach(() => {
  stored = { friendJoined: true, branchCounting: true, branchEnded: true, welcome: true };
  server.use(
    http.get('/settings/member-emails', ({ response }) => response(200).json(stored)),
    http.put('/settings/member-emails', async ({ request, response }) => {
      stored = await request.json();
      return response(200).json(stored);
    }),
  );
});

const renderCard = (businessName?: string) =>
  renderWithProviders(<MemberEmailsCard businessName={businessName} />);

describe('MemberEmailsCard', () => {
  it("names the owner's own business in the welcome example, never another's", async () => {
    renderCard("O'Brien's Boxing");
    expect(
      await screen.findByText("“Welcome to O'Brien's Boxing”, with a link to their own page"),
    ).toBeTruthy();
    expect(screen.queryByText(/Green Valley Fitness/)).toBeNull();
  });

  it('shows each email with what it says, all on, and saves a box the owner turns off', async () => {
    const user = userEvent.setup();
    renderCard();
    const joined = (await screen.findByRole('checkbox', {
      name: /A friend joined with their link/,
    })) as HTMLInputElement;
    expect(joined.checked).toBe(true);
    expect(screen.getByText('“Sam joined with your link”')).toBeTruthy();
    expect(screen.getAllByRole('checkbox')).toHaveLength(4);

    await user.click(screen.getByRole('checkbox', { name: /Welcome the approved friend/ }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(stored).toEqual({
      friendJoined: true,
      branchCounting: true,
      branchEnded: true,
      welcome: false,
    });
    await waitFor(() =>
      expect(
        (screen.getByRole('checkbox', { name: /Welcome the approved friend/ }) as HTMLInputElement)
          .checked,
      ).toBe(false),
    );
  });

  it('says why when saving fails', async () => {
    const user = userEvent.setup();
    renderCard();
    server.use(
      http.put('/settings/member-emails', () =>
        apiError(400, 'Each email setting must be on or off'),
      ),
    );
    await user.click(await screen.findByRole('checkbox', { name: /A branch stopped counting/ }));
    expect(await screen.findByText('Each email setting must be on or off')).toBeTruthy();
    expect(screen.queryByText('Saved')).toBeNull();
    // The refused choice is put back.
    expect(
      (screen.getByRole('checkbox', { name: /A branch stopped counting/ }) as HTMLInputElement)
        .checked,
    ).toBe(true);
  });
});
