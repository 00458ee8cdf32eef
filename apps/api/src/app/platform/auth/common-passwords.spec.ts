import { isCommonPassword } from './common-passwords';

describe('isCommonPassword (ASVS 2.1.7, zxcvbn-ts common list)', () => {
  it.each([
    'password',
    'password1234',
    'qwertyuiop123',
    '1q2w3e4r5t6y',
    'PassWordPassWord',
    'administrator',
  ])('finds the listed password %p whatever its case', (password) =>
    expect(isCommonPassword(password)).toBe(true),
  );

  it.each(['Password2024!', 'monkey123456', 'sunshine!!!!', 'dragon 12345'])(
    'finds a listed password with digits or symbols appended: %p',
    (password) => expect(isCommonPassword(password)).toBe(true),
  );

  it.each(['aaaaaaaaaaaa', 'abcabcabcabc', '121212121212'])(
    'finds one short unit repeated: %p',
    (password) => expect(isCommonPassword(password)).toBe(true),
  );

  it.each([
    'correct horse battery',
    'a whole new passphrase',
    'Green Valley squats 7am',
    'grove-demo-1234',
  ])('lets an uncommon password through: %p', (password) =>
    expect(isCommonPassword(password)).toBe(false),
  );
});
