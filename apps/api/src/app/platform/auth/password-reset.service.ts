import type { EntityManager } from 'typeorm';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import {
  MESSAGES,
  PASSWORD_RESET_TTL_MINUTES,
  validatePasswordReset,
  validatePasswordResetRequest,
  type MessageReply,
  type PasswordResetConfirmRequest,
  type PasswordResetRequest,
} from '@grove/contracts';
import { AppConfig } from '../config/app-config';
import { JobsService } from '../jobs/jobs.service';
import { LoginThrottle } from '../throttle/login-throttle';
import { MailService } from '../mail/mail.service';
import { nothingDelivered } from '../mail/smtp-outcome';
import { hashPassword, hashRefreshToken, newRefreshToken } from './auth-tokens';
import {
  PasswordResetInvalidException,
  PasswordResetLinkInvalidException,
} from './auth.exceptions';
import { AuthService, toSessionUser, type AuthResult } from './auth.service';
import { isCommonPassword } from './common-passwords';
import { passwordChangedEmail, passwordResetEmail } from './password-emails';
import { PasswordResetRepository } from './password-reset.repository';
import { SessionsService } from './sessions.service';
import { UsersRepository } from './users.repository';

/** The pg-boss queue that makes and emails a reset link. */
export const PASSWORD_RESET_QUEUE = 'password-reset.email';

/** Reset links emailed to one owner per hour at most; further asks that hour send nothing (and answer alike). */
export const PASSWORD_RESET_EMAILS_PER_HOUR = 3;

/** A `password-reset.email` job: the address asked for and the origin of the link. */
export interface PasswordResetJob {
  email: string;
  origin: string;
  /**
   * 'sign-in-paused': nobody asked; the account's sign-in was paused after too many wrong
   * passwords (`LoginThrottle`), and the email says so (the link also lifts the pause).
   */
  reason?: 'sign-in-paused';
}

/**
 * What a `password-reset.email` job did (for tests and the log; never told to the asker):
 * 'uncertain' when an earlier attempt of the job began the SMTP conversation and never recorded
 * its end (nothing sent again, docs/decisions/grove-emails-at-most-once.md).
 */
export type PasswordResetOutcome = 'sent' | 'unknown' | 'limited' | 'uncertain';

/**
 * Forgot password (docs/product.md#forgot-password, issue 25): an owner asks for a reset link by
 * email and chooses a new password through it.
 *
 * - Asking always answers the same ('If an account uses this email, …') after the same work:
 *   one `password-reset.email` job is queued whatever the address, so neither the reply nor its
 *   timing tells whether an account uses it. The job makes the link (a 256-bit token, only its
 *   SHA-256 stored, 30 minutes, single use) and emails it through `MailService.deliver` (SMTP or
 *   the outbox), at most `PASSWORD_RESET_EMAILS_PER_HOUR` per owner; the plain token exists only
 *   in the email (never in the job's data).
 * - Using the link sets the new password (Grove's rule, as at signup), ends every session of the
 *   owner, marks the link and the owner's other links used, and signs this browser in, in one
 *   transaction; then emails 'Your Grove password was changed'.
 * Both routes are throttled per client (throttler 'password-reset', THROTTLE_PASSWORD_RESET_LIMIT).
 */
@Injectable()
export class PasswordResetService implements OnModuleInit {
  private readonly logger = new Logger(PasswordResetService.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly mail: MailService,
    private readonly users: UsersRepository,
    private readonly tokens: PasswordResetRepository,
    private readonly sessions: SessionsService,
    private readonly auth: AuthService,
    private readonly config: AppConfig,
    private readonly loginThrottle: LoginThrottle,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<PasswordResetJob>(
      { name: PASSWORD_RESET_QUEUE, retryLimit: 3, retryDelay: 5, retryBackoff: true },
      async (data, job) => {
        await this.sendLink(data, job.id);
      },
    );
  }

  /**
   * Ends every reset link `userId` has not used, inside `manager`'s transaction (a password changed
   * in Account Settings: a link sent before it must not set another one).
   */
  async endLinksOf(userId: string, manager: EntityManager): Promise<void> {
    await this.tokens.endAll(manager, userId);
  }

  /**
   * Asks for a reset link for `email` (`POST /api/auth/password-reset`).
   * The link is built on PUBLIC_ORIGIN, never on the request's Host (issue 24).
   * @returns always `{ message: 'If an account uses this email, a link to choose a new password is on its way. Check your inbox.' }`
   * @throws PasswordResetInvalidException never for a valid address (the DTO checks it first)
   */
  async request(input: PasswordResetRequest): Promise<MessageReply> {
    const errors = validatePasswordResetRequest(input);
    if (errors.email) throw new PasswordResetInvalidException(errors);
    await this.jobs.send<PasswordResetJob>(PASSWORD_RESET_QUEUE, {
      email: input.email.trim(),
      origin: this.config.publicOrigin,
    });
    return { message: MESSAGES.passwordResetSent };
  }

  /**
   * The account of `email` (if any) had its sign-in paused after too many wrong passwords
   * (`LoginThrottle.countAccountAttempt`): queues a reset link saying so, the way out for the
   * owner (using it lifts the pause). Nothing is told to the signing-in client.
   */
  async signInPaused(email: string): Promise<void> {
    await this.jobs.send<PasswordResetJob>(PASSWORD_RESET_QUEUE, {
      email: email.trim(),
      origin: this.config.publicOrigin,
      reason: 'sign-in-paused',
    });
  }

  /**
   * The job: makes a reset link for the account of `job.email` (any case) and emails it at most
   * once to the SMTP server (`MailService.deliverOnce` under the job's id,
   * docs/decisions/grove-emails-at-most-once.md). A link whose email the server cannot have
   * accepted (`nothingDelivered`: refused, never connected, or its outbox row refused) is withdrawn and the job is retried with a new one; a link whose
   * email may have gone out (the reply lost) stays usable, and the retry sends nothing (its own new
   * link withdrawn).
   * @param deliveryId the job's id (a retry keeps it): names this one email
   * @returns 'unknown' (no such account, or its address is not one mailbox: nothing sent),
   *   'limited' (the owner's hourly limit: nothing sent), 'uncertain' (an earlier attempt sent it
   *   or may have: nothing sent) or 'sent'
   * @throws the SMTP error (pg-boss retries the job)
   */
  async sendLink(job: PasswordResetJob, deliveryId: string): Promise<PasswordResetOutcome> {
    const user = await this.users.findByEmailWithBusiness(job.email);
    if (!user?.business) return 'unknown';
    const token = newRefreshToken();
    const id = await this.tokens.issue(
      user.id,
      hashRefreshToken(token),
      PASSWORD_RESET_TTL_MINUTES * 60,
      PASSWORD_RESET_EMAILS_PER_HOUR,
    );
    if (!id) {
      this.logger.warn(`password reset for user ${user.id}: hourly limit reached, nothing sent`);
      return 'limited';
    }
    const owner = {
      email: user.email,
      firstName: user.firstName,
      businessName: user.business.name,
    };
    let outcome;
    try {
      outcome = await this.mail.deliverOnce(
        deliveryId,
        passwordResetEmail(owner, job.origin, token, job.reason),
      );
    } catch (error) {
      // Refused or never connected: the link reached no one. Else the email may carry it: kept.
      if (nothingDelivered(error)) await this.tokens.withdraw(id);
      throw error;
    }
    if (outcome === 'sent' || outcome === 'outboxed') return 'sent';
    // Not sent by this attempt (an earlier one's email, and its link, may be out; or the address
    // is not one mailbox): this attempt's link is withdrawn.
    await this.tokens.withdraw(id);
    return outcome === 'refused' ? 'unknown' : 'uncertain';
  }

  /**
   * Uses a reset link (`POST /api/auth/password-reset/confirm`): checks the new password
   * (contracts' `validatePasswordReset` with the common-password list), then in one transaction
   * uses the link, sets the password, ends every session of the owner, queues the 'Your Grove
   * password was changed' email and opens this browser's session.
   * Bad input changes nothing (the link still works).
   * @returns the signed-in owner and the new session's tokens (the controller sets the cookies)
   * @throws PasswordResetInvalidException 400 with the password rule's message (`fieldErrors.password`)
   * @throws PasswordResetLinkInvalidException 400 when the link is unknown, used or expired
   */
  async confirm(body: PasswordResetConfirmRequest, userAgent: string | null): Promise<AuthResult> {
    const errors = validatePasswordReset({ password: body.password }, isCommonPassword);
    if (errors.password) throw new PasswordResetInvalidException(errors);
    const passwordHash = await hashPassword(body.password);
    let ownerEmail = '';
    const opened = await this.users.transaction(async (manager) => {
      const userId = await this.tokens.consume(manager, hashRefreshToken(body.token));
      if (!userId) return null;
      await this.users.setPasswordHash(manager, userId, passwordHash);
      await this.sessions.revokeAll(userId, manager);
      const user = await this.users.findWithBusiness(userId, manager);
      if (!user?.business) throw new PasswordResetLinkInvalidException();
      // Queued with the change: a crash after the commit cannot lose the owner's notice.
      const owner = toSessionUser(user, user.business);
      ownerEmail = owner.email;
      await this.mail.queue(
        passwordChangedEmail(
          {
            email: owner.email,
            firstName: owner.firstName,
            businessName: owner.business.name,
            businessLocale: owner.business,
          },
          new Date(),
          this.config.mail.contactRecipient,
        ),
        undefined,
        manager,
      );
      return this.sessions.open(userId, userAgent, manager);
    });
    if (!opened) throw new PasswordResetLinkInvalidException();
    // The owner proved the mailbox: a sign-in paused by wrong passwords opens again.
    await this.loginThrottle.liftAccount(ownerEmail);
    this.mail.wake();
    return this.auth.result(opened.userId, opened);
  }
}
