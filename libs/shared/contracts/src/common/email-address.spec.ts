import { isValidEmail, mailAddress, mailboxOf } from './email-address';
import { emailKey } from './email-key';
import { validateMemberInput } from '../membership/members';

describe('one plain mailbox (issue 24 part 2, RFC 5321 §4.1.2 / RFC 5322 §3.4)', () => {
  it.each([
    'sam@gym.com.au',
    'first.last+tag@example.io',
    "o'brien@example.com",
    'a!#$%&*/=?^_`{|}~-z@example.com',
    'ana.maría@correo.es',
    'user@xn--bcher-kva.example',
    'user@bücher.de',
    `${'a'.repeat(64)}@example.com`,
  ])('accepts %p', (address) => {
    expect(isValidEmail(address)).toBe(true);
    expect(mailboxOf(` ${address} `)).toBe(address);
  });

  it.each([
    ['a comment', '(x)zed@example.com'],
    ['a trailing comment', 'zed@example.com(x)'],
    ['a list with a comma', 'a,eve@example.com'],
    ['a list of two', 'nia@example.com, list@evil.example'],
    ['a list with a semicolon', 'a;c@example.com'],
    ['a group', 'grp:d@example.com'],
    ['a group with its end', 'grp:d@example.com;'],
    ['a display name', 'Ann <ann@example.com>'],
    ['angle brackets', '<ann@example.com>'],
    ['a quoted local part', '"a,b"@example.com'],
    ['a quoted local part with a space', '"a b"@example.com'],
    ['CRLF and a header', 'carl@example.com\r\nBcc: bcc@evil.example'],
    ['a line feed', 'carl@example.com\nx'],
    ['a tab', 'carl\t@example.com'],
    ['a NUL', 'carl\u0000@example.com'],
    ['a bidi override', 'carl@example.com\u202E'],
    ['a zero-width space', 'car\u200Bl@example.com'],
    ['two @', 'a@b@example.com'],
    ['an address literal', 'a@[127.0.0.1]'],
    ['a host without a dot', 'a@localhost'],
    ['a one-letter top level', 'sam@gym.c'],
    ['a numeric top level', 'sam@10.0.0.1'],
    ['a leading dot', '.sam@gym.com'],
    ['a trailing dot', 'sam.@gym.com'],
    ['two dots', 'sa..m@gym.com'],
    ['a hyphen-led label', 'sam@-gym.com'],
    ['an empty label', 'sam@gym..com'],
    ['a backslash', 'sa\\m@gym.com'],
    ['a space', 'sam @gym.com'],
    ['a local part over 64', `${'a'.repeat(65)}@example.com`],
    [
      'an address over 254',
      `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(60)}.com`,
    ],
    ['nothing', ''],
    ['no local part', '@gym.com'],
    ['no domain', 'sam@'],
  ])('refuses %s: %p', (_what, address) => {
    expect(isValidEmail(address)).toBe(false);
    expect(mailboxOf(address)).toBeNull();
    expect(() => mailAddress(address)).toThrow('Not a valid email address');
    expect(
      validateMemberInput({
        memberName: 'Zed',
        memberEmail: address,
        membershipPriceCents: 100,
        discountCents: 100,
      }),
    ).toEqual({ memberEmail: 'Not a valid email address' });
  });

  it('gives nodemailer an address object it does not parse again', () => {
    expect(mailAddress(' Ann.Lee@Gym.com ')).toEqual({ name: '', address: 'Ann.Lee@Gym.com' });
  });

  it('keys an accepted address by its mailbox: lower case, dots removed', () => {
    expect(emailKey(' Ann.Lee@Gym.com ')).toBe('annlee@gymcom');
  });
});
