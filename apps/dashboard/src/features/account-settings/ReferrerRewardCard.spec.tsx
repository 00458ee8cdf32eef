import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  DEFAULT_REFERRER_REWARD,
  REFERRER_REWARD_MESSAGES,
  type ReferrerReward,
} from '@grove/contracts';
import { apiError, http, renderWithProviders, server } from '@grove/web-testing';
import { ReferrerRewardCard } from './ReferrerRewardCard';

/** A fake API holding the business's referrer reward. */
let stored: ReferrerReward;
const puts: unknown[] = [];
let fail = false;
beforeEach(() => {
  stored = DEFAULT_REFERRER_REWARD;
  puts.length = 0;
  fail = false;
  server.use(
    http.get('/settings/referrer-reward', ({ response }) =>
      fail ? apiError(500, 'Something went wrong') : response(200).json(stored),
    ),
    http.put('/settings/referrer-reward', async ({ request, response }) => {
      const body = (await request.json()) as ReferrerReward;
      puts.push(body);
      stored = body;
      return response(200).json(stored);
    }),
  );
});

const preview = () => screen.getByTestId('referrer-reward-preview').textContent;

describe('ReferrerRewardCard (docs/product.md#referrer-reward)', () => {
  it('saves a cap on the ongoing discount in percent and cents', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ReferrerRewardCard />);
    const percent = await screen.findByLabelText('Most a member can save, % of their price');
    expect((percent as HTMLInputElement).value).toBe('100');
    await user.clear(percent);
    await user.type(percent, '50');
    await user.type(screen.getByLabelText('Yearly cap (optional)'), '240');
    await user.click(screen.getByRole('button', { name: 'Save reward' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(puts).toEqual([{ ...DEFAULT_REFERRER_REWARD, capPercent: 50, yearlyCapCents: 24_000 }]);
  });

  it('offers every kind, and saves a one-off credit with the most friends rewarded a year', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ReferrerRewardCard />);
    const kind = (await screen.findByLabelText('Reward')) as HTMLSelectElement;
    expect([...kind.options].map((option) => option.value)).toEqual([
      'discount',
      'credit',
      'free',
      'gift',
    ]);
    await user.selectOptions(kind, 'credit');
    await user.type(screen.getByLabelText('Credit per friend'), '25');
    await user.type(screen.getByLabelText('Most friends rewarded a year (optional)'), '3');
    expect(preview()).toBe('A $25 credit per friend');
    await user.click(screen.getByRole('button', { name: 'Save reward' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(puts).toEqual([
      { ...DEFAULT_REFERRER_REWARD, kind: 'credit', creditCents: 2_500, maxBranchesPerYear: 3 },
    ]);
  });

  it('refuses a most-friends cap that is not a whole number from 1, before sending', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ReferrerRewardCard />);
    await user.type(await screen.findByLabelText('Most friends rewarded a year (optional)'), '0');
    await user.click(screen.getByRole('button', { name: 'Save reward' }));
    expect(await screen.findByText(REFERRER_REWARD_MESSAGES.maxBranches)).toBeTruthy();
    expect(puts).toEqual([]);
  });

  it('shows a saved free period, previews it and refuses a bad one before sending', async () => {
    stored = { ...DEFAULT_REFERRER_REWARD, kind: 'free', freeCount: 1, freeUnit: 'month' };
    const user = userEvent.setup();
    renderWithProviders(<ReferrerRewardCard />);
    const kind = (await screen.findByLabelText('Reward')) as HTMLSelectElement;
    expect(kind.value).toBe('free');
    const count = screen.getByLabelText('Free per friend');
    await user.clear(count);
    await user.type(count, '2');
    await user.selectOptions(screen.getByLabelText('Unit'), 'week');
    expect(preview()).toBe('2 weeks free per friend');
    await user.clear(count);
    await user.type(count, '60');
    await user.click(screen.getByRole('button', { name: 'Save reward' }));
    expect(await screen.findByText(REFERRER_REWARD_MESSAGES.free)).toBeTruthy();
    expect(puts).toEqual([]);
  });

  it('shows the error when the reward cannot be read', async () => {
    fail = true;
    renderWithProviders(<ReferrerRewardCard />);
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });
});
