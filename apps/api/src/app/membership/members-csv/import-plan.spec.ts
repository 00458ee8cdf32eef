import {
  MEMBER_CSV_MESSAGES,
  MESSAGES,
  REFERRED_BY_MESSAGES,
  referredByWaitsMessage,
  emptyMemberCsvMapping,
  type MemberImportSettings,
} from '@grove/contracts';
import { nameKey, planImport, type ExistingMember } from './import-plan';

const mapping: MemberImportSettings = {
  mapping: {
    ...emptyMemberCsvMapping(),
    memberName: 0,
    memberEmail: 1,
    membershipPrice: 2,
    discount: 3,
    referredBy: 4,
  },
};
const member = (
  id: string,
  email: string,
  extra: Partial<ExistingMember> = {},
): ExistingMember => ({
  id,
  name: 'Old Name',
  email,
  emailKey: email.replace(/\./g, ''),
  membershipPriceCents: 1000,
  discountCents: 100,
  referredById: null,
  referredByNote: null,
  managedBy: null,
  ...extra,
});
const outcomes = (plan: ReturnType<typeof planImport>) =>
  plan.rows.map((row) => [row.outcome, ...row.messages]);

describe('planImport', () => {
  it('takes a referrer from a later row of the file', () => {
    const plan = planImport(
      [
        ['Bea Branch', 'bea@x.com', '10', '1', 'ted@x.com'],
        ['Ted Tree', 'ted@x.com', '10', '1', ''],
      ],
      mapping,
      [],
    );
    expect(outcomes(plan)).toEqual([['add'], ['add']]);
    expect(plan.referrals).toEqual([
      { emailKey: 'bea@xcom', referrerEmailKey: 'ted@xcom', previousReferrerId: null },
    ]);
  });

  it('skips a member managed by Mindbody or billed on Stripe, saying which, and refuses either as a referrer', () => {
    const existing = [
      member('m1', 'siobhan@x.com', { managedBy: 'Mindbody' }),
      member('s1', 'zoe@x.com', { managedBy: 'Stripe' }),
    ];
    const plan = planImport(
      [
        ["Siobhán O'Brien", 'siobhan@x.com', '99', '1', ''],
        ["Zoë D'Arcy-Nguyễn", 'zoe@x.com', '99', '1', ''],
        ['Ana-Sofía Quispe', 'ana@x.com', '10', '1', 'zoe@x.com'],
        ['Bo Branch', 'bo@x.com', '10', '1', 'siobhan@x.com'],
      ],
      mapping,
      existing,
    );
    expect(outcomes(plan)).toEqual([
      ['skipped', MESSAGES.managedMemberLocked],
      ['skipped', MESSAGES.stripeMemberLocked],
      ['error', MEMBER_CSV_MESSAGES.referrerStripe],
      ['error', MEMBER_CSV_MESSAGES.referrerManaged],
    ]);
    expect(plan).toMatchObject({ adds: [], updates: [], referrals: [], notes: [] });
  });

  it('refuses a member as its own referrer, a loop, and the rows hanging from a refused row', () => {
    const plan = planImport(
      [
        ['Al Self', 'al@x.com', '10', '1', 'AL@x.com'],
        ['Bo Loop', 'bo@x.com', '10', '1', 'cy@x.com'],
        ['Cy Loop', 'cy@x.com', '10', '1', 'bo@x.com'],
      ],
      mapping,
      [],
    );
    expect(outcomes(plan)).toEqual([
      ['error', MESSAGES.selfBranch],
      ['error', MEMBER_CSV_MESSAGES.referrerCycle],
      ['error', MEMBER_CSV_MESSAGES.referrerUnknown],
    ]);
    expect(plan.adds).toEqual([]);
  });

  it('refuses making an existing tree a branch of its own branch', () => {
    const tree = member('t1', 'tree@x.com');
    const branch = member('b1', 'branch@x.com', { referredById: 't1' });
    const plan = planImport([['Old Name', 'tree@x.com', '10', '1', 'branch@x.com']], mapping, [
      tree,
      branch,
    ]);
    expect(outcomes(plan)).toEqual([['error', MEMBER_CSV_MESSAGES.referrerCycle]]);
  });

  it('updates what changed, keeps a referrer the file leaves empty, and says why the price moves', () => {
    const plan = planImport(
      [
        ['Old Name', 'ann@x.com', '10', '2', ''],
        ['Old Name', 'bob@x.com', '10.00', '1', ''],
      ],
      mapping,
      [member('a', 'ann@x.com'), member('b', 'bob@x.com', { referredById: 'a' })],
    );
    expect(outcomes(plan)).toEqual([['update'], ['unchanged']]);
    expect(plan.updates).toEqual([
      expect.objectContaining({ id: 'a', discountCents: 200, priceReason: 'discount_changed' }),
    ]);
    expect(plan.referrals).toEqual([]);
  });

  it('numbers rows by their file lines when given', () => {
    const plan = planImport([['Ann Lee', 'bad', '1', '1', '']], mapping, [], [7]);
    expect(plan.rows[0]).toMatchObject({
      line: 7,
      outcome: 'error',
      messages: [MESSAGES.invalidEmail],
    });
  });

  describe('spreadsheets as owners have them (issue 25, Build 6)', () => {
    /** First Name, Last Name, Email, Price, Referred By: an Excel export without a discount column. */
    const excel: MemberImportSettings = {
      mapping: {
        ...emptyMemberCsvMapping(),
        firstName: 0,
        lastName: 1,
        memberEmail: 2,
        membershipPrice: 3,
        referredBy: 4,
      },
      discountForEveryRow: '5.00',
    };

    it('joins first and last names, reads "$1,059.00" and "59,00 €", and gives every row the typed discount', () => {
      const plan = planImport(
        [
          ['Siobhán', "O'Brien", 'siobhan@x.com', '$1,059.00', ''],
          ['Anne-Marie', 'Dubois', 'am@x.com', '59,00 €', ''],
          ['Cher', '', 'cher@x.com', '£49', ''],
          ['Bad', 'Price', 'bad@x.com', '$59.999', ''],
        ],
        excel,
        [],
      );
      expect(outcomes(plan)).toEqual([
        ['add'],
        ['add'],
        ['add'],
        ['error', MESSAGES.invalidAmount],
      ]);
      expect(plan.adds).toEqual([
        expect.objectContaining({
          name: "Siobhán O'Brien",
          membershipPriceCents: 105_900,
          discountCents: 500,
        }),
        expect.objectContaining({ name: 'Anne-Marie Dubois', membershipPriceCents: 5_900 }),
        expect.objectContaining({ name: 'Cher', membershipPriceCents: 4_900 }),
      ]);
    });

    it('reads "1,059" by the locale given: 1059 dollars in en-US, three decimals in de-DE', () => {
      const rows = [['Ann', 'Lee', 'ann@x.com', '1,059', '']];
      expect(planImport(rows, { ...excel, locale: 'en-US' }, []).adds[0]).toMatchObject({
        membershipPriceCents: 105_900,
      });
      expect(outcomes(planImport(rows, { ...excel, locale: 'de-DE' }, []))).toEqual([
        ['error', MESSAGES.invalidAmount],
      ]);
    });

    it('matches a referrer by name, case-insensitively, to a member or a row of the file in any order', () => {
      const plan = planImport(
        [
          ['Ben', "O'Connor", 'ben@x.com', '59', 'siobhán o’brien'],
          ['Siobhán', "O'Brien", 'siobhan@x.com', '59', ''],
          ['Cy', 'Dee', 'cy@x.com', '59', '  OLD   NAME '],
          ['Di', 'Ek', 'di@x.com', '59', 'ann@x.com'],
        ],
        excel,
        [member('a', 'ann@x.com')],
      );
      expect(outcomes(plan)).toEqual([['add'], ['add'], ['add'], ['add']]);
      expect(plan.referrals).toEqual([
        { emailKey: 'ben@xcom', referrerEmailKey: 'siobhan@xcom', previousReferrerId: null },
        { emailKey: 'cy@xcom', referrerEmailKey: 'ann@xcom', previousReferrerId: null },
        { emailKey: 'di@xcom', referrerEmailKey: 'ann@xcom', previousReferrerId: null },
      ]);
    });

    it('imports a row whose referrer name is shared by several members or names no one, the name kept to wait in Referrals to match (issue 33 item 4)', () => {
      const plan = planImport(
        [
          ['Sam', 'Lee', 'sam2@x.com', '59', ''],
          ['Jo', 'Ray', 'jo@x.com', '59', 'Sam Lee'],
          ['Kim', 'Lo', 'kim@x.com', '59', 'Jenny (spin class)'],
          ['Lu', 'Mo', 'lu@x.com', '59', 'Jo Ray'],
          ['Max', 'No', 'max@x.com', '59', 'x'.repeat(101)],
        ],
        excel,
        [member('s1', 'sam1@x.com', { name: 'Sam Lee' })],
      );
      expect(outcomes(plan)).toEqual([
        ['add'],
        ['add', referredByWaitsMessage('Sam Lee', true)],
        ['add', referredByWaitsMessage('Jenny (spin class)')],
        ['add'],
        // Not a note Referrals to match takes: over 100 characters.
        ['error', REFERRED_BY_MESSAGES.noteInvalid],
      ]);
      expect(plan.referrals).toEqual([
        { emailKey: 'lu@xcom', referrerEmailKey: 'jo@xcom', previousReferrerId: null },
      ]);
      expect(plan.notes).toEqual([
        { emailKey: 'jo@xcom', note: 'Sam Lee' },
        { emailKey: 'kim@xcom', note: 'Jenny (spin class)' },
      ]);
    });

    it('keeps a note only for a member without a referrer, and finds the same note unchanged', () => {
      const plan = planImport(
        [
          ['Old Name', '', 'ann@x.com', '10', 'Jenny (spin class)'],
          ['Old Name', '', 'bo@x.com', '10', 'Jenny (spin class)'],
          ['Old Name', '', 'cy@x.com', '10', 'Jenny (spin class)'],
        ],
        { ...excel, discountForEveryRow: '1.00' },
        [
          member('a', 'ann@x.com', { referredByNote: 'Jenny (spin class)' }),
          member('b', 'bo@x.com', { referredById: 'a' }),
          member('c', 'cy@x.com'),
        ],
      );
      expect(outcomes(plan)).toEqual([
        ['unchanged', referredByWaitsMessage('Jenny (spin class)')],
        ['unchanged'],
        ['update', referredByWaitsMessage('Jenny (spin class)')],
      ]);
      expect(plan.notes).toEqual([{ emailKey: 'cy@xcom', note: 'Jenny (spin class)' }]);
    });

    it('names members as the file renames them, sets the row itself aside, and keeps an email match by key', () => {
      const plan = planImport(
        [
          ['New', 'Name', 'ann@x.com', '10', ''],
          ['Bo', 'Self', 'bo@x.com', '59', 'Bo Self'],
          ['Cy', 'Dee', 'cy@x.com', '59', 'new name'],
          ['Di', 'Ek', 'di@x.com', '59', 'Old Name'],
          ['Ed', 'Fo', 'ed@x.com', '59', 'A.NN@X.COM'],
        ],
        excel,
        [member('a', 'ann@x.com')],
      );
      expect(outcomes(plan)).toEqual([
        ['update'],
        ['error', MESSAGES.selfBranch],
        ['add'],
        // The file renames "Old Name": no member has that name any more.
        ['add', referredByWaitsMessage('Old Name')],
        ['add'],
      ]);
      expect(plan.referrals.map((referral) => referral.referrerEmailKey)).toEqual([
        'ann@xcom',
        'ann@xcom',
      ]);
    });

    it('compares names as people write them', () => {
      expect(nameKey('  Siobhán   O’Brien ')).toBe(nameKey("siobhán o'brien"));
      expect(nameKey('Sio\u0062ha\u0301n')).toBe(nameKey('Siobhán'));
    });
  });
});
