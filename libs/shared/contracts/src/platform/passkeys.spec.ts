import { PASSKEY_MESSAGES, validatePasskeyName } from './passkeys';

describe('validatePasskeyName (docs/product.md#passkeys)', () => {
  it('accepts a trimmed name of up to 60 characters, in any script', () => {
    expect(validatePasskeyName({ name: '  Zoë’s MacBook  ' })).toEqual({});
    expect(validatePasskeyName({ name: 'Điện thoại của Nguyễn' })).toEqual({});
    expect(validatePasskeyName({ name: 'é'.repeat(60) })).toEqual({});
  });

  it('refuses an empty, too long or non-text name with its message', () => {
    expect(validatePasskeyName({ name: '   ' })).toEqual({ name: PASSKEY_MESSAGES.nameMissing });
    expect(validatePasskeyName({})).toEqual({ name: PASSKEY_MESSAGES.nameMissing });
    expect(validatePasskeyName({ name: 'x'.repeat(61) })).toEqual({
      name: PASSKEY_MESSAGES.nameTooLong,
    });
    expect(validatePasskeyName({ name: 'Phone\u0000' })).toEqual({
      name: PASSKEY_MESSAGES.nameInvalid,
    });
  });
});
