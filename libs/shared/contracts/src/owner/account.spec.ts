import { ACCOUNT_DETAILS_FIELDS, validateAccountDetails, validatePasswordChange } from './account';
import type { UpdateAccountRequest } from './types';
import { BUSINESS_NAME_MAX_LENGTH } from '../common/rules';

const details: Required<UpdateAccountRequest> = {
  firstName: 'Sam',
  lastName: 'Lee',
  businessName: 'Green Valley Fitness',
  country: 'AU',
  timeZone: 'Australia/Sydney',
  phoneNumber: '0412 345 678',
  website: 'greenvalley.com.au',
};

describe("Account Settings 'Your details' rules (docs/product.md#validation-signup signup rules)", () => {
  it('accepts valid details, and values with spaces around them', () => {
    expect(validateAccountDetails(details)).toEqual({});
    expect(
      validateAccountDetails({ firstName: '  Alex ', website: ' https://newname.com.au ' }),
    ).toEqual({});
  });

  it('checks only the fields given (PATCH takes any subset)', () => {
    expect(validateAccountDetails({})).toEqual({});
    expect(validateAccountDetails({ firstName: 'R2D2' })).toEqual({ firstName: 'Invalid Name' });
    expect(ACCOUNT_DETAILS_FIELDS).toEqual([
      'firstName',
      'lastName',
      'businessName',
      'country',
      'timeZone',
      'phoneNumber',
      'website',
    ]);
  });

  it('takes an IANA time zone the runtime knows (issue 25)', () => {
    expect(validateAccountDetails({ timeZone: 'Europe/London' })).toEqual({});
    expect(validateAccountDetails({ timeZone: 'Europe/Londn' })).toEqual({
      timeZone: 'Please choose your time zone',
    });
    expect(validateAccountDetails({ timeZone: ' ' })).toEqual({
      timeZone: 'Please choose your time zone',
    });
  });

  it.each([
    ['firstName', 'Mary Jane', 'R2D2', 'Invalid Name'],
    ['firstName', 'Zoë', 'a'.repeat(101), 'Invalid Name'],
    ['lastName', 'Lee', 'Lee-2', 'Invalid Name'],
    [
      'businessName',
      'b'.repeat(BUSINESS_NAME_MAX_LENGTH),
      'b'.repeat(201),
      'Please enter your business name',
    ],
    ['phoneNumber', '+61 412 345 678', '123', 'Invalid Phone Number'],
    ['phoneNumber', '02 9876 5432', 'call me', 'Invalid Phone Number'],
    ['country', 'AU', 'New Zealand', 'Please choose your country'],
    ['website', 'https://greenvalley.com.au', 'not a site', 'Invalid URL'],
  ] as const)('%s: accepts %p, refuses %p with %p', (field, good, bad, message) => {
    expect(validateAccountDetails({ ...details, [field]: good })).toEqual({});
    expect(validateAccountDetails({ ...details, [field]: bad })).toEqual({ [field]: message });
  });

  it.each([
    ['firstName', 'Please fill in all required fields'],
    ['lastName', 'Please fill in all required fields'],
    ['businessName', 'Please enter your business name'],
    ['phoneNumber', 'Please fill in all required fields'],
    ['country', 'Please choose your country'],
    ['website', 'Please fill in all required fields'],
  ] as const)('%s: refuses an empty or blank value with %p', (field, message) => {
    expect(validateAccountDetails({ [field]: '' })).toEqual({ [field]: message });
    expect(validateAccountDetails({ [field]: '   ' })).toEqual({ [field]: message });
  });

  it('reads the phone number for the country sent, else for the business’s country now (docs/product.md#country)', () => {
    expect(validateAccountDetails({ country: 'US', phoneNumber: '(415) 555-0134' })).toEqual({});
    expect(validateAccountDetails({ phoneNumber: '(415) 555-0134' }, 'US')).toEqual({});
    expect(validateAccountDetails({ phoneNumber: '(415) 555-0134' })).toEqual({
      phoneNumber: 'Invalid Phone Number',
    });
    expect(validateAccountDetails({ country: 'US', phoneNumber: '0412 345 678' })).toEqual({
      phoneNumber: 'Invalid Phone Number',
    });
  });

  it('gives every invalid field its message at once', () => {
    expect(
      validateAccountDetails({
        firstName: 'R2D2',
        lastName: '',
        businessName: ' ',
        phoneNumber: '1',
        website: 'nope',
      }),
    ).toEqual({
      firstName: 'Invalid Name',
      lastName: 'Please fill in all required fields',
      businessName: 'Please enter your business name',
      phoneNumber: 'Invalid Phone Number',
      website: 'Invalid URL',
    });
  });
});

describe("Account Settings 'Change password' rules", () => {
  const change = { currentPassword: 'old password', newPassword: 'a new passphrase' };

  it('accepts a current password and a new one of at least 12 characters', () => {
    expect(validatePasswordChange(change)).toEqual({});
    expect(validatePasswordChange({ currentPassword: 'x', newPassword: '123456789012' })).toEqual(
      {},
    );
  });

  it("refuses a new password the API's common-password check knows", () => {
    const isCommon = (password: string) => password === 'a new passphrase';
    expect(validatePasswordChange(change, isCommon)).toEqual({
      newPassword: 'This password is too common. Please choose one that is harder to guess.',
    });
  });

  it('requires the current password', () => {
    expect(validatePasswordChange({ ...change, currentPassword: '' })).toEqual({
      currentPassword: 'Please enter your current password',
    });
  });

  it('refuses a new password shorter than 12 characters (not trimmed, runs of spaces count once)', () => {
    expect(validatePasswordChange({ ...change, newPassword: '12345678901' })).toEqual({
      newPassword: 'Password must be at least 12 characters',
    });
    expect(validatePasswordChange({ ...change, newPassword: ' a b c d e f ' })).toEqual({});
    expect(validatePasswordChange({ ...change, newPassword: 'ab          cd' })).toEqual({
      newPassword: 'Password must be at least 12 characters',
    });
  });

  it('checks the confirmation only when it is given', () => {
    expect(validatePasswordChange({ ...change, confirmPassword: change.newPassword })).toEqual({});
    expect(validatePasswordChange({ ...change, confirmPassword: 'a new passphrasE' })).toEqual({
      confirmPassword: 'The new passwords do not match',
    });
  });

  it('reads the phone number for the country sent, else for the business’s country now (docs/product.md#country)', () => {
    expect(validateAccountDetails({ country: 'US', phoneNumber: '(415) 555-0134' })).toEqual({});
    expect(validateAccountDetails({ phoneNumber: '(415) 555-0134' }, 'US')).toEqual({});
    expect(validateAccountDetails({ phoneNumber: '(415) 555-0134' })).toEqual({
      phoneNumber: 'Invalid Phone Number',
    });
    expect(validateAccountDetails({ country: 'US', phoneNumber: '0412 345 678' })).toEqual({
      phoneNumber: 'Invalid Phone Number',
    });
  });

  it('gives every invalid field its message at once', () => {
    expect(
      validatePasswordChange({
        currentPassword: '',
        newPassword: 'short',
        confirmPassword: 'other',
      }),
    ).toEqual({
      currentPassword: 'Please enter your current password',
      newPassword: 'Password must be at least 12 characters',
      confirmPassword: 'The new passwords do not match',
    });
  });
});
