// Helpers of the tests that read member emails (issue 15) from a real SMTP server.
import { startSmtpCatcher, type ParsedMail, type SmtpCatcher } from '@grove/testing-smtp';
import { createTestApp, type TestApp } from './test-app';
import { waitFor } from './stub-servers';

/**
 * A test app that sends mail through a fresh local SMTP server, as 'Grove <no-reply@grove.test>',
 * with member page links on https://grove.example.com.
 * @param env more environment for the app
 */
export async function createMailTestApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; smtp: SmtpCatcher }> {
  const smtp = await startSmtpCatcher();
  const t = await createTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Grove <no-reply@grove.test>',
    PUBLIC_ORIGIN: 'https://grove.example.com',
    ...env,
  });
  return { t, smtp };
}

/** Every queued member email has been delivered (or skipped), then a while for a wrong second one. */
export async function memberEmailsSettled(t: TestApp): Promise<void> {
  await waitFor(async () => {
    const [{ n }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM member_emails WHERE status IN ('queued', 'sending')`,
    )) as { n: number }[];
    return n === 0;
  });
  await new Promise((resolve) => setTimeout(resolve, 2500));
}

/** The emails the SMTP server received with exactly this subject. */
export const receivedWith = (smtp: SmtpCatcher, subject: string): ParsedMail[] =>
  smtp.emails.filter((mail) => mail.subject === subject);
