import { MESSAGES } from '../common/messages';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordLength,
  passwordProblem,
} from './password';

describe("Grove's password rule (ASVS 4.0.3 V2.1)", () => {
  it('needs at least 12 characters and allows up to 128, with no composition rules', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    expect(PASSWORD_MAX_LENGTH).toBe(128);
    expect(passwordProblem('a'.repeat(11))).toBe(MESSAGES.passwordTooShort);
    expect(passwordProblem('all lowercase words')).toBeNull();
    expect(passwordProblem('x'.repeat(128))).toBeNull();
    expect(passwordProblem('x'.repeat(129))).toBe(MESSAGES.passwordTooLong);
  });

  it('counts Unicode characters, not UTF-16 units, and a run of spaces once (2.1.1, 2.1.4)', () => {
    expect(passwordLength('🌳🌳🌳🌳🌳🌳🌳🌳🌳🌳🌳🌳')).toBe(12);
    expect(passwordProblem('🌳🌳🌳🌳🌳🌳🌳🌳🌳🌳🌳🌳')).toBeNull();
    expect(passwordLength('grove    gym')).toBe(9);
    expect(passwordProblem('grove    gym')).toBe(MESSAGES.passwordTooShort);
  });

  it('refuses what the common-password check knows, only once the length is right', () => {
    const isCommon = (password: string) => ['password1234', 'short'].includes(password);
    expect(passwordProblem('password1234', isCommon)).toBe(MESSAGES.passwordTooCommon);
    expect(passwordProblem('short', isCommon)).toBe(MESSAGES.passwordTooShort);
    expect(passwordProblem('password1234')).toBeNull();
  });
});
