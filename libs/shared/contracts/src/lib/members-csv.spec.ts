import { guessMemberCsvMapping, missingMemberCsvFields, MEMBER_EXPORT_HEADER } from './members-csv';

describe('members CSV rules', () => {
  it('guesses common headers, keeping the referrer apart from the member email', () => {
    expect(
      guessMemberCsvMapping(['Referrer email', 'E-mail address', 'Full name', 'Fee', 'Discount']),
    ).toEqual({
      referrerEmail: 0,
      memberEmail: 1,
      memberName: 2,
      membershipPrice: 3,
      discount: 4,
    });
  });

  it('maps an export back to the fields it came from, never from the new price', () => {
    expect(guessMemberCsvMapping([...MEMBER_EXPORT_HEADER])).toEqual({
      memberName: 0,
      memberEmail: 1,
      membershipPrice: 3,
      discount: 4,
      referrerEmail: 7,
    });
  });

  it('leaves unknown headers unmapped and says which fields are missing', () => {
    const mapping = guessMemberCsvMapping(['Notes', 'Email']);
    expect(mapping).toMatchObject({ memberEmail: 1, memberName: null });
    expect(missingMemberCsvFields(mapping)).toEqual(['memberName', 'membershipPrice', 'discount']);
  });
});
