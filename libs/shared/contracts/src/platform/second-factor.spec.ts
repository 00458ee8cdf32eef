import { SECOND_FACTOR_MESSAGES, validateSecondFactorCode } from './second-factor';

describe('validateSecondFactorCode (docs/product.md#second-factor)', () => {
  it.each(['492039', ' 492 039 ', '7hk2m-q9x4t', '7HK2MQ9X4T'])('accepts %j', (code) => {
    expect(validateSecondFactorCode(code)).toBeNull();
  });

  it.each(['', '49203', '4920391', 'abcdef', '7hk2m-q9x4', 'ilou0-q9x4t', 123456])(
    'refuses %j',
    (code) => {
      expect(validateSecondFactorCode(code)).toBe(SECOND_FACTOR_MESSAGES.codeInvalid);
    },
  );
});
