import { targetAutopayCents } from './price';

const member = (overrides: Partial<Parameters<typeof targetAutopayCents>[0]> = {}) => ({
  memberId: 'm1',
  clientId: '100001',
  membershipPriceCents: 8_900,
  autopayCents: 8_900,
  branches: 0,
  isBranch: false,
  ...overrides,
});

describe('targetAutopayCents (docs/product.md#constants on the Mindbody bill)', () => {
  it('takes the referral discount once per counting branch', () => {
    expect(targetAutopayCents(member({ branches: 3 }), 1_000, 500)).toBe(5_900);
  });

  it('takes the referee discount from a referred member, on top of their own referrals', () => {
    expect(targetAutopayCents(member({ isBranch: true }), 1_000, 550)).toBe(8_350);
    expect(targetAutopayCents(member({ isBranch: true, branches: 1 }), 1_000, 550)).toBe(7_350);
  });

  it('never goes below zero and leaves an unreferred member at their price', () => {
    expect(targetAutopayCents(member({ branches: 20 }), 1_000, 0)).toBe(0);
    expect(targetAutopayCents(member(), 1_000, 500)).toBe(8_900);
  });
});
