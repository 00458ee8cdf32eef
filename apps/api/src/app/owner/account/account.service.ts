import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ACCOUNT_DETAILS_FIELDS,
  businessLocale,
  MESSAGES,
  validateAccountDetails,
  validatePasswordChange,
  validatePasswordSet,
  type AccountDetails,
  type ChangePasswordRequest,
  type MessageReply,
  type UpdateAccountRequest,
} from '@grove/contracts';
import { hashPassword, verifyPassword } from '../../platform/auth/auth-tokens';
import { NotSignedInException } from '../../platform/auth/auth.exceptions';
import { isCommonPassword } from '../../platform/auth/common-passwords';
import { passwordChangedEmail } from '../../platform/auth/password-emails';
import { PasskeysService } from '../../platform/auth/passkeys/passkeys.service';
import { PasswordResetService } from '../../platform/auth/password-reset.service';
import { SessionsService } from '../../platform/auth/sessions.service';
import { AuditLog } from '../../platform/audit/audit-log';
import { AppConfig } from '../../platform/config/app-config';
import type { BusinessScope } from '../../platform/database/business-scope';
import type { AuthUser } from '../../platform/common/auth-user';
import { MailService } from '../../platform/mail/mail.service';
import {
  AccountInvalidException,
  CurrentPasswordWrongException,
  PasswordAlreadySetException,
} from './account.exceptions';
import { AccountRepository } from './account.repository';

/**
 * Account Settings of the signed-in owner (docs/product.md#signed-in-frame account dropdown 'Account Settings', which the
 * old app left inactive; Grove makes it real): the owner's names, the business's name, phone and
 * website (the signup fields, docs/product.md#entities, docs/product.md#validation-signup), and the password (argon2id, as AuthService).
 * Every method takes the session's `BusinessScope` first and the signed-in `AuthUser`.
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly sessions: SessionsService,
    private readonly mail: MailService,
    private readonly passwordReset: PasswordResetService,
    private readonly config: AppConfig,
    private readonly audit: AuditLog,
    private readonly passkeys: PasskeysService,
  ) {}

  /**
   * @returns AccountDetails `{ firstName, lastName, email, businessName, phoneNumber, website }`
   * @throws NotSignedInException 401 when the session's user no longer exists
   */
  async get(scope: BusinessScope, user: AuthUser): Promise<AccountDetails> {
    const account = await this.accounts.find(scope, user.userId);
    if (!account) throw new NotSignedInException();
    return account;
  }

  /**
   * Updates the given fields (absent ones are kept), trimmed. Rules: contracts'
   * `validateAccountDetails` (docs/product.md#validation-signup signup), the same function Account Settings uses: names
   * (docs/product.md#validation-names) 'Invalid Name', country an ISO 3166-1 alpha-2 code ('Please
   * choose your country'), phone valid for the country sent or the business's country now ('Invalid
   * Phone Number', docs/product.md#country; a new country alone must fit the phone number kept),
   * website 'Invalid URL',
   * a present field may not be empty ('Please fill in all required fields'; business name 'Please
   * enter your business name', also when over 200 characters). The fields that moved are recorded
   * in the audit log ('Account details', docs/product.md#audit-log) in the update's transaction.
   * @returns the updated AccountDetails
   * @throws AccountInvalidException 400 with one message per invalid field; nothing is changed
   * @throws NotSignedInException 401 when the session's user no longer exists
   */
  async update(
    scope: BusinessScope,
    user: AuthUser,
    patch: UpdateAccountRequest,
  ): Promise<AccountDetails> {
    const current = await this.get(scope, user);
    const errors = validateAccountDetails(patch, current.country);
    if (patch.country !== undefined && patch.phoneNumber === undefined && !errors.country) {
      // A new country must fit the phone number kept.
      const kept = validateAccountDetails({
        country: patch.country,
        phoneNumber: current.phoneNumber,
      });
      if (kept.phoneNumber) errors.phoneNumber = kept.phoneNumber;
    }
    if (Object.keys(errors).length > 0) throw new AccountInvalidException(errors);
    const clean: UpdateAccountRequest = {};
    for (const field of ACCOUNT_DETAILS_FIELDS) {
      const value = patch[field];
      if (value !== undefined) clean[field] = value.trim();
    }
    const found = async (manager: EntityManager): Promise<AccountDetails> => {
      const account = await this.accounts.find(scope, user.userId, manager);
      if (!account) throw new NotSignedInException();
      return account;
    };
    return this.audit.changeSetting(scope, 'Account details', found, async (manager) => {
      await this.accounts.update(scope, manager, user.userId, clean);
      return found(manager);
    });
  }

  /**
   * Changes the password after checking the current one and, in the same transaction, ends every
   * other session of this user (other browsers must sign in again; the session making the change
   * stays signed in) and every reset link not yet used (issue 34 item 2), and queues the email
   * telling the owner it was changed (ASVS 2.2.3; MailService, SMTP or the outbox). Rules: contracts' `validatePasswordChange`, the same function the 'Change password'
   * form uses, with the API's common-password list (`isCommonPassword`).
   * @returns `{ message: 'Your password has been changed' }`
   * @throws AccountInvalidException 400 'Please enter your current password' (currentPassword) /
   *   'Password must be at least 12 characters', 'Password can be at most 128 characters',
   *   'This password is too common…' (newPassword)
   * @throws CurrentPasswordWrongException 400 'Your current password is not correct'
   */
  async changePassword(
    scope: BusinessScope,
    user: AuthUser,
    body: ChangePasswordRequest,
  ): Promise<MessageReply> {
    const errors = validatePasswordChange(body, isCommonPassword);
    if (Object.keys(errors).length > 0) throw new AccountInvalidException(errors);
    const hash = await this.accounts.passwordHash(scope, user.userId);
    if (!hash) throw new NotSignedInException();
    if (!(await verifyPassword(hash, body.currentPassword)))
      throw new CurrentPasswordWrongException();
    await this.replacePassword(scope, user, body.newPassword, (manager, newHash) =>
      this.accounts.setPasswordHash(scope, manager, user.userId, newHash),
    );
    return { message: MESSAGES.passwordChanged };
  }

  /**
   * 'Set a password' of an account that joined with a passkey (docs/decisions/passkeys.md "Set a
   * password"; its password is 256 random bits nobody knows). The person confirms it is them
   * with one of their passkeys (`PasskeysService.confirm`, the answer to `confirmOptions`: ASVS
   * 4.0.3 V3.7.1, a sensitive change needs a re-authentication; no current password exists to
   * ask for). Then, as a change: in one transaction the password (only while none was chosen: of
   * two concurrent sets one wins), every other session and every unused reset link ended, and the
   * 'password changed' email queued. Rules: contracts' `validatePasswordSet` (Grove's password
   * rule with the API's common-password list), the same function the form uses.
   * @returns `{ message: 'Your password has been set' }`
   * @throws AccountInvalidException 400 the password rule's messages (newPassword)
   * @throws PasskeyConfirmException 400 "Your passkey could not confirm it's you…"
   * @throws PasswordAlreadySetException 409 when the account has a password of its person's choosing
   */
  async setPassword(
    scope: BusinessScope,
    user: AuthUser,
    body: { newPassword: string; response: unknown },
  ): Promise<MessageReply> {
    const errors = validatePasswordSet(body, isCommonPassword);
    if (Object.keys(errors).length > 0) throw new AccountInvalidException(errors);
    await this.passkeys.confirm(user, body.response);
    await this.replacePassword(scope, user, body.newPassword, async (manager, hash) => {
      if (!(await this.accounts.setFirstPassword(scope, manager, user.userId, hash)))
        throw new PasswordAlreadySetException();
    });
    return { message: MESSAGES.passwordSet };
  }

  /**
   * Writes a new password (`write`, given the argon2id hash) and, in the same transaction, ends
   * every other session of this user and every reset link not yet used (issue 34 item 2), and
   * queues the email telling the owner it was changed (ASVS 2.2.3; a crash after the commit
   * cannot lose the email). A `write` that throws changes nothing.
   * @throws NotSignedInException 401 when the session's user no longer exists
   */
  private async replacePassword(
    scope: BusinessScope,
    user: AuthUser,
    password: string,
    write: (manager: EntityManager, hash: string) => Promise<void>,
  ): Promise<void> {
    const account = await this.accounts.find(scope, user.userId);
    if (!account) throw new NotSignedInException();
    const newHash = await hashPassword(password);
    const changed = passwordChangedEmail(
      { ...account, businessLocale: businessLocale(account.country, account.timeZone) },
      new Date(),
      this.config.mail.contactRecipient,
    );
    await this.accounts.transaction(async (manager) => {
      await write(manager, newHash);
      if (user.sessionId) await this.sessions.revokeOthers(user.userId, user.sessionId, manager);
      await this.passwordReset.endLinksOf(user.userId, manager);
      await this.mail.queue(changed, undefined, manager);
    });
    this.mail.wake();
  }
}
