import {
  approvalPrefill,
  memberDefaultsFromForm,
  memberDefaultsToForm,
  validateMemberDefaults,
  validateMemberDefaultsForm,
} from './member-defaults';
import { MESSAGES } from '../common/messages';

describe('member defaults (docs/product.md#member-defaults)', () => {
  const defaults = { discountCents: 1000, membershipPriceCents: 5900 };

  it("an approval starts from the referrer's price and discount", () => {
    expect(approvalPrefill({ membershipPriceCents: 8900, discountCents: 1500 }, defaults)).toEqual({
      membershipPriceCents: 8900,
      discountCents: 1500,
    });
    // A real $0 price is a price, not a gap.
    expect(approvalPrefill({ membershipPriceCents: 0, discountCents: 0 }, defaults)).toEqual({
      membershipPriceCents: 0,
      discountCents: 0,
    });
  });

  it('a price Grove does not know (Mindbody placeholders) gives way to the default price', () => {
    for (const unknown of [
      { membershipPricePending: true as const },
      { noAutopayContract: true as const },
      { membershipEnded: true as const },
    ]) {
      expect(
        approvalPrefill({ membershipPriceCents: 0, discountCents: 750, ...unknown }, defaults),
      ).toEqual({ membershipPriceCents: 5900, discountCents: 750 });
    }
    expect(
      approvalPrefill(
        { membershipPriceCents: 0, discountCents: 750, membershipPricePending: true },
        { discountCents: null, membershipPriceCents: null },
      ),
    ).toEqual({ membershipPriceCents: null, discountCents: 750 });
  });

  it('without a referrer, both come from the defaults', () => {
    expect(approvalPrefill(null, defaults)).toEqual(defaults);
  });

  it('checks the API body in cents and the form in dollars with the add-member messages', () => {
    expect(validateMemberDefaults({ discountCents: 1500, membershipPriceCents: null })).toEqual({});
    expect(validateMemberDefaults({ discountCents: -5, membershipPriceCents: 1.5 })).toEqual({
      discountCents: MESSAGES.invalidDiscount,
      membershipPriceCents: MESSAGES.invalidAmount,
    });
    expect(validateMemberDefaultsForm({ discount: '', membershipPrice: '  ' })).toEqual({});
    expect(validateMemberDefaultsForm({ discount: '15.001', membershipPrice: '$89' })).toEqual({
      discount: MESSAGES.invalidDiscount,
      membershipPrice: MESSAGES.invalidAmount,
    });
  });

  it('turns the form’s dollars into cents and back', () => {
    expect(memberDefaultsFromForm({ discount: '15', membershipPrice: '' })).toEqual({
      discountCents: 1500,
      membershipPriceCents: null,
    });
    expect(memberDefaultsToForm({ discountCents: 1500, membershipPriceCents: 8900 })).toEqual({
      discount: '15.00',
      membershipPrice: '89.00',
    });
  });
});
