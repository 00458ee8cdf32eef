import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Schema } from '@grove/api-contract';
import type { ReferrerRewardOwed, StaffRole } from '@grove/contracts';
import { sessionKey } from '@grove/web-data-access';
import { createTestQueryClient, http, renderWithProviders, server } from '@grove/web-testing';
import { RewardsToHonour } from './RewardsToHonour';

const owed = (id: string, branchName: string, fields: Partial<ReferrerRewardOwed> = {}) => ({
  id,
  referrerId: 'm-1',
  referrerName: "Siobhán O'Brien",
  branchId: `b-${id}`,
  branchName,
  wording: 'A $25 credit',
  capped: false,
  countedAt: '2026-11-28T10:00:00.000Z',
  honouredAt: null,
  ...fields,
});

let items: ReferrerRewardOwed[];
let marked: string[];
let reads: number;
beforeEach(() => {
  marked = [];
  reads = 0;
  items = [owed('r-1', "Zoë D'Arcy-Nguyễn"), owed('r-2', 'Ana-Sofía Pérez', { capped: true })];
  server.use(
    http.get('/referrer-rewards', ({ response }) => {
      reads += 1;
      return response(200).json({ items });
    }),
    http.post('/referrer-rewards/{id}/honoured', ({ params, response }) => {
      marked.push(params.id);
      items = items.map((item) =>
        item.id === params.id ? { ...item, honouredAt: '2026-11-29T09:00:00.000Z' } : item,
      );
      return response(200).json(items.find((item) => item.id === params.id)!);
    }),
  );
});

const renderAs = (role: StaffRole) => {
  const client = createTestQueryClient();
  client.setQueryData(sessionKey, { role } as Schema<'SessionUser'>);
  renderWithProviders(<RewardsToHonour />, { client });
};

describe('Rewards to honour (docs/product.md#referrer-reward)', () => {
  it('lists each reward with its referrer and friend, marks one honoured, and shows the capped one as owing nothing', async () => {
    const user = userEvent.setup();
    renderAs('front_desk');
    const [zoe, ana] = await screen.findAllByTestId('reward-owed-row');
    expect(zoe.textContent).toContain("Siobhán O'Brien");
    expect(zoe.textContent).toContain("Zoë D'Arcy-Nguyễn");
    expect(zoe.textContent).toContain('A $25 credit');
    expect(within(ana).getByText('Capped: nothing owed')).toBeTruthy();
    expect(within(ana).queryByRole('button')).toBeNull();
    expect(
      screen.getByText(
        '1 reward is owed to members for the friends they brought. Give each one, then mark it honoured.',
      ),
    ).toBeTruthy();
    await user.click(
      screen.getByRole('button', {
        name: "Mark Siobhán O'Brien’s reward for Zoë D'Arcy-Nguyễn honoured",
      }),
    );
    expect(await screen.findByText('Every reward has been honoured.')).toBeTruthy();
    expect(marked).toEqual(['r-1']);
  });

  it('offers a viewer the list without Mark honoured', async () => {
    renderAs('viewer');
    await screen.findAllByTestId('reward-owed-row');
    expect(screen.queryByRole('button', { name: /Mark .* honoured/ })).toBeNull();
  });

  it('shows nothing while no reward was ever owed', async () => {
    items = [];
    renderAs('owner');
    await waitFor(() => expect(reads).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText('Rewards to honour')).toBeNull();
  });
});
