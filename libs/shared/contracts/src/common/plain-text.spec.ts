import { validateAccountDetails } from '../owner/account';
import { validateContactInput, type ContactInput } from '../site/contact';
import { isValidEmail, isValidName, isValidWebsite } from './field-rules';
import { validateLeadInput } from '../site/lead';
import { MESSAGES } from './messages';
import { endSentence, isPlainMultilineText, isPlainText, toPlainText } from './plain-text';
import { PAGE_MAX, PAGE_SIZE_MAX } from './rules';
import { validateSupportIssueInput } from '../owner/support';
import { isValidPhone } from './phone';

/** Every character the rule refuses, one of each kind. */
const C0 = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code));
const DEL_AND_C1 = Array.from({ length: 0x21 }, (_, offset) => String.fromCharCode(0x7f + offset));
const BIDI = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];
const MULTI_LINE_ALLOWED = ['\t', '\n', '\r'];

describe('isPlainText (single-line fields)', () => {
  it.each(
    [...C0, ...DEL_AND_C1, ...BIDI].map((character) => [
      character.codePointAt(0)?.toString(16),
      character,
    ]),
  )('refuses U+%s anywhere in the value', (_code, character) => {
    expect(isPlainText(character)).toBe(false);
    expect(isPlainText(`Green${character}Valley`)).toBe(false);
    expect(isPlainText(`Green Valley${character}`)).toBe(false);
  });

  it('accepts ordinary text in any script, emoji, and the bidi marks that only hint direction', () => {
    for (const text of [
      'Green Valley Fitness',
      'Zoë & Ngā',
      'مركز اللياقة',
      '健身房 💪',
      'a\u200Fb',
      '',
    ]) {
      expect(isPlainText(text)).toBe(true);
    }
  });
});

describe('isPlainMultilineText (contact message, issue description)', () => {
  it('keeps tabs and line breaks (LF and CRLF)', () => {
    expect(isPlainMultilineText('Hello,\r\n\tthe table\nis empty')).toBe(true);
  });

  it('refuses every other control character and the bidi overrides', () => {
    for (const character of [...C0, ...DEL_AND_C1, ...BIDI].filter(
      (c) => !MULTI_LINE_ALLOWED.includes(c),
    )) {
      expect(isPlainMultilineText(`line one\n${character}line two`)).toBe(false);
    }
  });
});

describe('each field refuses control characters with its own message', () => {
  const contact: ContactInput = {
    firstName: 'Sam',
    lastName: 'Lee',
    email: 'sam@example.com',
    phoneNumber: '0412 345 678',
    website: 'https://mygym.com.au',
    message: 'Hello',
  };

  it('emails, phones, websites and names', () => {
    expect(isValidEmail('sam@gym.com')).toBe(true);
    expect(isValidEmail('sam\u0000@gym.com')).toBe(false);
    expect(isValidEmail('sam@gym.com\u202E')).toBe(false);
    expect(isValidEmail('sam\u007F@gym.com')).toBe(false);
    expect(isValidPhone('0412\u0000345 678')).toBe(false);
    expect(isValidPhone('0412 345\u0001678', 'US')).toBe(false);
    expect(isValidWebsite('gym\u0000.com')).toBe(false);
    expect(isValidWebsite('gym.com/\u202Eexe.txt')).toBe(false);
    expect(isValidName('Sam\u0000Lee')).toBe(false);
    expect(isValidName('Sam\u202ELee')).toBe(false);
  });

  it('Account Settings: one message per field', () => {
    expect(
      validateAccountDetails({
        businessName: 'Gym\u0000',
        website: 'gym.com\u0007',
        phoneNumber: '0412 345 678\u001B',
      }),
    ).toEqual({
      businessName: MESSAGES.businessNameRequired,
      website: MESSAGES.signupInvalidUrl,
      phoneNumber: MESSAGES.signupInvalidPhone,
    });
  });

  it('contact form: a message may span lines but not hold other controls', () => {
    expect(validateContactInput({ ...contact, message: 'Hi,\r\n\tthanks' })).toEqual({});
    expect(
      validateContactInput({ ...contact, message: 'Hi\u0000', email: 'a\u0000@b.com' }),
    ).toEqual({
      message: MESSAGES.messageInvalidCharacters,
      email: MESSAGES.invalidEmail,
    });
  });

  it('issue form: the title is one line, the description may span lines', () => {
    expect(
      validateSupportIssueInput({ summary: 'Broken', description: 'Steps:\n1. open\n2. wait' }),
    ).toEqual({});
    expect(
      validateSupportIssueInput({ summary: 'Bro\nken', description: 'Steps \u202E1' }),
    ).toEqual({
      summary: MESSAGES.issueTitleInvalidCharacters,
      description: MESSAGES.issueDescriptionInvalidCharacters,
    });
  });

  it('landing page lead: the company name', () => {
    expect(
      validateLeadInput({
        fullName: 'Sam Lee',
        email: 'sam@gym.com',
        phone: '0412 345 678',
        company: 'Gym\u0000',
      }),
    ).toEqual({ company: MESSAGES.companyInvalidCharacters });
  });
});

describe('paging messages', () => {
  it('name the bounds the API enforces', () => {
    expect(MESSAGES.pageInvalid).toContain(String(PAGE_MAX));
    expect(MESSAGES.pageSizeInvalid).toContain(String(PAGE_SIZE_MAX));
  });
});

describe('toPlainText (issue 24 part 3: names from Mindbody)', () => {
  it('turns control characters into spaces and collapses white space', () => {
    expect(toPlainText('Carl\r\nBcc: bcc@evil.example')).toBe('Carl Bcc: bcc@evil.example');
    expect(toPlainText('  Ana \t María\u202E ')).toBe('Ana María');
    expect(toPlainText('Nia\u0000 Lee\u0085')).toBe('Nia Lee');
    expect(toPlainText('=HYPERLINK("x")')).toBe('=HYPERLINK("x")');
  });
});

describe('endSentence', () => {
  it('adds the full stop a name lacks and never a second one', () => {
    expect(endSentence('Peak Fitness')).toBe('Peak Fitness.');
    expect(endSentence("Ó Briain's Strength & Co.")).toBe("Ó Briain's Strength & Co.");
    expect(endSentence('Yoga!')).toBe('Yoga!');
    expect(endSentence('Peak Fitness', '!')).toBe('Peak Fitness!');
    expect(endSentence('Strength & Co.', '!')).toBe('Strength & Co.');
  });
});
