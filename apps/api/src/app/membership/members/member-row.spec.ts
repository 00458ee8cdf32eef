import { memberStatus, toMemberRow, type MemberSummary } from './member-row';

const member = (overrides: Partial<MemberSummary> = {}): MemberSummary => ({
  id: 'm1',
  name: 'Alex Smith',
  email: 'alex@example.com',
  membershipPriceCents: 10_000,
  discountCents: 1_500,
  referredById: null,
  mindbodyClientId: null,
  branchCount: 0,
  state: { counting: false, ended: false, suspended: false },
  ...overrides,
});

describe('toMemberRow (docs/product.md#screens, docs/product.md#entities, docs/product.md#states, docs/product.md#constants)', () => {
  it('maps a fresh tree: 0 branches, full price, Active, not managed', () => {
    expect(toMemberRow(member(), [])).toEqual({
      id: 'm1',
      memberName: 'Alex Smith',
      memberEmail: 'alex@example.com',
      membershipPriceCents: 10_000,
      discountCents: 1_500,
      branches: 0,
      branchDetails: [],
      newPriceCents: 10_000,
      status: 'Active',
      managedByIntegration: null,
      referringMemberId: null,
    });
  });

  it('subtracts the discount once per branch, floored at 0', () => {
    const branches = [
      { id: 'b1', branchName: 'Bo', branchEmail: 'bo@x.com', status: 'Active' as const },
    ];
    expect(toMemberRow(member({ branchCount: 1 }), branches).newPriceCents).toBe(8_500);
    expect(toMemberRow(member({ branchCount: 7 }), []).newPriceCents).toBe(0);
    expect(toMemberRow(member({ branchCount: 1 }), branches).branchDetails).toBe(branches);
  });

  it('shows Mindbody rows as managed at the unchanged membership price', () => {
    const row = toMemberRow(member({ mindbodyClientId: 'MB-7', branchCount: 3 }), []);
    expect(row.managedByIntegration).toBe('Mindbody');
    expect(row.newPriceCents).toBe(10_000);
    expect(row.branches).toBe(3);
  });

  it("shows the integration's discountOnReferral on Mindbody rows, not the member's own (docs/product.md#constants)", () => {
    const managed = toMemberRow(
      member({ mindbodyClientId: 'MB-7', integrationDiscountCents: 750 }),
      [],
    );
    expect(managed.discountCents).toBe(750);
    expect(
      toMemberRow(member({ mindbodyClientId: 'MB-7', integrationDiscountCents: null }), [])
        .discountCents,
    ).toBe(0);
    expect(toMemberRow(member({ integrationDiscountCents: 750 }), []).discountCents).toBe(1_500);
  });

  it("shows a Stripe-billed member as managed by Stripe: the subscription's price and currency, the Stripe discount (issue 32)", () => {
    const row = toMemberRow(
      member({
        membershipPriceCents: 6_000,
        discountCents: 0,
        branchCount: 2,
        stripeBilling: 'running',
        stripeCurrency: 'eur',
        stripeDiscountCents: 1_000,
      }),
      [],
    );
    expect(row).toMatchObject({
      managedByIntegration: 'Stripe',
      currency: 'EUR',
      membershipPriceCents: 6_000,
      newPriceCents: 6_000,
      discountCents: 1_000,
      status: 'Active',
    });
    expect(row.rewardCapped).toBeUndefined();
    // Not saved yet: $0; a member kept by hand has no currency of its own.
    expect(
      toMemberRow(member({ stripeBilling: 'running', stripeCurrency: 'eur' }), []).discountCents,
    ).toBe(0);
    expect(toMemberRow(member(), []).currency).toBeUndefined();
  });

  it('names the tree a branch belongs to', () => {
    expect(toMemberRow(member({ referredById: 'root' }), []).referringMemberId).toBe('root');
  });
});

describe('toMemberRow: a Mindbody membership without a price', () => {
  it('flags a managed member whose price is pending, and only then', () => {
    const pending = member({
      mindbodyClientId: '100001',
      membershipPriceCents: 0,
      mindbodyPriceState: 'pending',
    });
    expect(toMemberRow(pending, []).membershipPricePending).toBe(true);
    expect(toMemberRow(pending, [])).not.toHaveProperty('noAutopayContract');
    expect(toMemberRow({ ...pending, mindbodyPriceState: null }, [])).not.toHaveProperty(
      'membershipPricePending',
    );
    // A hand-managed member always has its owner's price.
    expect(toMemberRow(member({ mindbodyPriceState: 'pending' }), [])).not.toHaveProperty(
      'membershipPricePending',
    );
  });

  it('flags a managed member without an autopay contract, and only then', () => {
    const none = member({
      mindbodyClientId: '100002',
      membershipPriceCents: 0,
      mindbodyPriceState: 'no-autopay',
    });
    expect(toMemberRow(none, []).noAutopayContract).toBe(true);
    expect(toMemberRow(none, [])).not.toHaveProperty('membershipPricePending');
    expect(toMemberRow({ ...none, mindbodyPriceState: null }, [])).not.toHaveProperty(
      'noAutopayContract',
    );
    expect(toMemberRow(member({ mindbodyPriceState: 'no-autopay' }), [])).not.toHaveProperty(
      'noAutopayContract',
    );
  });

  it('flags a managed member whose membership has ended, and only then', () => {
    const ended = member({
      mindbodyClientId: '100003',
      membershipPriceCents: 8_900,
      mindbodyPriceState: 'ended',
    });
    const row = toMemberRow({ ...ended, state: { ...ended.state, ended: true } }, []);
    expect(row.membershipEnded).toBe(true);
    expect(row.status).toBe('Ended');
    expect(row).not.toHaveProperty('membershipPricePending');
    expect(row).not.toHaveProperty('noAutopayContract');
    expect(toMemberRow(member({ mindbodyPriceState: 'ended' }), [])).not.toHaveProperty(
      'membershipEnded',
    );
  });
});

describe('memberStatus: the Status column tells the truth (docs/product.md#states)', () => {
  const facts = { isBranch: false, counting: false, ended: false, suspended: false };

  it("a tree that is nobody's branch, and a branch that counts, are Active", () => {
    expect(memberStatus(facts)).toBe('Active');
    expect(memberStatus({ ...facts, isBranch: true, counting: true })).toBe('Active');
  });

  it('a branch the rule has not started counting yet is Pending', () => {
    expect(memberStatus({ ...facts, isBranch: true })).toBe('Pending');
  });

  it('an ended Mindbody membership is Ended, a suspended one Suspended, branch or not', () => {
    expect(memberStatus({ ...facts, ended: true })).toBe('Ended');
    expect(memberStatus({ ...facts, isBranch: true, ended: true, suspended: true })).toBe('Ended');
    expect(memberStatus({ ...facts, suspended: true })).toBe('Suspended');
    expect(memberStatus({ ...facts, isBranch: true, suspended: true })).toBe('Suspended');
  });

  it('the row of an imported member whose membership ended says Ended, not Active, next to its price', () => {
    const row = toMemberRow(
      member({
        mindbodyClientId: '100009',
        mindbodyPriceState: 'ended',
        state: { counting: false, ended: true, suspended: false },
      }),
      [],
    );
    expect([row.membershipEnded, row.status]).toEqual([true, 'Ended']);
    expect(
      toMemberRow(
        member({
          referredById: 'root',
          state: { counting: false, ended: false, suspended: false },
        }),
        [],
      ).status,
    ).toBe('Pending');
  });
});
