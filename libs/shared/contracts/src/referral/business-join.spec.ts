import { MESSAGES } from '../common/messages';
import { BUSINESS_JOIN_TEXTS, businessJoinUrl, validateBusinessJoin } from './business-join';

describe('validateBusinessJoin', () => {
  const friend = { name: 'Zoë D’Arcy-Nguyễn', email: 'zoe@example.vn' };

  it('takes a friend with or without "Who referred you?"', () => {
    expect(validateBusinessJoin(friend)).toEqual({});
    expect(validateBusinessJoin({ ...friend, referredBy: '' })).toEqual({});
    expect(validateBusinessJoin({ ...friend, referredBy: '   ' })).toEqual({});
    expect(validateBusinessJoin({ ...friend, referredBy: 'Jenny (spin class)' })).toEqual({});
    expect(validateBusinessJoin({ ...friend, referredBy: 'S'.repeat(100) })).toEqual({});
  });

  it('refuses an answer over 100 characters, with a control character, or not text', () => {
    for (const referredBy of ['S'.repeat(101), 'Jenny\u202Eevil', 'Jenny\nSmith', 42]) {
      expect(validateBusinessJoin({ ...friend, referredBy })).toEqual({
        referredBy: BUSINESS_JOIN_TEXTS.referredByInvalid,
      });
    }
  });

  it("keeps the referral join's name and email rules", () => {
    expect(validateBusinessJoin({ name: '', email: 'zoe@', referredBy: 'Jenny' })).toEqual({
      name: MESSAGES.invalidName,
      email: MESSAGES.invalidEmail,
    });
  });
});

describe('businessJoinUrl', () => {
  it('spells the join page on the public origin', () => {
    expect(businessJoinUrl('https://grove.example.com', 'ab12')).toBe(
      'https://grove.example.com/join/ab12',
    );
  });
});
