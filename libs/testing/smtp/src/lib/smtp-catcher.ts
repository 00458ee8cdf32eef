import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * An email the catcher accepted: parsed (mailparser) with its SMTP envelope's recipients, the
 * `RCPT TO` addresses the client gave (where the mail really goes, whatever its headers say).
 */
export type CaughtMail = ParsedMail & {
  /** Every `RCPT TO` address of the SMTP transaction, in order. */
  rcptTo: string[];
};

/** A local SMTP server (smtp-server, no TLS, no auth) that parses every email it accepts (mailparser). */
export interface SmtpCatcher {
  /** `smtp://127.0.0.1:<port>`, for Grove's SMTP_URL */
  url: string;
  port: number;
  /** Every email accepted so far, in order, with its envelope recipients. */
  emails: CaughtMail[];
  /** Every `RCPT TO` address of every accepted email, in order. */
  rcptTo(): string[];
  /** How many emails were offered so far, refused ones included. */
  attempts(): number;
  close(): Promise<void>;
}

/** What {@link startSmtpCatcher} listens on and how it answers. */
export interface SmtpCatcherOptions {
  /** Port on 127.0.0.1; a free one unless told (0). */
  port?: number;
  /**
   * Decides whether to refuse the email offered as number `attempt` (1 for the first): an SMTP
   * reply (`responseCode` such as 451 "try again later", and its text) refuses it, undefined
   * accepts it.
   */
  refuse?: (attempt: number) => { responseCode: number; message: string } | undefined;
}

/**
 * Starts an SMTP server on 127.0.0.1 for a test; every accepted email is parsed into `emails`.
 * @throws the listen error (e.g. EADDRINUSE when `port` is taken)
 */
export async function startSmtpCatcher({
  port = 0,
  refuse,
}: SmtpCatcherOptions = {}): Promise<SmtpCatcher> {
  const emails: CaughtMail[] = [];
  let attempts = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const rcptTo = session.envelope.rcptTo.map((address) => address.address);
      attempts += 1;
      const refusal = refuse?.(attempts);
      if (refusal) {
        stream.on('end', () =>
          callback(
            Object.assign(new Error(refusal.message), { responseCode: refusal.responseCode }),
          ),
        );
        stream.resume();
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          emails.push(Object.assign(mail, { rcptTo }));
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A client that drops its connection (Grove's mailer closing its pool) is no test failure.
  server.on('error', () => undefined);
  const bound = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    emails,
    rcptTo: () => emails.flatMap((mail) => mail.rcptTo),
    attempts: () => attempts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first "To" address of an email, or undefined when it has none. */
export function recipient(mail: ParsedMail): string | undefined {
  return (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address;
}
