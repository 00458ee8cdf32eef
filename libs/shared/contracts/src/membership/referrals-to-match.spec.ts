import { REFERRED_BY_MESSAGES, validateReferredBy } from './referrals-to-match';

describe('validateReferredBy (the "Referred by" of a member added at the desk)', () => {
  it('takes a name that matches nobody, as the desk typed it, or nothing at all', () => {
    expect(validateReferredBy({ referredByNote: 'Jenny (spin class)' })).toEqual({});
    expect(validateReferredBy({ referredByNote: 'Siobhán’s friend from Tuesday 6 a.m.' })).toEqual(
      {},
    );
    expect(validateReferredBy({})).toEqual({});
    expect(validateReferredBy({ referredByNote: '   ', referringMemberId: 'a' })).toEqual({});
    expect(validateReferredBy({ referringMemberId: 'a' })).toEqual({});
  });

  it('refuses a note that is not plain text, is too long, or comes with a picked member', () => {
    expect(validateReferredBy({ referredByNote: 'Jenny\nBcc: x' })).toEqual({
      referredByNote: REFERRED_BY_MESSAGES.noteInvalid,
    });
    expect(validateReferredBy({ referredByNote: 'é'.repeat(101) })).toEqual({
      referredByNote: REFERRED_BY_MESSAGES.noteInvalid,
    });
    expect(validateReferredBy({ referredByNote: 'é'.repeat(100) })).toEqual({});
    expect(validateReferredBy({ referredByNote: 42 })).toEqual({
      referredByNote: REFERRED_BY_MESSAGES.noteInvalid,
    });
    expect(validateReferredBy({ referredByNote: 'Jenny', referringMemberId: 'a' })).toEqual({
      referredByNote: REFERRED_BY_MESSAGES.noteWithReferrer,
    });
  });
});
