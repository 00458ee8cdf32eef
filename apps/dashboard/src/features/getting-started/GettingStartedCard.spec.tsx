import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { GettingStarted } from '@grove/contracts';
import { membersKey } from '@grove/web-data-access';
import { http, renderWithProviders, server } from '@grove/web-testing';
import { GettingStartedCard } from './GettingStartedCard';

/** A fake API holding the business's checklist, and the bodies of the PUTs it received. */
let stored: GettingStarted;
let reads: number;
let puts: unknown[];
beforeEach(() => {
  stored = {
    steps: { discount: false, members: false, billing: false, links: false },
    dismissed: false,
  };
  reads = 0;
  puts = [];
  server.use(
    http.get('/getting-started', ({ response }) => {
      reads += 1;
      return response(200).json(stored);
    }),
    http.put('/getting-started', async ({ request, response }) => {
      const body = await request.json();
      puts.push(body);
      stored = { ...stored, dismissed: body.dismissed };
      return response(200).json(stored);
    }),
  );
});

const renderCard = () => renderWithProviders(<GettingStartedCard />);

const step = (name: string) => screen.getByTestId(`getting-started-${name}`);

describe('GettingStartedCard (docs/product.md#getting-started)', () => {
  it('lists the four steps, each linking to where it is done, none ticked for a new business', async () => {
    renderCard();
    expect(await screen.findByRole('heading', { name: 'Getting started' })).toBeTruthy();
    expect(screen.getByText('0 of 4 done')).toBeTruthy();
    const href = (name: string) => screen.getByRole('link', { name }).getAttribute('href');
    expect(href('Set your discount')).toBe('/dashboard/account-settings/members#member-defaults');
    expect(href('Add or import members')).toBe('#add-new-tree');
    // Where the members are billed: Mindbody or Stripe (issue 32), side by side in one step.
    expect(href('Connect Mindbody')).toBe('/mindbody-setup');
    expect(href('Connect Stripe')).toBe('/stripe-setup');
    expect(step('billing').textContent).toContain('Connect Mindbody or Stripe');
    expect(href('Share referral links')).toBe('/referral-links');
    for (const name of ['discount', 'members', 'billing', 'links'])
      expect(step(name).dataset.done).toBe('false');
  });

  it('ticks a step when the API finds it done (after a member change) and goes away when all are', async () => {
    const { client } = renderCard();
    await screen.findByText('0 of 4 done');
    stored = { ...stored, steps: { ...stored.steps, discount: true, members: true } };
    await act(() => client.invalidateQueries({ queryKey: membersKey }));
    expect(await screen.findByText('2 of 4 done')).toBeTruthy();
    expect(step('discount').dataset.done).toBe('true');
    expect(step('discount').textContent).toContain('✓');
    expect(step('billing').textContent).not.toContain('✓');

    stored = { ...stored, steps: { discount: true, members: true, billing: true, links: true } };
    await act(() => client.invalidateQueries({ queryKey: membersKey }));
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Getting started' })).toBeNull(),
    );
  });

  it('Hide checklist stores the dismissal and the card goes', async () => {
    const user = userEvent.setup();
    renderCard();
    await user.click(await screen.findByRole('button', { name: 'Hide checklist' }));
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Getting started' })).toBeNull(),
    );
    expect(stored.dismissed).toBe(true);
    expect(puts).toEqual([{ dismissed: true }]);
  });

  it('shows nothing once dismissed', async () => {
    stored = { ...stored, dismissed: true };
    renderCard();
    await waitFor(() => expect(reads).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('heading', { name: 'Getting started' })).toBeNull();
  });
});
