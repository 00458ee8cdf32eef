import { MESSAGES } from '../common/messages';
import { validateStripeMembersKey, validateStripeMembersWebhook } from './stripe-members';

describe('Stripe member billing request rules (issue 32)', () => {
  it('takes a restricted key, surrounding spaces ignored, and refuses a secret key or anything else', () => {
    expect(validateStripeMembersKey({ apiKey: ' rk_test_51Abc ' })).toEqual({});
    expect(validateStripeMembersKey({ apiKey: 'rk_live_51Abc' })).toEqual({});
    for (const apiKey of ['sk_test_51Abc', 'rk_test_', 'rk_prod_1', '', 42, undefined])
      expect(validateStripeMembersKey({ apiKey })).toEqual({ apiKey: MESSAGES.stripeInvalidKey });
  });

  it("takes a webhook endpoint's signing secret and refuses a key or anything else", () => {
    expect(validateStripeMembersWebhook({ signingSecret: ' whsec_1a2B3c ' })).toEqual({});
    for (const signingSecret of ['rk_test_51Abc', 'whsec_', 'whsec_a b', 'x'.repeat(300), null])
      expect(validateStripeMembersWebhook({ signingSecret })).toEqual({
        signingSecret: MESSAGES.stripeInvalidWebhookSecret,
      });
  });
});
