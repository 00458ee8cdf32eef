import {
  countryName,
  countryOptions,
  DEFAULT_COUNTRY,
  internationalPhone,
  isCountryCode,
  phoneNumberHint,
} from './country';

describe('the business’s country (docs/product.md#country)', () => {
  it('is Australia unless chosen', () => {
    expect(DEFAULT_COUNTRY).toBe('AU');
  });

  it('knows ISO 3166-1 alpha-2 codes with phone metadata, upper case only', () => {
    for (const code of ['AU', 'US', 'GB', 'NZ', 'DE', 'JP']) expect(isCountryCode(code)).toBe(true);
    for (const code of ['au', 'ZZ', 'USA', '', undefined, 61])
      expect(isCountryCode(code)).toBe(false);
  });

  it('names countries and lists them sorted by name', () => {
    expect(countryName('US')).toBe('United States');
    expect(countryName('AU')).toBe('Australia');
    const options = countryOptions();
    expect(options.length).toBeGreaterThan(200);
    expect(options.find((option) => option.code === 'US')?.name).toBe('United States');
    const names = options.map((option) => option.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('says how a phone number is read', () => {
    expect(phoneNumberHint('US')).toBe(
      'United States (+1) numbers, or any number in international format.',
    );
    expect(phoneNumberHint('AU')).toBe(
      'Australia (+61) numbers, or any number in international format.',
    );
  });

  it('writes a valid number in international format', () => {
    expect(internationalPhone('(415) 555-0134', 'US')).toBe('+1 415 555 0134');
    expect(internationalPhone('0412 345 678', 'AU')).toBe('+61 412 345 678');
    expect(internationalPhone('+44 20 7946 0958', 'AU')).toBe('+44 20 7946 0958');
    expect(internationalPhone('12', 'AU')).toBeNull();
    expect(internationalPhone('0412 345 678', 'ZZ')).toBeNull();
  });
});
