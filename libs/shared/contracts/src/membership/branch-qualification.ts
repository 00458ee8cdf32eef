/**
 * When a branch starts lowering its referrer's price (docs/product.md#branch-qualification):
 * 'approval' at once (the default), 'days' after N days as a member, 'first_payment' from a
 * Mindbody friend's first paid autopay or sale or a Stripe friend's first paid invoice (a friend
 * added by hand counts at approval: Grove cannot see their payments).
 */
export const BRANCH_QUALIFICATION_RULES = ['approval', 'days', 'first_payment'] as const;
export type BranchQualificationRule = (typeof BRANCH_QUALIFICATION_RULES)[number];

/** The 'days' rule's bounds (whole days, migration BranchQualification). */
export const BRANCH_QUALIFICATION_DAYS_MIN = 1;
export const BRANCH_QUALIFICATION_DAYS_MAX = 365;

/**
 * `GET/PUT /api/settings/branches`: the business's rule; `days` is the number of days (1–365)
 * under 'days' and null under any other rule (a PUT may leave it out).
 */
export interface BranchSettings {
  rule: BranchQualificationRule;
  days: number | null;
}

/** 400 for a rule that is none of {@link BRANCH_QUALIFICATION_RULES}. */
export const BRANCH_SETTINGS_RULE_INVALID = 'Choose when a branch starts counting';
/** 400 for 'days' without a whole number of days from 1 to 365. */
export const BRANCH_SETTINGS_DAYS_INVALID = 'Days as a member must be a whole number from 1 to 365';

/** The choices as the settings screen shows them, in order. */
export const BRANCH_QUALIFICATION_TEXT: readonly {
  rule: BranchQualificationRule;
  label: string;
  hint: string;
}[] = [
  {
    rule: 'approval',
    label: 'When I approve them',
    hint: 'The branch lowers the price as soon as it is added.',
  },
  {
    rule: 'days',
    label: 'After some days as a member',
    hint: 'The branch shows as pending until the friend has been a member this many days.',
  },
  {
    rule: 'first_payment',
    label: 'After their first payment (Mindbody or Stripe)',
    hint: 'A Mindbody friend counts from their first paid autopay or sale, a friend billed on your Stripe from their first paid invoice. Grove cannot see the payments of friends added by hand, so they count when you approve them.',
  },
];

/** True for a whole number of days the 'days' rule accepts. */
export function isValidQualificationDays(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= BRANCH_QUALIFICATION_DAYS_MIN &&
    value <= BRANCH_QUALIFICATION_DAYS_MAX
  );
}

/**
 * Checks a branch settings body (one rule for the API and the web form).
 * @returns one message per invalid field; empty when valid
 */
export function validateBranchSettings(
  input: Partial<Record<keyof BranchSettings, unknown>>,
): Partial<Record<keyof BranchSettings, string>> {
  if (!BRANCH_QUALIFICATION_RULES.includes(input.rule as BranchQualificationRule)) {
    return { rule: BRANCH_SETTINGS_RULE_INVALID };
  }
  if (input.rule === 'days' && !isValidQualificationDays(input.days)) {
    return { days: BRANCH_SETTINGS_DAYS_INVALID };
  }
  return {};
}
