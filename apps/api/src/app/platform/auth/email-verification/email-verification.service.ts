import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ALREADY_VERIFIED_MESSAGE,
  EMAIL_VERIFIED_MESSAGE,
  VERIFICATION_INVALID_MESSAGE,
  VERIFICATION_LIMIT_MESSAGE,
  VERIFICATION_SENT_MESSAGE,
  VERIFICATION_TTL_SECONDS,
  type MessageReply,
} from '@grove/contracts';
import { AppConfig } from '../../config/app-config';
import { GroveException } from '../../common/grove.exception';
import { JobsService } from '../../jobs/jobs.service';
import {
  MEMBER_EMAIL_RELEASE_QUEUE,
  type MemberEmailReleaseJob,
} from '../../mail/held-member-emails';
import { MailService } from '../../mail/mail.service';
import { NotSignedInException } from '../auth.exceptions';
import { verificationEmail } from './email-verification-emails';
import { EmailVerificationRepository } from './email-verification.repository';

/** Links one owner may ask for per hour. */
const LINKS_PER_HOUR = 5;

/** The verification link is unknown, used or expired. → 400 */
export class VerificationInvalidException extends GroveException {
  override readonly status = 400;
  constructor() {
    super(VERIFICATION_INVALID_MESSAGE);
  }
}

/** The business's sender is already verified. → 409 */
export class AlreadyVerifiedException extends GroveException {
  override readonly status = 409;
  constructor() {
    super(ALREADY_VERIFIED_MESSAGE);
  }
}

/** Too many links asked for in the last hour. → 429 */
export class VerificationLimitException extends GroveException {
  override readonly status = 429;
  constructor() {
    super(VERIFICATION_LIMIT_MESSAGE);
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Verified senders (issue 34 item 4, docs/product.md#verified-senders): an owner whose business's
 * sender is not verified verifies their email with a link (a 256-bit token, only its SHA-256
 * stored, once, 24 hours) before Grove emails the business's members; until then member emails
 * wait ('held'). Verifying queues the release of the waiting emails (`member-email.release`).
 * Businesses that existed before this rule count as verified (migration DataRights); a business
 * made from an emailed sign-up link is verified at once ({@link verifiedAtSignup}).
 */
@Injectable()
export class EmailVerificationService {
  constructor(
    private readonly repository: EmailVerificationRepository,
    private readonly mail: MailService,
    private readonly jobs: JobsService,
    private readonly config: AppConfig,
  ) {}

  /**
   * A new owner's address is proven by the sign-up link they opened (docs/product.md#signup,
   * docs/decisions/signup-by-email.md): their business counts as verified from the start, in the
   * sign-up's transaction, and no 'Verify your email' link is sent. The link and the banner remain
   * for businesses made before sign-up by email (and any other whose sender is not verified).
   */
  async verifiedAtSignup(businessId: string, manager: EntityManager): Promise<void> {
    await this.repository.markVerified(businessId, manager);
  }

  /**
   * 'Resend verification' (`POST /api/account/email-verification`): a new link to the signed-in
   * owner's email.
   * @throws AlreadyVerifiedException 409; VerificationLimitException 429 past 5 an hour
   */
  async resend(userId: string): Promise<MessageReply> {
    const user = await this.repository.user(userId);
    if (!user) throw new NotSignedInException();
    if (user.senderVerified) throw new AlreadyVerifiedException();
    if ((await this.repository.issuedLastHour(userId)) >= LINKS_PER_HOUR)
      throw new VerificationLimitException();
    const token = randomBytes(32).toString('base64url');
    await this.repository.issue(user, hashToken(token), VERIFICATION_TTL_SECONDS);
    await this.mail.queue(verificationEmail(user, this.config.publicOrigin, token));
    this.mail.wake();
    return { message: VERIFICATION_SENT_MESSAGE };
  }

  /**
   * Uses a link (`POST /api/auth/verify-email`, public): the business's sender is verified and
   * its waiting member emails are released.
   * @throws VerificationInvalidException 400 unknown, used or expired
   */
  async verify(token: unknown): Promise<MessageReply> {
    if (typeof token !== 'string' || token.length < 20 || token.length > 200)
      throw new VerificationInvalidException();
    const used = await this.repository.use(hashToken(token));
    if (!used) throw new VerificationInvalidException();
    await this.jobs.send<MemberEmailReleaseJob>(MEMBER_EMAIL_RELEASE_QUEUE, {
      businessId: used.businessId,
    });
    return { message: EMAIL_VERIFIED_MESSAGE };
  }
}
