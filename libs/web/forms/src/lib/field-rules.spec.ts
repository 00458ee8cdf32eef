import { fieldRules } from './field-rules';

type Passwords = { newPassword: string; confirmPassword: string };
const validate = (values: Passwords): Partial<Record<keyof Passwords, string>> => ({
  ...(values.newPassword.length < 8 ? { newPassword: 'Too short' } : {}),
  ...(values.confirmPassword !== values.newPassword ? { confirmPassword: 'Does not match' } : {}),
});

describe('fieldRules', () => {
  const rule = fieldRules<Passwords>(validate);

  it("answers each field's message from the whole form's values, or true when it passes", () => {
    const values = { newPassword: 'short', confirmPassword: 'other' };
    expect(rule('newPassword')(values.newPassword, values)).toBe('Too short');
    expect(rule('confirmPassword')(values.confirmPassword, values)).toBe('Does not match');
    const fine = { newPassword: 'long enough', confirmPassword: 'long enough' };
    expect(rule('newPassword')(fine.newPassword, fine)).toBe(true);
    expect(rule('confirmPassword')(fine.confirmPassword, fine)).toBe(true);
  });
});
