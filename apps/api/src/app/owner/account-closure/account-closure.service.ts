import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ACCOUNT_CLOSURE_DAYS, businessLocale, localeFormats } from '@grove/contracts';
import { verifyPassword } from '../../platform/auth/auth-tokens';
import { NotSignedInException } from '../../platform/auth/auth.exceptions';
import { SessionsService } from '../../platform/auth/sessions.service';
import type { AuthUser } from '../../platform/common/auth-user';
import { AppConfig } from '../../platform/config/app-config';
import type { BusinessScope } from '../../platform/database/business-scope';
import { JobsService } from '../../platform/jobs/jobs.service';
import { MailService } from '../../platform/mail/mail.service';
import { BillingService } from '../billing/billing.service';
import { closureCancelledEmail, closureRequestedEmail } from './account-closure-emails';
import {
  AlreadyClosingException,
  ClosurePasswordException,
  NotClosingException,
} from './account-closure.exceptions';
import { AccountClosureRepository } from './account-closure.repository';
import type { AccountClosureDto } from './dto/account-closure.dto';

/** The pg-boss queue of the daily deletion of closed businesses. */
const CLOSURE_QUEUE = 'account-closure.delete';
/** Every day at 04:11 UTC (off the hour, after the retention sweep). */
const CLOSURE_CRON = '11 4 * * *';
/** Businesses deleted per run at most (each is one statement; the next day goes on). */
const CLOSURE_BATCH = 100;

/**
 * Closing a business (issue 34 item 6, docs/product.md#data-rights, docs/operations.md#account-deletion):
 * the owner confirms with their password; the business is deleted with everything it owns
 * `ACCOUNT_CLOSURE_DAYS` (30) days later by a daily pg-boss job; until then an owner may sign
 * in and cancel. Asking signs every other member of staff out (staff other than owners cannot
 * sign in while it is closing: `AuthService`), stops Grove's subscription from renewing
 * (`BillingService.setRenewalStopped`) and emails the owner; cancelling undoes both.
 */
@Injectable()
export class AccountClosureService implements OnModuleInit {
  private readonly logger = new Logger(AccountClosureService.name);

  constructor(
    private readonly repository: AccountClosureRepository,
    private readonly sessions: SessionsService,
    private readonly billing: BillingService,
    private readonly mail: MailService,
    private readonly jobs: JobsService,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<object>(
      { name: CLOSURE_QUEUE, policy: 'singleton', retryLimit: 1 },
      async () => {
        await this.deleteClosed();
      },
    );
    await this.jobs.schedule(CLOSURE_QUEUE, CLOSURE_CRON);
  }

  /** → `{ closingAt }` (null while open). */
  async status(scope: BusinessScope): Promise<AccountClosureDto> {
    const closingAt = await this.repository.closingAt(scope);
    return { closingAt: closingAt?.toISOString() ?? null };
  }

  /**
   * The owner asks to close the business.
   * @param password the owner's password (checked with argon2id)
   * @returns when everything is deleted
   * @throws ClosurePasswordException 400 wrong password; AlreadyClosingException 409
   * @throws BillingUnavailableException 503 when Stripe does not stop the renewal (nothing changed)
   */
  async close(scope: BusinessScope, user: AuthUser, password: string): Promise<AccountClosureDto> {
    const owner = await this.repository.owner(scope, user.userId);
    if (!owner) throw new NotSignedInException();
    if (!(await verifyPassword(owner.passwordHash, password))) throw new ClosurePasswordException();
    if (owner.closingAt) throw new AlreadyClosingException();
    const closingAt = new Date(Date.now() + ACCOUNT_CLOSURE_DAYS * 86_400_000);
    await this.billing.setRenewalStopped(scope, true);
    const deleteOn = localeFormats(businessLocale(owner.country, owner.timeZone)).date(closingAt);
    await this.repository.transaction(async (manager) => {
      if (!(await this.repository.setClosingAt(scope, manager, closingAt)))
        throw new AlreadyClosingException();
      for (const staff of await this.repository.otherStaff(scope, manager, user.userId))
        await this.sessions.revokeAll(staff, manager);
      await this.mail.queue(
        closureRequestedEmail(owner, deleteOn, this.config.publicOrigin),
        undefined,
        manager,
      );
    });
    this.mail.wake();
    return { closingAt: closingAt.toISOString() };
  }

  /**
   * An owner cancels the closure: nothing is deleted, the subscription renews again.
   * @throws NotClosingException 409; BillingUnavailableException 503 (nothing changed)
   */
  async cancel(scope: BusinessScope, user: AuthUser): Promise<void> {
    const owner = await this.repository.owner(scope, user.userId);
    if (!owner) throw new NotSignedInException();
    if (!owner.closingAt) throw new NotClosingException();
    await this.billing.setRenewalStopped(scope, false);
    await this.repository.transaction(async (manager) => {
      if (!(await this.repository.setClosingAt(scope, manager, null)))
        throw new NotClosingException();
      await this.mail.queue(closureCancelledEmail(owner), undefined, manager);
    });
    this.mail.wake();
  }

  /**
   * Deletes every business whose closing date has passed (the daily job; public for tests).
   * @returns how many were deleted
   */
  async deleteClosed(): Promise<number> {
    const deleted = await this.repository.deleteClosed(CLOSURE_BATCH);
    if (deleted.length > 0)
      this.logger.log(`account closure: ${deleted.length} closed business(es) deleted`);
    return deleted.length;
  }
}
