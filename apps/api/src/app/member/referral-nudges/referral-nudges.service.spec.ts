import { nudgeMonth, summaryFigures } from './referral-nudges.service';

const referrer = {
  memberId: 'm-1',
  name: 'Grace Mwangi',
  joinedAt: new Date('2026-09-01T00:00:00Z'),
  membershipPriceCents: 8_000,
  discountCents: 1_250,
  countingBranches: 2,
};

describe('summaryFigures (docs/product.md#referral-nudges, the price rule of membership/pricing)', () => {
  it('2 counting branches at $12.50 off $80.00: saved $25.00, pays $55.00, one more friend → $42.50', () => {
    expect(summaryFigures(referrer)).toEqual({
      countingBranches: 2,
      savedThisMonthCents: 2_500,
      priceNowCents: 5_500,
      priceWithOneMoreCents: 4_250,
    });
  });

  it('stops at $0: the saving is the whole price and one more friend changes nothing', () => {
    expect(summaryFigures({ ...referrer, countingBranches: 7 })).toEqual({
      countingBranches: 7,
      savedThisMonthCents: 8_000,
      priceNowCents: 0,
      priceWithOneMoreCents: 0,
    });
  });
});

describe('nudgeMonth', () => {
  it('is the calendar month in UTC, whatever the local time', () => {
    expect(nudgeMonth(new Date('2026-12-31T23:59:59Z'))).toEqual({
      monthStart: new Date('2026-12-01T00:00:00Z'),
      period: '2026-12',
    });
    expect(nudgeMonth(new Date('2027-01-01T00:00:00Z')).period).toBe('2027-01');
  });
});
