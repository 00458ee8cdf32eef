import { businessLocale, localeFormats } from '../common/locale-format';
import {
  NO_WELCOME_OFFER,
  normalizeWelcomeOffer,
  validateWelcomeOffer,
  WELCOME_OFFER_MESSAGES,
  welcomeOfferAppliesInStripe,
  welcomeOfferCostCents,
  welcomeOfferCoupon,
  welcomeOfferWording,
  type WelcomeOffer,
} from './welcome-offer';

const au = localeFormats(businessLocale('AU'));
const gb = localeFormats(businessLocale('GB'));
const offer = (fields: Partial<WelcomeOffer>): WelcomeOffer => ({ ...NO_WELCOME_OFFER, ...fields });

describe('welcomeOfferWording (docs/product.md#welcome-offer)', () => {
  it('words each kind the one way every surface shows it', () => {
    expect(welcomeOfferWording(offer({ kind: 'amount', amountCents: 2000, months: 3 }), au)).toBe(
      '$20 off your first 3 months',
    );
    expect(welcomeOfferWording(offer({ kind: 'amount', amountCents: 1250, months: 1 }), au)).toBe(
      '$12.50 off your first month',
    );
    expect(welcomeOfferWording(offer({ kind: 'percent', percent: 50, months: 2 }), au)).toBe(
      '50% off your first 2 months',
    );
    expect(welcomeOfferWording(offer({ kind: 'free', months: 1 }), au)).toBe(
      'Your first month free',
    );
    expect(welcomeOfferWording(offer({ kind: 'free', months: 2 }), au)).toBe(
      'Your first 2 months free',
    );
    expect(welcomeOfferWording(offer({ kind: 'text', text: 'a free class' }), au)).toBe(
      'A free class',
    );
    expect(welcomeOfferWording(offer({ kind: 'text', text: 'Ein Handtuch für Siobhán' }), au)).toBe(
      'Ein Handtuch für Siobhán',
    );
  });

  it("formats money in the business's currency", () => {
    expect(welcomeOfferWording(offer({ kind: 'amount', amountCents: 2000, months: 3 }), gb)).toBe(
      '£20 off your first 3 months',
    );
  });

  it('says nothing for no offer or an incomplete one', () => {
    expect(welcomeOfferWording(NO_WELCOME_OFFER, au)).toBeNull();
    expect(welcomeOfferWording(null, au)).toBeNull();
    expect(welcomeOfferWording(offer({ kind: 'amount', months: 3 }), au)).toBeNull();
    expect(welcomeOfferWording(offer({ kind: 'percent', percent: 10 }), au)).toBeNull();
    expect(welcomeOfferWording(offer({ kind: 'text', text: '  ' }), au)).toBeNull();
  });
});

describe('validateWelcomeOffer (docs/product.md#welcome-offer)', () => {
  it('accepts each kind with its fields, ignoring the fields of other kinds', () => {
    expect(validateWelcomeOffer({ kind: 'none' })).toEqual({});
    expect(validateWelcomeOffer({ kind: 'amount', amountCents: 1, months: 24 })).toEqual({});
    expect(validateWelcomeOffer({ kind: 'percent', percent: 100, months: 1, text: 42 })).toEqual(
      {},
    );
    expect(validateWelcomeOffer({ kind: 'free', months: 1, amountCents: -5 })).toEqual({});
    expect(validateWelcomeOffer({ kind: 'text', text: ` ${'é'.repeat(100)} ` })).toEqual({});
  });

  it('refuses each broken rule with its message', () => {
    const M = WELCOME_OFFER_MESSAGES;
    expect(validateWelcomeOffer({})).toEqual({ kind: M.kind });
    expect(validateWelcomeOffer({ kind: 'gift' })).toEqual({ kind: M.kind });
    expect(validateWelcomeOffer({ kind: 'amount', amountCents: 0, months: 0 })).toEqual({
      amountCents: M.amount,
      months: M.months,
    });
    expect(validateWelcomeOffer({ kind: 'amount', amountCents: 20.5, months: 3 })).toEqual({
      amountCents: M.amount,
    });
    expect(validateWelcomeOffer({ kind: 'amount', amountCents: '2000', months: 3 })).toEqual({
      amountCents: M.amount,
    });
    expect(validateWelcomeOffer({ kind: 'percent', percent: 101, months: 25 })).toEqual({
      percent: M.percent,
      months: M.months,
    });
    expect(validateWelcomeOffer({ kind: 'free' })).toEqual({ months: M.months });
    expect(validateWelcomeOffer({ kind: 'text', text: '   ' })).toEqual({ text: M.textRequired });
    expect(validateWelcomeOffer({ kind: 'text', text: 'x'.repeat(101) })).toEqual({
      text: M.textTooLong,
    });
    expect(validateWelcomeOffer({ kind: 'text', text: 'a free\u0007class' })).toEqual({
      text: M.textNotPlain,
    });
  });

  it('keeps only the fields of the kind when normalised', () => {
    expect(
      normalizeWelcomeOffer({ kind: 'free', months: 1, amountCents: 2000, text: 'x', percent: 3 }),
    ).toEqual({ kind: 'free', amountCents: null, percent: null, months: 1, text: null });
    expect(normalizeWelcomeOffer({ kind: 'text', text: '  a free class ', months: 2 })).toEqual({
      ...NO_WELCOME_OFFER,
      kind: 'text',
      text: 'a free class',
    });
  });
});

describe('welcomeOfferCostCents', () => {
  it('costs each kind over its months at the friend’s price', () => {
    expect(
      welcomeOfferCostCents(offer({ kind: 'amount', amountCents: 2000, months: 3 }), 5000),
    ).toBe(6000);
    // Never more than the price itself.
    expect(
      welcomeOfferCostCents(offer({ kind: 'amount', amountCents: 9000, months: 2 }), 5000),
    ).toBe(10000);
    expect(welcomeOfferCostCents(offer({ kind: 'percent', percent: 25, months: 2 }), 4999)).toBe(
      2500,
    );
    expect(welcomeOfferCostCents(offer({ kind: 'free', months: 1 }), 4999)).toBe(4999);
    expect(welcomeOfferCostCents(offer({ kind: 'text', text: 'a free class' }), 4999)).toBeNull();
  });

  it('makes each offer with an amount a repeating Stripe coupon for its months, never a text offer', () => {
    expect(welcomeOfferCoupon(offer({ kind: 'free', months: 1 }))).toEqual({
      amountOffCents: null,
      percentOff: 100,
      months: 1,
    });
    expect(welcomeOfferCoupon(offer({ kind: 'amount', amountCents: 2000, months: 3 }))).toEqual({
      amountOffCents: 2000,
      percentOff: null,
      months: 3,
    });
    expect(welcomeOfferCoupon(offer({ kind: 'percent', percent: 50, months: 2 }))).toEqual({
      amountOffCents: null,
      percentOff: 50,
      months: 2,
    });
    expect(welcomeOfferCoupon(offer({ kind: 'text', text: 'a free class' }))).toBeNull();
    expect(welcomeOfferCoupon(NO_WELCOME_OFFER)).toBeNull();
    expect(welcomeOfferAppliesInStripe(offer({ kind: 'text', text: 'a free class' }))).toBe(false);
    expect(welcomeOfferAppliesInStripe(offer({ kind: 'free', months: 2 }))).toBe(true);
  });
});
