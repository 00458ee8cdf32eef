import {
  DEFAULT_SHARE_MESSAGE,
  fillShareMessage,
  SHARE_MESSAGE_MESSAGES,
  shareTargets,
  validateShareMessage,
} from './share-message';

describe('validateShareMessage (docs/product.md#share-message)', () => {
  it('accepts the default, line breaks and any placeholder order', () => {
    expect(validateShareMessage({ message: DEFAULT_SHARE_MESSAGE })).toEqual({});
    expect(validateShareMessage({ message: 'Hi!\n{link}\n— {firstName}, {gym}' })).toEqual({});
    expect(validateShareMessage({ message: 'At {gym} you get {offer}: {link}' })).toEqual({});
  });

  it('refuses each broken rule with its message', () => {
    const message = (value: unknown) => validateShareMessage({ message: value }).message;
    expect(message(undefined)).toBe(SHARE_MESSAGE_MESSAGES.required);
    expect(message(42)).toBe(SHARE_MESSAGE_MESSAGES.required);
    expect(message('   ')).toBe(SHARE_MESSAGE_MESSAGES.required);
    expect(message('Join me at {gym}')).toBe(SHARE_MESSAGE_MESSAGES.needsLink);
    expect(message('{link} from {name}')).toBe(SHARE_MESSAGE_MESSAGES.unknownPlaceholder);
    expect(message('{link}\u0000')).toBe(SHARE_MESSAGE_MESSAGES.notPlain);
    expect(message('{link} \u202E')).toBe(SHARE_MESSAGE_MESSAGES.notPlain);
    expect(message(`{link} ${'é'.repeat(494)}`)).toBe(SHARE_MESSAGE_MESSAGES.tooLong);
    // 500 characters counted as code points: an emoji is one.
    expect(message(`{link} ${'😀'.repeat(493)}`)).toBeUndefined();
  });
});

describe('shareTargets', () => {
  const facts = {
    template: "{firstName} & {gym}: {link} (it's {firstName})",
    firstName: 'Siobhán',
    gym: "O'Brien's Boxing",
    offer: null,
    referralUrl: 'https://grove.example/referral/Ab12',
  };

  it('fills every placeholder, leaving $ patterns and unknown words as written', () => {
    expect(
      fillShareMessage('{firstName} {firstName} $& {other}', {
        firstName: '$1',
        gym: 'g',
        offer: 'o',
        link: 'l',
      }),
    ).toBe('$1 $1 $& {other}');
  });

  it("fills {offer} with the friend's welcome offer, and with nothing while there is none", () => {
    const template = 'Join {gym}: {offer} {link}';
    expect(shareTargets({ ...facts, template, offer: 'Your first month free' }).shareText).toBe(
      "Join O'Brien's Boxing: Your first month free https://grove.example/referral/Ab12?via=share",
    );
    expect(shareTargets({ ...facts, template }).shareText).toBe(
      "Join O'Brien's Boxing:  https://grove.example/referral/Ab12?via=share",
    );
  });

  it('gives each channel the message with its own ?via= link, URL-encoded', () => {
    const targets = shareTargets(facts);
    const text = (via: string) =>
      `Siobhán & O'Brien's Boxing: https://grove.example/referral/Ab12?via=${via} (it's Siobhán)`;
    expect(targets.whatsapp).toBe(`https://wa.me/?text=${encodeURIComponent(text('whatsapp'))}`);
    expect(decodeURIComponent(new URL(targets.whatsapp).searchParams.get('text') ?? '')).toBe(
      text('whatsapp'),
    );
    expect(targets.sms).toBe(`sms:?&body=${encodeURIComponent(text('sms'))}`);
    expect(targets.email).toBe(
      `mailto:?subject=${encodeURIComponent("Join me at O'Brien's Boxing")}&body=${encodeURIComponent(text('email'))}`,
    );
    expect(targets.copyUrl).toBe('https://grove.example/referral/Ab12?via=copy');
    expect(targets.shareText).toBe(text('share'));
    // The ampersand and spaces never break out of the parameter.
    expect(targets.sms).not.toMatch(/[ &]B/);
  });
});
