import { MESSAGES } from '../common/messages';
import { PASSKEY_MESSAGES } from './passkeys';
import { validateInvitationAccept, validateInvitationPasskey } from './staff';

describe('the invitation page’s rules (docs/product.md#staff-accounts)', () => {
  it('with a password: names of any script and a password of signup’s rule', () => {
    expect(
      validateInvitationAccept({
        firstName: 'Zoë',
        lastName: "D'Arcy-Nguyễn",
        password: 'front desk at six am',
      }),
    ).toEqual({});
    expect(
      validateInvitationAccept({ firstName: '', lastName: 'O’Brien', password: 'short' }),
    ).toEqual(
      expect.objectContaining({
        firstName: MESSAGES.signupInvalidName,
        password: expect.any(String),
      }),
    );
  });

  it('with a passkey: the same names and a passkey name instead of a password', () => {
    expect(
      validateInvitationPasskey({
        firstName: 'Ana-Sofía',
        lastName: 'Núñez',
        passkeyName: 'Work laptop',
      }),
    ).toEqual({});
    expect(
      validateInvitationPasskey({ firstName: 'Siobhán', lastName: '42', passkeyName: '  ' }),
    ).toEqual({ lastName: MESSAGES.signupInvalidName, passkeyName: PASSKEY_MESSAGES.nameMissing });
    expect(
      validateInvitationPasskey({
        firstName: 'Siobhán',
        lastName: 'O’Brien',
        passkeyName: 'x'.repeat(61),
      }),
    ).toEqual({ passkeyName: PASSKEY_MESSAGES.nameTooLong });
  });
});
