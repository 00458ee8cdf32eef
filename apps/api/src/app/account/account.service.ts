import { Injectable } from '@nestjs/common';
import {
  isValidName,
  isValidPhone,
  isValidWebsite,
  MESSAGES,
  PASSWORD_MIN_LENGTH,
  type AccountDetails,
  type ChangePasswordRequest,
  type MessageReply,
  type UpdateAccountRequest,
} from '@grove/contracts';
import { hashPassword, verifyPassword } from '../auth/auth-tokens';
import { NotSignedInException } from '../auth/auth.exceptions';
import { SessionsService } from '../auth/sessions.service';
import type { AuthUser } from '../common/auth-user';
import { AccountInvalidException, CurrentPasswordWrongException } from './account.exceptions';
import { AccountRepository } from './account.repository';

type EditableField = keyof UpdateAccountRequest;

/** Per field: the SPEC §5 signup rule and its message (empty fields: 'Please fill in all required fields'). */
const RULES: Record<EditableField, { check: (value: string) => boolean; invalid: string; empty: string }> = {
  firstName: { check: isValidName, invalid: MESSAGES.signupInvalidName, empty: MESSAGES.fillAllFields },
  lastName: { check: isValidName, invalid: MESSAGES.signupInvalidName, empty: MESSAGES.fillAllFields },
  businessName: { check: (value) => value.length <= 200, invalid: MESSAGES.businessNameRequired, empty: MESSAGES.businessNameRequired },
  phoneNumber: { check: isValidPhone, invalid: MESSAGES.signupInvalidPhone, empty: MESSAGES.fillAllFields },
  website: { check: isValidWebsite, invalid: MESSAGES.signupInvalidUrl, empty: MESSAGES.fillAllFields },
};

/**
 * Account Settings of the signed-in owner (SPEC §2 account dropdown 'Account Settings', which the
 * old app left inactive; Grove makes it real): the owner's names, the business's name, phone and
 * website (the signup fields, SPEC §3/§5), and the password (argon2id, as AuthService).
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly sessions: SessionsService,
  ) {}

  /**
   * @returns AccountDetails `{ firstName, lastName, email, businessName, phoneNumber, website }`
   * @throws NotSignedInException 401 when the session's user no longer exists
   */
  async get(user: AuthUser): Promise<AccountDetails> {
    const account = await this.accounts.find(user.businessId, user.userId);
    if (!account) throw new NotSignedInException();
    return account;
  }

  /**
   * Updates the given fields (absent ones are kept). Rules (SPEC §5 signup): names letters and
   * spaces ≤ 100 'Invalid Name', phone 'Invalid Phone Number', website 'Invalid URL', a present
   * field may not be empty ('Please fill in all required fields'; business name 'Please enter
   * your business name').
   * @returns the updated AccountDetails
   * @throws AccountInvalidException 400 with one message per invalid field; nothing is changed
   */
  async update(user: AuthUser, patch: UpdateAccountRequest): Promise<AccountDetails> {
    const errors: Record<string, string> = {};
    const clean: UpdateAccountRequest = {};
    for (const field of Object.keys(RULES) as EditableField[]) {
      const value = patch[field];
      if (value === undefined) continue;
      const text = value.trim();
      const rule = RULES[field];
      if (!text) errors[field] = rule.empty;
      else if (!rule.check(text)) errors[field] = rule.invalid;
      else clean[field] = text;
    }
    if (Object.keys(errors).length > 0) throw new AccountInvalidException(errors);
    await this.accounts.update(user.businessId, user.userId, clean);
    return this.get(user);
  }

  /**
   * Changes the password after checking the current one, then ends every other session of this
   * user (other browsers must sign in again); the session making the change stays signed in.
   * @returns `{ message: 'Your password has been changed' }`
   * @throws AccountInvalidException 400 'Password must be at least 8 characters' (newPassword)
   * @throws CurrentPasswordWrongException 400 'Your current password is not correct'
   */
  async changePassword(user: AuthUser, body: ChangePasswordRequest): Promise<MessageReply> {
    if (body.newPassword.length < PASSWORD_MIN_LENGTH) {
      throw new AccountInvalidException({ newPassword: MESSAGES.passwordTooShort });
    }
    const hash = await this.accounts.passwordHash(user.businessId, user.userId);
    if (!hash) throw new NotSignedInException();
    if (!(await verifyPassword(hash, body.currentPassword))) throw new CurrentPasswordWrongException();
    await this.accounts.setPasswordHash(user.businessId, user.userId, await hashPassword(body.newPassword));
    if (user.sessionId) await this.sessions.revokeOthers(user.userId, user.sessionId);
    return { message: MESSAGES.passwordChanged };
  }
}
