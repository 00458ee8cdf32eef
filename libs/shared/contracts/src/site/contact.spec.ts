import { CONTACT_MESSAGE_MAX_LENGTH, validateContactInput, type ContactInput } from './contact';
import { MESSAGES } from '../common/messages';
import { isValidName, isValidWebsite } from '../common/field-rules';

const valid: ContactInput = {
  firstName: 'Sam',
  lastName: 'Lee',
  email: 'sam@greenvalley.com.au',
  phoneNumber: '0412 345 678',
  website: 'https://greenvalley.com.au',
  message: 'Hello, I would like a demo.',
};

describe('contact form rules (docs/product.md#validation-contact Contact form)', () => {
  it.each([
    ['an AU mobile', '0412 345 678', undefined],
    ['an AU mobile in international format', '+61412345678', undefined],
    ['an AU landline (any valid number, mobile or not)', '02 9876 5432', 'AU'],
    ['a US number in international format, whatever the country', '+1 415 555 0134', 'AU'],
    ['a US number for the United States', '(415) 555-0134', 'US'],
    ['a UK landline for the United Kingdom', '020 7946 0958', 'GB'],
  ])('accepts %s (docs/product.md#country)', (_label, phoneNumber, country) => {
    expect(validateContactInput({ ...valid, phoneNumber, country })).toEqual({});
  });

  it.each([
    ['a US number read as Australian', '(415) 555-0134', 'AU'],
    ['letters', 'call me maybe', 'AU'],
    ['too short', '0412 345', 'AU'],
    ['empty', '', 'AU'],
  ])('refuses %s', (_label, phoneNumber, country) => {
    expect(validateContactInput({ ...valid, phoneNumber, country })).toEqual({
      phoneNumber: MESSAGES.invalidPhone,
    });
  });

  it('refuses an unknown country', () => {
    expect(validateContactInput({ ...valid, country: 'ZZ' })).toEqual({
      country: MESSAGES.countryInvalid,
    });
  });

  it('accepts web addresses people type and refuses anything else', () => {
    for (const good of [
      'https://greenvalley.com.au',
      'http://gym.io/path?x=1',
      'www.mygym.com',
      'mygym.com.au',
    ]) {
      expect(isValidWebsite(good)).toBe(true);
    }
    for (const bad of [
      '',
      'not a url',
      'ftp://gym.com',
      'localhost',
      'https://gym',
      'javascript:alert(1)',
    ]) {
      expect(isValidWebsite(bad)).toBe(false);
    }
  });

  it('accepts names of letters and spaces up to 100 characters', () => {
    expect(isValidName('Mary Jane')).toBe(true);
    expect(isValidName('Zoë')).toBe(true);
    expect(isValidName('a'.repeat(100))).toBe(true);
    expect(isValidName('a'.repeat(101))).toBe(false);
    expect(isValidName('Sam 2')).toBe(false);
    expect(isValidName("Siobhán O'Brien")).toBe(true);
    expect(validateContactInput({ ...valid, firstName: 'Anne-Marie', lastName: 'Dubois' })).toEqual(
      {},
    );
    expect(validateContactInput({ ...valid, lastName: 'Dubois 2' })).toEqual({
      lastName: MESSAGES.invalidName,
    });
  });

  it('accepts a valid form with no errors', () => {
    expect(validateContactInput(valid)).toEqual({});
  });

  it('accepts a 500-character message and refuses 501', () => {
    expect(CONTACT_MESSAGE_MAX_LENGTH).toBe(500);
    expect(validateContactInput({ ...valid, message: 'm'.repeat(500) })).toEqual({});
    expect(validateContactInput({ ...valid, message: 'm'.repeat(501) })).toEqual({
      message: MESSAGES.messageTooLong,
    });
  });

  it('gives each invalid field its SPEC message', () => {
    expect(
      validateContactInput({
        firstName: 'R2D2',
        lastName: '',
        email: 'sam@',
        phoneNumber: '02 9876',
        website: 'nope',
        message: '   ',
      }),
    ).toEqual({
      firstName: 'Not a valid name',
      lastName: 'Not a valid name',
      email: 'Not a valid email address',
      phoneNumber: 'Not a valid phone number',
      website: 'Not a valid URL',
      message: MESSAGES.messageRequired,
    });
  });
});
