import { newReferralCode, newReferralCodes } from './referral-code';

describe('referral codes', () => {
  const urlSafe16 = /^[A-Za-z0-9_-]{16}$/;

  it('makes one 16-character URL-safe code', () => {
    expect(newReferralCode()).toMatch(urlSafe16);
  });

  it('makes a bulk write its codes at once: as many as asked, each 16 URL-safe characters, none twice', () => {
    const codes = newReferralCodes(2_000);
    expect(codes).toHaveLength(2_000);
    for (const code of codes) expect(code).toMatch(urlSafe16);
    expect(new Set(codes).size).toBe(2_000);
    expect(newReferralCodes(0)).toEqual([]);
  });
});
