import { nothingDelivered } from './smtp-outcome';

/**
 * How long after its claim an attempt still 'sending' counts as abandoned (seconds): past pg-boss's
 * expiry of one attempt (15 minutes by default) and the retries' delays (5, 10, 20 s), so any
 * attempt still running or still to come has had its turn; a retry would mark it 'uncertain' too.
 * The hourly sweeps of member emails (`MemberEmails.hourly`) and of Grove's own emails
 * (`MailService.settleAbandoned`) both use it (docs/decisions/grove-emails-at-most-once.md).
 */
export const SENDING_ABANDONED_AFTER_SECONDS = 3600;

/** The two steps of a delivery's record that {@link sendClaimed} drives. */
export interface DeliveryClaim {
  /**
   * Marks the delivery 'sending' in a statement committed before any SMTP command, so that a later
   * attempt knows one began. @returns false when it cannot be claimed (another attempt has it, or
   * it ended): nothing is sent.
   */
  claim(): Promise<boolean>;
  /** Takes the claim back (the attempt failed where nothing can have been delivered). */
  unclaim(): Promise<void>;
}

/**
 * The at-most-once rule of every email Grove sends (docs/decisions/member-emails-at-most-once.md,
 * docs/decisions/grove-emails-at-most-once.md): claim, then send; a failure where nothing can have
 * been delivered (`nothingDelivered`: the SMTP server refused it or was never reached, a 4xx/5xx,
 * no connection; or, without SMTP, PostgreSQL refused its `outbox_emails` row) takes the claim
 * back, so the job's retry sends it; any other failure (the connection lost after the message was
 * handed over, the process killed, the outcome not recorded) leaves it claimed, and the next
 * attempt that finds it claimed records 'uncertain' and sends nothing. The caller records the
 * outcome of a send that returned.
 * @returns what `send` returned, or null when the claim was refused (nothing sent)
 * @throws what `send` throws (after taking the claim back when nothing was accepted)
 */
export async function sendClaimed<T>(
  delivery: DeliveryClaim,
  send: () => Promise<T>,
): Promise<T | null> {
  if (!(await delivery.claim())) return null;
  try {
    return await send();
  } catch (error) {
    if (nothingDelivered(error)) await delivery.unclaim();
    throw error;
  }
}
