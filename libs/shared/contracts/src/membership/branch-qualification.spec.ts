import {
  BRANCH_SETTINGS_DAYS_INVALID,
  BRANCH_SETTINGS_RULE_INVALID,
  validateBranchSettings,
} from './branch-qualification';

describe('validateBranchSettings (docs/product.md#branch-qualification)', () => {
  it('accepts each rule, days only mattering under the days rule', () => {
    expect(validateBranchSettings({ rule: 'approval' })).toEqual({});
    expect(validateBranchSettings({ rule: 'first_payment', days: null })).toEqual({});
    expect(validateBranchSettings({ rule: 'days', days: 1 })).toEqual({});
    expect(validateBranchSettings({ rule: 'days', days: 365 })).toEqual({});
  });

  it('refuses an unknown rule with its message', () => {
    for (const rule of [undefined, '', 'weekly', 'Approval', 1]) {
      expect(validateBranchSettings({ rule })).toEqual({ rule: BRANCH_SETTINGS_RULE_INVALID });
    }
  });

  it('refuses days that are not a whole number from 1 to 365 under the days rule', () => {
    for (const days of [undefined, null, 0, 366, 1.5, '30', Number.NaN]) {
      expect(validateBranchSettings({ rule: 'days', days })).toEqual({
        days: BRANCH_SETTINGS_DAYS_INVALID,
      });
    }
  });
});
