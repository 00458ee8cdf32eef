import { Injectable } from '@nestjs/common';
import {
  ACCOUNT_DETAILS_FIELDS,
  MESSAGES,
  validateAccountDetails,
  validatePasswordChange,
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
   * Updates the given fields (absent ones are kept), trimmed. Rules: contracts'
   * `validateAccountDetails` (SPEC §5 signup), the same function Account Settings uses: names
   * letters and spaces ≤ 100 'Invalid Name', phone 'Invalid Phone Number', website 'Invalid URL',
   * a present field may not be empty ('Please fill in all required fields'; business name 'Please
   * enter your business name', also when over 200 characters).
   * @returns the updated AccountDetails
   * @throws AccountInvalidException 400 with one message per invalid field; nothing is changed
   */
  async update(user: AuthUser, patch: UpdateAccountRequest): Promise<AccountDetails> {
    const errors = validateAccountDetails(patch);
    if (Object.keys(errors).length > 0) throw new AccountInvalidException(errors);
    const clean: UpdateAccountRequest = {};
    for (const field of ACCOUNT_DETAILS_FIELDS) {
      const value = patch[field];
      if (value !== undefined) clean[field] = value.trim();
    }
    await this.accounts.update(user.businessId, user.userId, clean);
    return this.get(user);
  }

  /**
   * Changes the password after checking the current one, then ends every other session of this
   * user (other browsers must sign in again); the session making the change stays signed in.
   * Rules: contracts' `validatePasswordChange`, the same function the 'Change password' form uses.
   * @returns `{ message: 'Your password has been changed' }`
   * @throws AccountInvalidException 400 'Please enter your current password' (currentPassword) /
   *   'Password must be at least 8 characters' (newPassword)
   * @throws CurrentPasswordWrongException 400 'Your current password is not correct'
   */
  async changePassword(user: AuthUser, body: ChangePasswordRequest): Promise<MessageReply> {
    const errors = validatePasswordChange(body);
    if (Object.keys(errors).length > 0) throw new AccountInvalidException(errors);
    const hash = await this.accounts.passwordHash(user.businessId, user.userId);
    if (!hash) throw new NotSignedInException();
    if (!(await verifyPassword(hash, body.currentPassword))) throw new CurrentPasswordWrongException();
    await this.accounts.setPasswordHash(user.businessId, user.userId, await hashPassword(body.newPassword));
    if (user.sessionId) await this.sessions.revokeOthers(user.userId, user.sessionId);
    return { message: MESSAGES.passwordChanged };
  }
}
