import {
  isValidMindbodySiteId,
  mindbodyDiscountsFromForm,
  validateMindbodyCredentials,
  validateMindbodyDiscounts,
  validateMindbodyDiscountsForm,
} from './mindbody-setup';

const invalidValues = 'Please provide valid values.';
const invalidCredentials = 'Invalid credentials provided';

describe('Mindbody setup rules (docs/product.md#validation-mindbody)', () => {
  it('takes a site number of up to 10 digits, optionally negative', () => {
    expect(['-99', '123456', ' 42 '].map(isValidMindbodySiteId)).toEqual([true, true, true]);
    expect(['', 'abc', '12345678901', '-', -99].map(isValidMindbodySiteId)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('requires every credential, without control characters in the username or site ID', () => {
    expect(validateMindbodyCredentials({ username: 'u', password: ' p ', siteId: '-99' })).toEqual(
      {},
    );
    expect(validateMindbodyCredentials({ username: 'u\u0000', password: '  ', siteId: 7 })).toEqual(
      {
        username: invalidCredentials,
        password: invalidCredentials,
        siteId: invalidCredentials,
      },
    );
  });

  it('takes discounts in whole cents: on referral at least 1, for the referee optional', () => {
    expect(validateMindbodyDiscounts({ discountOnReferralCents: 1 })).toEqual({});
    expect(
      validateMindbodyDiscounts({ discountOnReferralCents: 1000, discountForRefereeCents: 0 }),
    ).toEqual({});
    expect(
      validateMindbodyDiscounts({ discountOnReferralCents: 0, discountForRefereeCents: null }),
    ).toEqual({ discountOnReferralCents: invalidValues, discountForRefereeCents: invalidValues });
    expect(validateMindbodyDiscounts({ discountOnReferralCents: '10' })).toEqual({
      discountOnReferralCents: invalidValues,
    });
  });

  it('checks the form in dollars with the same rules and sends cents', () => {
    expect(
      mindbodyDiscountsFromForm({ discountOnReferral: '10.5', discountForReferee: '' }),
    ).toEqual({ discountOnReferralCents: 1050 });
    expect(
      validateMindbodyDiscountsForm({ discountOnReferral: '0.00', discountForReferee: '1.234' }),
    ).toEqual({ discountOnReferral: invalidValues, discountForReferee: invalidValues });
  });
});
