import { localeFormats } from '@grove/contracts';
import { renderMemberEmail } from './index';
import type { MemberEmailContext } from './member-email-template';

/** A business whose name ends in a full stop, as an owner types it. */
const context: MemberEmailContext = {
  businessName: "Ó Briain's Strength & Co.",
  format: localeFormats({ locale: 'en-IE', currency: 'EUR', timeZone: 'Europe/Dublin' }),
  memberFirstName: 'Siobhán',
  unsubscribeUrl: 'https://grove.example.com/api/member-emails/unsubscribe/abc',
  magicLinkUrl: null,
  referralUrl: null,
  shareMessage: '',
  welcomeOffer: null,
  referrerReward: null,
  rewardsLeft: null,
};

describe('member emails end a sentence on a business name with one full stop', () => {
  it('the branch-ended email and its footer', async () => {
    const { text } = await renderMemberEmail(
      'branch-ended',
      { friendName: "Zoë D'Arcy-Nguyễn", priceNowCents: 6500, reason: 'removed' },
      context,
    );
    expect(text).toContain("no longer counts as your branch at Ó Briain's Strength & Co.");
    expect(text).toContain(
      "You get this email because you are a member of Ó Briain's Strength & Co.",
    );
    expect(text).not.toContain('Co..');
  });

  it('the welcome email and its offer', async () => {
    const { text } = await renderMemberEmail(
      'welcome',
      { referrerName: 'Ana-Sofía Ruiz', welcomeOffer: 'Your first month is free.' },
      context,
    );
    expect(text).toContain("Welcome to Ó Briain's Strength & Co. Ana-Sofía Ruiz referred you");
    expect(text).toContain('Your welcome offer: Your first month is free.');
    expect(text).not.toMatch(/Co\.[.!]|free\.\./);
  });
});
