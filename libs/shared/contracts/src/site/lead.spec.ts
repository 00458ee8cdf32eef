import type { LeadInput } from './types';
import { LEAD_COMPANY_MAX_LENGTH, validateLeadInput } from './lead';

const lead: LeadInput = {
  fullName: 'Robin Park',
  email: 'robin@parkfitness.com.au',
  phone: '0412 345 678',
  company: 'Park Fitness',
};

describe("landing page 'Learn More' rules (docs/product.md#landing-page Landing page, docs/product.md#validation)", () => {
  it('accepts a valid lead, and values with spaces around them', () => {
    expect(validateLeadInput(lead)).toEqual({});
    expect(
      validateLeadInput({ ...lead, fullName: ' Robin Park ', company: '  Park Fitness ' }),
    ).toEqual({});
  });

  it.each([
    ['fullName', 'Zoë Park', 'R2D2', 'Not a valid name'],
    ['fullName', 'a'.repeat(100), 'a'.repeat(101), 'Not a valid name'],
    ['email', 'robin@gym.io', 'robin@', 'Not a valid email address'],
    ['phone', '+61 412 345 678', '12', 'Not a valid phone number'],
    ['phone', '02 9876 5432', '', 'Not a valid phone number'],
    [
      'company',
      'c'.repeat(LEAD_COMPANY_MAX_LENGTH),
      'c'.repeat(201),
      'Your company name can be at most 200 characters',
    ],
    ['company', 'Park Fitness', '   ', 'Please enter your company name'],
  ] as const)('%s: accepts %p, refuses %p with %p', (field, good, bad, message) => {
    expect(validateLeadInput({ ...lead, [field]: good })).toEqual({});
    expect(validateLeadInput({ ...lead, [field]: bad })).toEqual({ [field]: message });
  });

  it("reads the phone for the visitor's country, Australia when none is given (issue 25)", () => {
    expect(validateLeadInput({ ...lead, phone: '(415) 555-0134' })).toEqual({
      phone: 'Not a valid phone number',
    });
    expect(validateLeadInput({ ...lead, country: 'US', phone: '(415) 555-0134' })).toEqual({});
    expect(validateLeadInput({ ...lead, country: 'GB', phone: '020 7946 0958' })).toEqual({});
    expect(validateLeadInput({ ...lead, country: 'US', phone: '0412 345 678' })).toEqual({
      phone: 'Not a valid phone number',
    });
    expect(validateLeadInput({ ...lead, country: 'US', phone: '+61 412 345 678' })).toEqual({});
    expect(validateLeadInput({ ...lead, country: 'Narnia' })).toEqual({
      country: 'Please choose your country',
    });
  });

  it('gives every invalid field its message at once (an empty form)', () => {
    expect(validateLeadInput({ fullName: '', email: '', phone: '', company: '' })).toEqual({
      fullName: 'Not a valid name',
      email: 'Not a valid email address',
      phone: 'Not a valid phone number',
      company: 'Please enter your company name',
    });
  });
});
