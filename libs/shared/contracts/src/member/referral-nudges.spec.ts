import {
  REFERRAL_NUDGE_MESSAGES,
  REFERRAL_NUDGES_OFF,
  validateReferralNudgeSettings,
} from './referral-nudges';

describe('validateReferralNudgeSettings (docs/product.md#referral-nudges)', () => {
  it('takes every nudge off, and days inside their ranges', () => {
    expect(validateReferralNudgeSettings(REFERRAL_NUDGES_OFF)).toEqual({});
    for (const inviteAfterDays of [7, 30, 365])
      for (const reminderAfterDays of [null, 3, 14, 90])
        expect(
          validateReferralNudgeSettings({
            inviteAfterDays,
            reminderAfterDays,
            monthlySummary: true,
          }),
        ).toEqual({});
  });

  it('refuses days outside the ranges, fractions, text and missing fields, each with its message', () => {
    const ok = { inviteAfterDays: 30, reminderAfterDays: 14, monthlySummary: false };
    expect(validateReferralNudgeSettings({ ...ok, inviteAfterDays: 6 })).toEqual({
      inviteAfterDays: REFERRAL_NUDGE_MESSAGES.inviteDays,
    });
    expect(validateReferralNudgeSettings({ ...ok, inviteAfterDays: 366 }).inviteAfterDays).toBe(
      REFERRAL_NUDGE_MESSAGES.inviteDays,
    );
    expect(validateReferralNudgeSettings({ ...ok, inviteAfterDays: 7.5 }).inviteAfterDays).toBe(
      REFERRAL_NUDGE_MESSAGES.inviteDays,
    );
    expect(validateReferralNudgeSettings({ ...ok, reminderAfterDays: '14' })).toEqual({
      reminderAfterDays: REFERRAL_NUDGE_MESSAGES.reminderDays,
    });
    expect(validateReferralNudgeSettings({ ...ok, reminderAfterDays: 91 }).reminderAfterDays).toBe(
      REFERRAL_NUDGE_MESSAGES.reminderDays,
    );
    expect(validateReferralNudgeSettings({})).toEqual({
      inviteAfterDays: REFERRAL_NUDGE_MESSAGES.inviteDays,
      reminderAfterDays: REFERRAL_NUDGE_MESSAGES.reminderDays,
      monthlySummary: REFERRAL_NUDGE_MESSAGES.monthlySummary,
    });
  });

  it('refuses the reminder without the invitation it follows', () => {
    expect(
      validateReferralNudgeSettings({
        inviteAfterDays: null,
        reminderAfterDays: 14,
        monthlySummary: false,
      }),
    ).toEqual({ reminderAfterDays: REFERRAL_NUDGE_MESSAGES.reminderNeedsInvite });
  });

  it('takes the invitation after a visit from the first to the hundredth instead of days, never both; the reminder may follow it', () => {
    const off = { inviteAfterDays: null, reminderAfterDays: null, monthlySummary: false };
    for (const inviteAfterVisits of [1, 5, 100])
      expect(
        validateReferralNudgeSettings({ ...off, inviteAfterVisits, reminderAfterDays: 14 }),
      ).toEqual({});
    for (const inviteAfterVisits of [0, 101, 2.5, '5'])
      expect(validateReferralNudgeSettings({ ...off, inviteAfterVisits })).toEqual({
        inviteAfterVisits: REFERRAL_NUDGE_MESSAGES.inviteVisits,
      });
    expect(
      validateReferralNudgeSettings({ ...off, inviteAfterDays: 30, inviteAfterVisits: 5 }),
    ).toEqual({ inviteAfterVisits: REFERRAL_NUDGE_MESSAGES.daysOrVisits });
  });
});
