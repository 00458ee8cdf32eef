import {
  emptyMemberCsvMapping,
  guessMemberCsvMapping,
  missingMemberCsvFields,
  MEMBER_EXPORT_HEADER,
  MEMBER_IMPORT_TEMPLATE_HEADER,
} from './members-csv';

describe('members CSV rules', () => {
  it('guesses common headers, keeping the referrer apart from the member email', () => {
    expect(
      guessMemberCsvMapping(['Referrer email', 'E-mail address', 'Full name', 'Fee', 'Discount']),
    ).toEqual({
      ...emptyMemberCsvMapping(),
      referredBy: 0,
      memberEmail: 1,
      memberName: 2,
      membershipPrice: 3,
      discount: 4,
    });
  });

  it('guesses an Excel file’s First Name / Last Name and a Referred By column of names', () => {
    expect(
      guessMemberCsvMapping(['First Name', 'Last Name', 'Email', 'Price', 'Referred By', 'Notes']),
    ).toEqual({
      memberName: null,
      firstName: 0,
      lastName: 1,
      memberEmail: 2,
      membershipPrice: 3,
      discount: null,
      referredBy: 4,
    });
    expect(guessMemberCsvMapping(['Given name', 'Surname', 'E-mail'])).toMatchObject({
      firstName: 0,
      lastName: 1,
      memberName: null,
    });
    expect(guessMemberCsvMapping(['Last visit', 'Family Name', 'Name'])).toMatchObject({
      lastName: 1,
      memberName: null,
    });
  });

  it('maps the template’s every column', () => {
    expect(guessMemberCsvMapping([...MEMBER_IMPORT_TEMPLATE_HEADER])).toEqual({
      memberName: null,
      firstName: 0,
      lastName: 1,
      memberEmail: 2,
      membershipPrice: 3,
      discount: 4,
      referredBy: 5,
    });
  });

  it('maps an export back to the fields it came from, never from the new price or the currency', () => {
    expect(guessMemberCsvMapping([...MEMBER_EXPORT_HEADER])).toEqual({
      ...emptyMemberCsvMapping(),
      memberName: 0,
      memberEmail: 1,
      membershipPrice: 3,
      discount: 4,
      referredBy: 8,
    });
  });

  it('leaves unknown headers unmapped and says which fields are missing', () => {
    const mapping = guessMemberCsvMapping(['Notes', 'Email']);
    expect(mapping).toMatchObject({ memberEmail: 1, memberName: null });
    expect(missingMemberCsvFields(mapping)).toEqual(['memberName', 'membershipPrice', 'discount']);
  });

  it('takes a first or last name column for the name, and one discount for every row for the discount column', () => {
    const mapping = { ...emptyMemberCsvMapping(), memberEmail: 0, membershipPrice: 1 };
    expect(missingMemberCsvFields({ ...mapping, firstName: 2 })).toEqual(['discount']);
    expect(missingMemberCsvFields({ ...mapping, lastName: 2 }, '5')).toEqual([]);
    expect(missingMemberCsvFields({ ...mapping, memberName: 2 }, '  ')).toEqual(['discount']);
  });
});
