import { billingStanding, type BillingFacts } from './billing-standing';

const DAY = 86_400;
const at = (iso: string) => new Date(iso);
const facts = (over: Partial<BillingFacts> = {}): BillingFacts => ({
  membersThroughGrove: 0,
  freeMembersUsedAt: null,
  countingSince: at('2026-01-01T00:00:00Z'),
  subscriptionStatus: null,
  paymentFailedAt: null,
  subscriptionEndedAt: null,
  ...over,
});
const judge = (over: Partial<BillingFacts>, now: string) =>
  billingStanding(facts(over), at(now), 14 * DAY, 2);

describe('billingStanding (docs/product.md#billing)', () => {
  it('is free, owing nothing, while fewer than 2 members arrived through Grove', () => {
    expect(judge({ membersThroughGrove: 1 }, '2027-01-01T00:00:00Z')).toEqual({
      state: 'free',
      owingSince: null,
      graceEndsAt: null,
      paused: false,
    });
  });

  it('needs a card from the 2nd arrival and pauses 14 days later, not a second before', () => {
    const arrived = { membersThroughGrove: 2, freeMembersUsedAt: at('2026-03-01T10:00:00Z') };
    const before = judge(arrived, '2026-03-15T09:59:59Z');
    expect(before).toMatchObject({ state: 'card-needed', paused: false });
    expect(before.graceEndsAt).toEqual(at('2026-03-15T10:00:00Z'));
    expect(judge(arrived, '2026-03-15T10:00:00Z').paused).toBe(true);
  });

  it('counts the grace from when billing started counting when the 2nd arrival came before it (an upgrade)', () => {
    const old = {
      membersThroughGrove: 40,
      freeMembersUsedAt: at('2024-05-01T00:00:00Z'),
      countingSince: at('2026-11-28T00:00:00Z'),
    };
    expect(judge(old, '2026-12-01T00:00:00Z')).toMatchObject({
      state: 'card-needed',
      paused: false,
    });
    expect(judge(old, '2026-12-12T00:00:00Z').paused).toBe(true);
  });

  it('is active while Stripe says active or trialing, however many members arrived', () => {
    for (const status of ['active', 'trialing'])
      expect(
        judge({ membersThroughGrove: 9, subscriptionStatus: status }, '2030-01-01T00:00:00Z'),
      ).toEqual({
        state: 'active',
        owingSince: null,
        graceEndsAt: null,
        paused: false,
      });
  });

  it('is past due from the failed payment and pauses 14 days after it', () => {
    const failing = {
      membersThroughGrove: 5,
      subscriptionStatus: 'past_due',
      paymentFailedAt: at('2026-06-10T00:00:00Z'),
    };
    expect(judge(failing, '2026-06-23T23:59:59Z')).toMatchObject({
      state: 'past-due',
      paused: false,
    });
    expect(judge(failing, '2026-06-24T00:00:00Z')).toMatchObject({
      state: 'past-due',
      paused: true,
    });
  });

  it('after a cancelled subscription ends, owes again from its end', () => {
    const ended = {
      membersThroughGrove: 5,
      freeMembersUsedAt: at('2026-02-01T00:00:00Z'),
      subscriptionStatus: 'canceled',
      subscriptionEndedAt: at('2026-09-01T00:00:00Z'),
    };
    const standing = judge(ended, '2026-09-05T00:00:00Z');
    expect(standing).toMatchObject({ state: 'card-needed', paused: false });
    expect(standing.owingSince).toEqual(at('2026-09-01T00:00:00Z'));
  });
});
