import { MEMBER_CSV_MESSAGES, MESSAGES, type MemberCsvMapping } from '@grove/contracts';
import { planImport, type ExistingMember } from './import-plan';

const mapping: MemberCsvMapping = {
  memberName: 0,
  memberEmail: 1,
  membershipPrice: 2,
  discount: 3,
  referrerEmail: 4,
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
  managed: false,
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
});
