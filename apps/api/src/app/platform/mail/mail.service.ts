import type { EntityManager } from 'typeorm';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import { mailboxOf } from '@grove/contracts';
import { openEmailBody, sealEmailBody, SealedSecretError } from '@grove/sealed-secret';
import { AppConfig } from '../config/app-config';
import { safeErrorText } from '../common/log-safety';
import { JobsService } from '../jobs/jobs.service';
import { MetricsService } from '../metrics/metrics.service';
import { OutboxRepository } from './outbox.repository';
import { SENDING_ABANDONED_AFTER_SECONDS, sendClaimed } from './at-most-once';
import { OutboxWriteError, statementRefused } from './smtp-outcome';
import { MailDeliveriesRepository, type MailDeliveryStatus } from './mail-deliveries.repository';

/** The pg-boss queue that delivers Grove's emails. */
const MAIL_QUEUE = 'mail.send';

/**
 * How long one SMTP delivery may wait (ms): for the connection (DNS included), for the server's
 * greeting, and for the socket to stay silent mid-conversation. nodemailer's own defaults (2 min,
 * 30 s, 10 min) let one stalled mail server hold a delivery job for minutes (issue 31); a delivery
 * that times out is retried by the mail job with its backoff.
 */
export const SMTP_TIMEOUTS_MS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
} as const;

/**
 * An email to send: a plain-text part, and an HTML part when `html` is set. Every address is one
 * plain mailbox `a@b.c` (`mailboxOf` in contracts, RFC 5321/5322): delivery hands nodemailer
 * address objects, never text it would parse as a list, and refuses an address that is not one
 * mailbox (docs/architecture.md#job-path).
 */
export interface OutgoingEmail {
  /** The one mailbox it goes to. */
  to: string;
  /** The mailbox replies go to (e.g. the visitor who wrote a contact message). */
  replyTo?: string;
  /** The display name of `replyTo` (e.g. the visitor's name; plain text, never parsed). */
  replyToName?: string;
  subject: string;
  text: string;
  /** The HTML alternative of `text` (member emails). */
  html?: string;
  /** The sender's display name instead of MAIL_FROM's (the address stays MAIL_FROM's), e.g. the business's name. */
  fromName?: string;
  /** Extra headers, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058). */
  headers?: Record<string, string>;
  /**
   * true: the body carries a credential (a sign-up or verification link's token): {@link
   * MailService.queue} keeps `text` and `html` only sealed in the job's data (`sealedBody`),
   * never readable from pg-boss's tables (docs/decisions/signup-by-email.md).
   */
  secret?: true;
}

/** The row an email is about, told when it has been delivered (e.g. `{ kind: 'contact', id }`). */
export interface EmailSource {
  kind: string;
  id: string;
}

/** Data of a `mail.send` job. */
export interface MailJob extends OutgoingEmail {
  source?: EmailSource;
}

/**
 * What a `mail.send` job's data holds: the email, its body sealed (`sealedBody`, from
 * `@grove/sealed-secret`'s `sealEmailBody` under JWT_SECRET, `text` then empty and no `html`)
 * when it is `secret`.
 */
export interface QueuedMailJob extends MailJob {
  sealedBody?: string;
}

/** 'sent' through SMTP, or 'outboxed' into `outbox_emails` when SMTP_URL is not configured. */
export type DeliveryOutcome = 'sent' | 'outboxed';

/** What `MailService.deliver` did: delivered, or 'refused' (the recipient is not one plain mailbox). */
export type DeliveryResult = DeliveryOutcome | 'refused';

/**
 * What `MailService.deliverOnce` did: this attempt's outcome; 'uncertain' (an earlier attempt began
 * the SMTP conversation and never recorded its end: not sent again); null (an earlier attempt
 * settled it: nothing done).
 */
export type OnceResult = DeliveryResult | 'uncertain' | null;

/** Called after an email of a `source.kind` has been delivered. */
export type DeliveryListener = (sourceId: string, outcome: DeliveryOutcome) => Promise<void>;

/**
 * Grove's outgoing email, sent in the background as pg-boss jobs (`mail.send`; 3 retries with
 * backoff), each at most once to the SMTP server ({@link deliverOnce}, `mail_deliveries`,
 * docs/decisions/grove-emails-at-most-once.md). With SMTP_URL set, each email goes through nodemailer (from MAIL_FROM); without it,
 * the email is written to the `outbox_emails` table and one line is logged, so nothing is lost
 * on a machine without a mail server. Modules tell which rows an email belongs to (`source`)
 * and register a listener per `kind` to record the delivery.
 */
@Injectable()
export class MailService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(MailService.name);
  private readonly listeners = new Map<string, DeliveryListener>();
  private transporter?: Transporter;
  /** `grove_emails_total{outcome}`: every delivery attempt of any email (docs/architecture.md#metrics). */
  private readonly emails;

  constructor(
    private readonly jobs: JobsService,
    private readonly config: AppConfig,
    private readonly outbox: OutboxRepository,
    private readonly deliveries: MailDeliveriesRepository,
    metrics: MetricsService,
  ) {
    this.emails = metrics.counter({
      name: 'grove_emails_total',
      help: 'Email deliveries by outcome: sent (SMTP accepted it), outboxed (no SMTP_URL: kept in outbox_emails), refused (recipient not one plain mailbox) or failed (SMTP or the outbox refused; the job retries)',
      labelNames: ['outcome'],
    });
  }

  async onModuleInit(): Promise<void> {
    await this.jobs.register<QueuedMailJob>(
      { name: MAIL_QUEUE, retryLimit: 3, retryDelay: 5, retryBackoff: true },
      async (data, job) => {
        const email = this.unsealed(job.id, data);
        if (email) await this.deliverOnce(job.id, email);
      },
    );
  }

  onApplicationShutdown(): void {
    this.transporter?.close();
  }

  /** Registers what to do once an email about a row of `kind` has been delivered (one listener per kind). */
  onDelivered(kind: string, listener: DeliveryListener): void {
    this.listeners.set(kind, listener);
  }

  /**
   * Queues an email for background delivery. A `secret` email's body is sealed in the job's data
   * (`QueuedMailJob.sealedBody`); its recipient and subject stay readable.
   * @param manager queue it in this open transaction (committed or rolled back with it, so a crash
   *   after the commit cannot lose it); call {@link wake} once it has committed
   * @returns the job id
   */
  async queue(
    email: OutgoingEmail,
    source?: EmailSource,
    manager?: EntityManager,
  ): Promise<string | null> {
    const { text, html, ...rest } = email;
    const body = email.secret
      ? { text: '', sealedBody: sealEmailBody(this.config.jwtSecret, { text, html }) }
      : { text, ...(html === undefined ? {} : { html }) };
    const job: QueuedMailJob = { ...rest, ...body, ...(source ? { source } : {}) };
    return this.jobs.send<QueuedMailJob>(MAIL_QUEUE, job, manager ? { manager } : {});
  }

  /**
   * The email a `mail.send` job carries, its sealed body opened; null (logged, nothing sent) when
   * it cannot be opened: JWT_SECRET changed since it was queued (the link in it is lost; the
   * owner asks for a new one).
   */
  private unsealed(jobId: string, data: QueuedMailJob): MailJob | null {
    const { sealedBody, ...email } = data;
    if (sealedBody === undefined) return email;
    try {
      return { ...email, ...openEmailBody(this.config.jwtSecret, sealedBody) };
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      this.logger.error(
        `email ${jobId}: its sealed body cannot be opened (JWT_SECRET changed since it was queued); not sent`,
      );
      return null;
    }
  }

  /** Starts delivering the emails queued in a transaction that has committed (see {@link queue}). */
  wake(): void {
    this.jobs.wake(MAIL_QUEUE);
  }

  /**
   * Delivers delivery `deliveryId` (the id of the job that carries it: a retry keeps it) at most
   * once to the SMTP server, by the rule member emails follow (`sendClaimed`,
   * docs/decisions/grove-emails-at-most-once.md): claimed ('sending', `mail_deliveries`) in a
   * committed statement before SMTP, then settled with {@link deliver}'s outcome. A refusal, no
   * connection, or an outbox row PostgreSQL refused (`nothingDelivered`) takes the claim back and
   * throws, for the job's retry; any other
   * failure leaves it 'sending', and the next attempt records 'uncertain' and sends nothing.
   * @param deliveryId a uuid naming this one email (its pg-boss job's id)
   * @returns this attempt's outcome, 'uncertain' or null (see {@link OnceResult})
   * @throws the SMTP error or the database's (the job is retried)
   */
  async deliverOnce(deliveryId: string, email: MailJob): Promise<OnceResult> {
    let earlier: MailDeliveryStatus | null = null;
    const result = await sendClaimed(
      {
        claim: async () => {
          const claimed = await this.deliveries.claim(deliveryId);
          if (claimed !== true) earlier = claimed;
          return claimed === true;
        },
        unclaim: () => this.deliveries.unclaim(deliveryId),
      },
      () => this.deliver(email),
    );
    if (result !== null) {
      await this.deliveries.settle(deliveryId, result);
      return result;
    }
    if (earlier !== 'sending') return null;
    // An attempt before this one began the SMTP conversation and never recorded how it ended:
    // the server may have the email. Never twice.
    await this.deliveries.settle(deliveryId, 'uncertain');
    this.logger.warn(
      `email ${deliveryId}: an earlier attempt's outcome is unknown; not sent again`,
    );
    return 'uncertain';
  }

  /**
   * Grove's emails still 'sending' SENDING_ABANDONED_AFTER_SECONDS after their claim (an attempt
   * that never came back, its job out of retries) become 'uncertain'; nothing sends them again.
   * Called by the hourly run that settles member emails too (`MemberEmails.hourly`: one schedule,
   * no queue of its own).
   * @returns how many were settled
   */
  async settleAbandoned(): Promise<number> {
    const settled = await this.deliveries.settleAbandoned(SENDING_ABANDONED_AFTER_SECONDS);
    if (settled > 0)
      this.logger.warn(`${settled} email(s) left 'sending' by a lost attempt: 'uncertain'`);
    return settled;
  }

  /**
   * Delivers one email now: through SMTP when configured, else into `outbox_emails`; then calls
   * the source's delivery listener. The recipient goes to nodemailer as an address object
   * `{ name: '', address }` (and the reply-to as `{ name, address }`), which it does not parse
   * again: text such as `a@x.com, eve@y.com` or `c@x.com\r\nBcc: e@y.com` would reach other
   * mailboxes (issue 24 part 2). An email whose `to` is not one plain mailbox is not sent at all
   * ('refused', logged without the address, no listener called); a reply-to that is not is left out.
   * Each call counts once in `grove_emails_total{outcome}` (sent, outboxed, refused or failed).
   * @returns 'sent', 'outboxed' or 'refused'
   * @throws the SMTP error, or OutboxWriteError when PostgreSQL refused the outbox row (the job is
   *   retried by pg-boss)
   */
  async deliver(email: MailJob): Promise<DeliveryResult> {
    let result: DeliveryResult;
    try {
      result = await this.attemptDelivery(email);
    } catch (error) {
      this.emails.inc({ outcome: 'failed' });
      throw error;
    }
    this.emails.inc({ outcome: result });
    return result;
  }

  private async attemptDelivery(email: MailJob): Promise<DeliveryResult> {
    const to = mailboxOf(email.to);
    const about = email.source ? ` (${email.source.kind} ${email.source.id})` : '';
    if (to === null) {
      this.logger.warn(`email${about} not sent: its recipient is not a valid email address`);
      return 'refused';
    }
    const replyTo = email.replyTo ? mailboxOf(email.replyTo) : null;
    let outcome: DeliveryOutcome;
    if (this.config.mail.smtpUrl) {
      this.transporter ??= createTransport({ url: this.config.mail.smtpUrl, ...SMTP_TIMEOUTS_MS });
      await this.transporter.sendMail({
        from: email.fromName
          ? { name: email.fromName, address: this.fromAddress() }
          : this.config.mail.from,
        to: { name: '', address: to },
        ...(replyTo ? { replyTo: { name: email.replyToName ?? '', address: replyTo } } : {}),
        subject: email.subject,
        text: email.text,
        ...(email.html ? { html: email.html } : {}),
        ...(email.headers ? { headers: email.headers } : {}),
      });
      outcome = 'sent';
    } else {
      try {
        await this.outbox.insert({ ...email, to, replyTo: replyTo ?? undefined });
      } catch (error) {
        // PostgreSQL refused the row: nothing was delivered, the job's retry may deliver it.
        throw statementRefused(error) ? new OutboxWriteError(error) : error;
      }
      // Which email, not what it says: its subject names the visitor, its addresses are personal data.
      this.logger.log(`SMTP_URL is not set: email${about} kept in outbox_emails`);
      outcome = 'outboxed';
    }
    if (email.source) {
      // The email is out: a failing listener must not make pg-boss send it again.
      await this.listeners
        .get(email.source.kind)?.(email.source.id, outcome)
        .catch((error: unknown) =>
          this.logger.error(
            `recording delivery of ${email.source?.kind} ${email.source?.id}: ${safeErrorText(error)}`,
          ),
        );
    }
    return outcome;
  }

  /** The address of MAIL_FROM (`Grove <no-reply@grove.local>` → `no-reply@grove.local`). */
  private fromAddress(): string {
    const parsed = addressparser(this.config.mail.from, { flatten: true });
    return parsed[0]?.address || this.config.mail.from;
  }
}
