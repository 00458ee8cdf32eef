import { MESSAGES } from '../common/messages';
import { validatePasswordReset, validatePasswordResetRequest } from './password-reset';

describe('forgot password rules (docs/product.md#forgot-password)', () => {
  it('asks for a valid email address only', () => {
    expect(validatePasswordResetRequest({ email: 'sam@gym.com' })).toEqual({});
    expect(validatePasswordResetRequest({ email: ' sam@gym.com ' })).toEqual({});
    for (const email of ['', 'sam', 'sam@gym', 'sam\u0000@gym.com'])
      expect(validatePasswordResetRequest({ email })).toEqual({ email: MESSAGES.invalidEmail });
  });

  it('takes a new password under the signup rule, confirmed when the form asks twice', () => {
    expect(validatePasswordReset({ password: 'a brand new passphrase' })).toEqual({});
    expect(validatePasswordReset({ password: 'short' })).toEqual({
      password: MESSAGES.passwordTooShort,
    });
    expect(validatePasswordReset({ password: 'x'.repeat(129) })).toEqual({
      password: MESSAGES.passwordTooLong,
    });
    expect(
      validatePasswordReset({ password: 'password1234' }, (value) => value === 'password1234'),
    ).toEqual({ password: MESSAGES.passwordTooCommon });
    expect(
      validatePasswordReset({
        password: 'a brand new passphrase',
        confirmPassword: 'a brand new passphras',
      }),
    ).toEqual({ confirmPassword: MESSAGES.passwordsDoNotMatch });
  });
});
