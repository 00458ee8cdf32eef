import { errorCode } from '../database/database-faults';

/** Causes of a failed connection attempt: no SMTP conversation took place. */
const NO_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** A PostgreSQL SQLSTATE: five digits or capital letters (an errno such as ECONNRESET is not one). */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/** nodemailer's timeouts (its `timeoutType`) that end a connection before any command is sent. */
const SETUP_TIMEOUTS = new Set(['CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'UPGRADE_TIMEOUT']);

/**
 * Whether a failed SMTP delivery (the error `MailService.deliver` threw, from nodemailer 10) is
 * certain NOT to have been accepted by the server, so that sending it again cannot deliver it
 * twice:
 * - the server answered with a refusal (`responseCode` 4xx/5xx, at any command, the final reply
 *   after DATA included: RFC 5321 §4.2.5, a message is the server's only after its 2xx there);
 * - no connection was made (`originalCode` ECONNREFUSED, ENOTFOUND, EAI_AGAIN, EHOSTUNREACH,
 *   ENETUNREACH) or it timed out before the greeting (`timeoutType` CONNECT_TIMEOUT,
 *   GREETING_TIMEOUT, UPGRADE_TIMEOUT).
 * Anything else (a socket closed or silent mid-conversation, an unknown error) may have come
 * after the server accepted the message and before its reply reached Grove: false.
 */
export function smtpNotAccepted(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { responseCode, originalCode, code, timeoutType } = error as {
    responseCode?: unknown;
    originalCode?: unknown;
    code?: unknown;
    timeoutType?: unknown;
  };
  if (typeof responseCode === 'number' && responseCode >= 400) return true;
  if (typeof timeoutType === 'string' && SETUP_TIMEOUTS.has(timeoutType)) return true;
  const cause = typeof originalCode === 'string' ? originalCode : code;
  return typeof cause === 'string' && NO_CONNECTION_CODES.has(cause);
}

/**
 * The `outbox_emails` row of an email (no SMTP_URL: that row is the delivery) could not be
 * written: PostgreSQL answered the INSERT with an error (its SQLSTATE in `cause`), so nothing
 * was delivered and sending it again cannot deliver it twice ({@link nothingDelivered}).
 */
export class OutboxWriteError extends Error {
  constructor(cause: unknown) {
    super('The email could not be written to outbox_emails', { cause });
    this.name = 'OutboxWriteError';
  }
}

/**
 * Whether an error PostgreSQL itself answered a statement with (a SQLSTATE as `errorCode` reads
 * it, e.g. from a TypeORM `QueryFailedError`'s `driverError`): the statement did not take effect. A
 * connection lost mid-statement has none (it may have).
 */
export function statementRefused(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && SQLSTATE.test(code);
}

/**
 * Whether a failed delivery certainly delivered nothing, so that the job's retry may deliver it:
 * the SMTP server cannot have accepted it ({@link smtpNotAccepted}), or its outbox row was
 * refused ({@link OutboxWriteError}).
 */
export function nothingDelivered(error: unknown): boolean {
  return error instanceof OutboxWriteError || smtpNotAccepted(error);
}
