import { MESSAGES } from '../common/messages';
import {
  isValidAmount,
  isValidEmail,
  isValidName,
  isValidReferralDiscount,
  isValidWebsite,
} from '../common/field-rules';
import {
  isValidPhone,
  memberFromForm,
  validateMemberChanges,
  validateMemberForm,
  validateMemberInput,
  validateSignupInput,
  type SignupInput,
} from '../index';

const valid = () => ({
  memberName: 'Sam Lee',
  memberEmail: 'sam@gym.io',
  membershipPriceCents: 5990,
  discountCents: 500,
});

describe('add-member rules (docs/product.md#validation)', () => {
  it('accepts letters and spaces in names, up to 100 characters', () => {
    expect(isValidName('Alex Smith')).toBe(true);
    expect(isValidName('Zoë Ngā')).toBe(true);
    expect(isValidName('a'.repeat(100))).toBe(true);
  });

  it.each([
    "Siobhán O'Brien",
    'Anne-Marie Dubois',
    "D'Arcy",
    'Ben O’Connor',
    'J. R. R. Tolkien',
    "'t Hooft",
    '王小明',
    '山田 太郎',
    'Анна Петрова',
    'Ἀριστοτέλης',
    'محمد علي',
    'प्रिया शर्मा',
    'Jose\u0301 Garci\u0301a',
    '  Siobhán  ',
    'é'.repeat(100),
    '𠮷'.repeat(100),
  ])('accepts the real name %p (docs/product.md#validation-names)', (name) => {
    expect(isValidName(name)).toBe(true);
  });

  it.each([
    '',
    '   ',
    'R2D2',
    'Sam 2',
    '4',
    'Sam_Lee',
    'Sam@Lee',
    'Sam, Lee',
    '(Sam)',
    "'-.",
    '\u0301Sam',
    'Sam\tLee',
    'Sam\nLee',
    'Sam\u0000Lee',
    'Sam\u0007Lee',
    'Sam\u202ELee',
    'Sam\u200BLee',
    '😀',
    'a'.repeat(101),
    'é'.repeat(101),
  ])('refuses the name %p', (name) => {
    expect(isValidName(name)).toBe(false);
  });

  it('accepts standard email addresses only', () => {
    expect(isValidEmail('sam@gym.com.au')).toBe(true);
    expect(isValidEmail('first.last+tag@example.io')).toBe(true);
    for (const bad of ['sam', 'sam@', 'sam@gym', 'sam @gym.com', '@gym.com', 'sam@gym.c']) {
      expect(isValidEmail(bad)).toBe(false);
    }
  });

  it('accepts non-negative amounts with up to two decimals', () => {
    for (const good of ['0', '10', '10.5', '10.55', '1000000'])
      expect(isValidAmount(good)).toBe(true);
    for (const bad of ['-1', '10.555', '1,000', 'ten', '', '1000000.01'])
      expect(isValidAmount(bad)).toBe(false);
  });

  it('gives each invalid field of the form (dollars) its own SPEC message', () => {
    expect(
      validateMemberForm({
        memberName: 'R2D2',
        memberEmail: 'nope',
        membershipPrice: '-5',
        discount: '1.234',
      }),
    ).toEqual({
      memberName: 'Not a valid name',
      memberEmail: 'Not a valid email address',
      membershipPrice: 'Not a valid amount',
      discount: 'Not a valid discount price',
    });
    expect(
      validateMemberForm({
        memberName: 'Sam Lee',
        memberEmail: 'sam@gym.io',
        membershipPrice: '59.90',
        discount: '5',
      }),
    ).toEqual({});
  });

  it('checks the API body in integer cents with the same messages', () => {
    expect(
      validateMemberInput({
        memberName: 'R2D2',
        memberEmail: 42,
        membershipPriceCents: 59.5,
        discountCents: '500',
      }),
    ).toEqual({
      memberName: 'Not a valid name',
      memberEmail: 'Not a valid email address',
      membershipPriceCents: 'Not a valid amount',
      discountCents: 'Not a valid discount price',
    });
    expect(
      validateMemberInput({
        memberName: 'Sam Lee',
        memberEmail: 'sam@gym.io',
        membershipPriceCents: 5990,
        discountCents: 0,
      }),
    ).toEqual({});
    expect(validateMemberInput({ ...valid(), membershipPriceCents: 100_000_001 })).toEqual({
      membershipPriceCents: 'Not a valid amount',
    });
    expect(validateMemberInput({ ...valid(), discountCents: -1 })).toEqual({
      discountCents: 'Not a valid discount price',
    });
  });

  it('checks only the fields a PATCH sends; null is not a value', () => {
    expect(validateMemberChanges({ discountCents: 250 })).toEqual({});
    expect(validateMemberChanges({ memberName: null, discountCents: 'x' })).toEqual({
      memberName: 'Not a valid name',
      discountCents: 'Not a valid discount price',
    });
  });

  it('converts the form to cents exactly', () => {
    expect(
      memberFromForm({
        memberName: 'Sam',
        memberEmail: 's@x.io',
        membershipPrice: '59.90',
        discount: 'ten',
      }),
    ).toEqual({
      memberName: 'Sam',
      memberEmail: 's@x.io',
      membershipPriceCents: 5990,
      discountCents: Number.NaN,
    });
  });
});

describe('signup rules (docs/product.md#validation-signup, checked in order)', () => {
  const valid: SignupInput = {
    businessName: 'Green Gym',
    country: 'AU',
    firstName: 'Sam',
    lastName: 'Lee',
    email: 'sam@greengym.com.au',
    phoneNumber: '0412 345 678',
    website: 'greengym.com.au',
    password: 'correct horse battery',
  };

  it('accepts a complete, valid form', () => {
    expect(validateSignupInput(valid)).toBeNull();
  });

  it('asks for every field first', () => {
    expect(validateSignupInput({ ...valid, website: ' ' })).toBe(MESSAGES.fillAllFields);
    expect(validateSignupInput({ ...valid, firstName: 'R2', password: '' })).toBe(
      MESSAGES.fillAllFields,
    );
  });

  it('refuses a business name over 200 characters, as Account Settings does', () => {
    expect(validateSignupInput({ ...valid, businessName: ` ${'G'.repeat(200)} ` })).toBeNull();
    expect(validateSignupInput({ ...valid, businessName: 'G'.repeat(201), firstName: 'R2' })).toBe(
      MESSAGES.businessNameRequired,
    );
  });

  it('then reports name, email, phone and URL in that order', () => {
    expect(validateSignupInput({ ...valid, lastName: 'L33', email: 'bad' })).toBe('Invalid Name');
    expect(validateSignupInput({ ...valid, email: 'bad', phoneNumber: '12' })).toBe(
      'Invalid Email',
    );
    expect(validateSignupInput({ ...valid, phoneNumber: '12', website: 'x' })).toBe(
      'Invalid Phone Number',
    );
    expect(validateSignupInput({ ...valid, website: 'not a site' })).toBe('Invalid URL');
    expect(validateSignupInput({ ...valid, password: 'short' })).toBe(MESSAGES.passwordTooShort);
  });

  it('refuses control characters: the business name gets its message, the email and phone theirs', () => {
    expect(validateSignupInput({ ...valid, businessName: 'Green\u0000Gym' })).toBe(
      MESSAGES.businessNameRequired,
    );
    expect(validateSignupInput({ ...valid, email: 'sam\u0000@greengym.com.au' })).toBe(
      MESSAGES.signupInvalidEmail,
    );
    expect(validateSignupInput({ ...valid, phoneNumber: '0412\u0000345678' })).toBe(
      MESSAGES.signupInvalidPhone,
    );
  });

  it("ends with the password rule, including the API's common-password check when given", () => {
    expect(validateSignupInput({ ...valid, password: 'eleven char' })).toBe(
      MESSAGES.passwordTooShort,
    );
    const isCommon = (password: string) => password === valid.password;
    expect(validateSignupInput(valid)).toBeNull();
    expect(validateSignupInput(valid, isCommon)).toBe(MESSAGES.passwordTooCommon);
  });

  it('reads phone numbers without a country code as Australian unless told the country', () => {
    expect(isValidPhone('0412 345 678')).toBe(true);
    expect(isValidPhone('+61 2 9876 5432')).toBe(true);
    expect(isValidPhone('+1 415 555 2671')).toBe(true);
    expect(isValidPhone('12345')).toBe(false);
    expect(isValidPhone('(415) 555-0134')).toBe(false);
  });

  it.each([
    ['US', '(415) 555-0134'],
    ['US', '415-555-0134'],
    ['US', '+1 415 555 0134'],
    ['GB', '020 7946 0958'],
    ['GB', '+44 20 7946 0958'],
    ['NZ', '021 123 4567'],
    ['DE', '030 123456'],
    ['IE', '01 234 5678'],
    ['AU', '02 9876 5432'],
    ['AU', '+64 21 123 4567'],
  ])(
    'a business in %s takes the number %p (any valid number, docs/product.md#country)',
    (country, phone) => {
      expect(isValidPhone(phone, country)).toBe(true);
    },
  );

  it.each([
    ['US', '0412 345 678'],
    ['GB', '(415) 555-0134'],
    ['US', '555-0134'],
    ['ZZ', '+1 415 555 0134'],
    ['us', '+1 415 555 0134'],
  ])('a business in %s refuses %p', (country, phone) => {
    expect(isValidPhone(phone, country)).toBe(false);
  });

  it('a US owner signs up with (415) 555-0134 in the United States; the same number in Australia is refused', () => {
    expect(
      validateSignupInput({ ...valid, country: 'US', phoneNumber: '(415) 555-0134' }),
    ).toBeNull();
    expect(validateSignupInput({ ...valid, country: 'AU', phoneNumber: '(415) 555-0134' })).toBe(
      MESSAGES.signupInvalidPhone,
    );
    expect(validateSignupInput({ ...valid, country: 'XX' })).toBe(MESSAGES.countryInvalid);
  });

  it('accepts websites with or without a scheme', () => {
    expect(isValidWebsite('https://greengym.com.au/join')).toBe(true);
    expect(isValidWebsite('www.greengym.com')).toBe(true);
    for (const bad of ['greengym', 'ftp://greengym.com', 'green gym.com', 'javascript:alert(1)']) {
      expect(isValidWebsite(bad)).toBe(false);
    }
  });
});

describe('isValidReferralDiscount (docs/product.md#validation-mindbody Mindbody discounts)', () => {
  it('takes an amount of at least 0.01 dollars with up to two decimals', () => {
    expect(['0.01', '10', '10.5', 25, ' 3.99 '].map(isValidReferralDiscount)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['0', '0.00', '', '-1', '1.234', 'ten'].map(isValidReferralDiscount)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
