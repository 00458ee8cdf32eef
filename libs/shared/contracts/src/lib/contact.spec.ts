import {
  CONTACT_MESSAGE_MAX_LENGTH,
  isAustralianMobile,
  validateContactInput,
  type ContactInput,
} from './contact';
import { MESSAGES } from './messages';
import { isValidName, isValidWebsite } from './field-rules';

const valid: ContactInput = {
  firstName: 'Sam',
  lastName: 'Lee',
  email: 'sam@greenvalley.com.au',
  phoneNumber: '0412 345 678',
  website: 'https://greenvalley.com.au',
  message: 'Hello, I would like a demo.',
};

describe('contact form rules (docs/product.md#validation-contact Contact form)', () => {
  it.each(['0412 345 678', '+61 412 345 678', '0412345678', '+61412345678'])(
    'accepts the AU mobile %p',
    (phone) => {
      expect(isAustralianMobile(phone)).toBe(true);
    },
  );

  it.each([
    ['an AU landline', '02 9876 5432'],
    ['a US number', '+1 415 555 2671'],
    ['letters', 'call me maybe'],
    ['too short', '0412 345'],
    ['empty', ''],
  ])('refuses %s', (_label, phone) => {
    expect(isAustralianMobile(phone)).toBe(false);
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
        phoneNumber: '02 9876 5432',
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
