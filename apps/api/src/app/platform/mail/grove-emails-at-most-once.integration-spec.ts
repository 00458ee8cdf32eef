import {
  recipient,
  startSmtpCatcher,
  type ParsedMail,
  type SmtpCatcher,
} from '@grove/testing-smtp';
import { createMailTestApp } from '../../../../test/member-mail';
import { startRawSmtpServer, type RawSmtpServer } from '../../../../test/raw-smtp-server';
import { waitFor } from '../../../../test/stub-servers';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { MailDeliveriesRepository } from './mail-deliveries.repository';
import { MailService } from './mail.service';

/**
 * Grove's own emails (reset links, 'password changed', …) reach the SMTP server at most once
 * (issue 31; docs/decisions/grove-emails-at-most-once.md), on PostgreSQL through real SMTP servers.
 */
const RESET_SUBJECT = 'Choose a new Grove password';
const CHANGED_SUBJECT = 'Your Grove password was changed';
const NEW_PASSWORD = 'lantern-orchard-42-quay';

/** The delivery statuses of the jobs of `queue` whose data has `field` = `value`. */
async function deliveriesOf(
  t: TestApp,
  queue: 'password-reset.email' | 'mail.send',
  field: 'email' | 'to',
  value: string,
): Promise<string[]> {
  const rows: { status: string }[] = await t.dataSource.query(
    `SELECT d.status FROM mail_deliveries d JOIN pgboss.job j ON j.id = d.job_id
      WHERE j.name = $1 AND lower(j.data->>$2) = lower($3) ORDER BY d.claimed_at`,
    [queue, field, value],
  );
  return rows.map((row) => row.status);
}

/** The reset links of `email`'s account that still work (not withdrawn, not used). */
async function liveLinks(t: TestApp, email: string): Promise<number> {
  const [row] = (await t.dataSource.query(
    `SELECT count(*)::int AS n FROM password_reset_tokens p JOIN users u ON u.id = p.user_id
      WHERE lower(u.email) = lower($1) AND p.used_at IS NULL`,
    [email],
  )) as { n: number }[];
  return row?.n ?? 0;
}

/** Every email job queued so far has ended (so that a test's fault hits its own email only). */
async function mailIdle(t: TestApp): Promise<void> {
  await waitFor(async () => {
    const [row] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM pgboss.job
        WHERE name IN ('mail.send', 'password-reset.email') AND state IN ('created', 'retry', 'active')`,
    )) as { n: number }[];
    return row?.n === 0;
  }, 30_000);
}

/** Time for a wrongly retried job to deliver (the first retry comes 5 s after a failure). */
const settleTime = () => new Promise((resolve) => setTimeout(resolve, 7000));

describe("Grove's own emails, at most once (integration, real SMTP server)", () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    ({ t, smtp } = await createMailTestApp({ THROTTLE_PASSWORD_RESET_LIMIT: '1000' }));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const emailsTo = (address: string, subject: string): ParsedMail[] =>
    smtp.emails.filter(
      (mail) =>
        recipient(mail)?.toLowerCase() === address.toLowerCase() && mail.subject === subject,
    );
  const tokenOf = (mail: ParsedMail): string => {
    const match = /\/reset-password#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    if (!match) throw new Error(`no reset link in: ${mail.text}`);
    return match[1];
  };

  it('sends a reset link once when recording its delivery fails after the SMTP server accepted it, and that link works', async () => {
    const { user } = await t.signUp({ businessName: "Siobhán's Strength Co." });
    await mailIdle(t);
    const deliveries = t.app.get(MailDeliveriesRepository);
    // The server has the email, then the record fails (as a crash between the two would leave it).
    const failOnce = jest
      .spyOn(deliveries, 'settle')
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
    const attempts = smtp.attempts();
    try {
      await t.agent().post('/api/auth/password-reset').send({ email: user.email }).expect(202);
      await waitFor(
        async () =>
          (await deliveriesOf(t, 'password-reset.email', 'email', user.email))[0] === 'uncertain',
        30_000,
      );
      await settleTime();
    } finally {
      failOnce.mockRestore();
    }
    expect(smtp.attempts() - attempts).toBe(1);
    const received = emailsTo(user.email, RESET_SUBJECT);
    expect(received).toHaveLength(1);
    // The one link sent stays usable (the retry's own link was never sent: withdrawn).
    expect(await liveLinks(t, user.email)).toBe(1);
    await t
      .agent()
      .post('/api/auth/password-reset/confirm')
      .send({ token: tokenOf(received[0]), password: NEW_PASSWORD })
      .expect(200);
  });

  it("sends a queued email ('password changed') once when recording its delivery fails after the server accepted it", async () => {
    const { user, agent } = await t.signUp({ businessName: 'Zoë D’Arcy-Nguyễn Pilates' });
    await t.agent().post('/api/auth/password-reset').send({ email: user.email }).expect(202);
    const link = await waitFor(async () => emailsTo(user.email, RESET_SUBJECT)[0]);
    await mailIdle(t);
    const deliveries = t.app.get(MailDeliveriesRepository);
    const failOnce = jest
      .spyOn(deliveries, 'settle')
      .mockRejectedValueOnce(new Error('timeout exceeded when trying to connect'));
    try {
      await agent
        .post('/api/auth/password-reset/confirm')
        .send({ token: tokenOf(link), password: NEW_PASSWORD })
        .expect(200);
      await waitFor(
        async () => (await deliveriesOf(t, 'mail.send', 'to', user.email)).includes('uncertain'),
        30_000,
      );
      await settleTime();
    } finally {
      failOnce.mockRestore();
    }
    expect(emailsTo(user.email, CHANGED_SUBJECT)).toHaveLength(1);
  });

  it("settles an email left 'sending' by an attempt that never came back, after an hour, whoever it was for; one still running is left alone", async () => {
    const first = await t.signUp({ businessName: 'Ceol Fitness' });
    const second = await t.signUp({ businessName: 'Ana-Sofía Yoga' });
    const mail = t.app.get(MailService);
    for (const email of [first.user.email, second.user.email]) {
      await t.agent().post('/api/auth/password-reset').send({ email }).expect(202);
      await waitFor(async () => emailsTo(email, RESET_SUBJECT).length === 1);
    }
    // A second link for the first owner: the attempt still running.
    await t.agent().post('/api/auth/password-reset').send({ email: first.user.email }).expect(202);
    await waitFor(async () => emailsTo(first.user.email, RESET_SUBJECT).length === 2);
    await waitFor(
      async () =>
        (await deliveriesOf(t, 'password-reset.email', 'email', first.user.email)).join() ===
        'sent,sent',
    );
    // As a killed attempt leaves them: 'sending' since it began (2 hours, or 5 minutes, ago).
    await t.dataSource.query(
      `WITH ranked AS (
         SELECT d.job_id, row_number() OVER (PARTITION BY j.data->>'email' ORDER BY d.claimed_at) AS n,
                j.data->>'email' AS email
           FROM mail_deliveries d JOIN pgboss.job j ON j.id = d.job_id
          WHERE j.name = 'password-reset.email' AND j.data->>'email' IN ($1, $2))
       UPDATE mail_deliveries d SET status = 'sending', settled_at = NULL,
              claimed_at = now() - CASE WHEN r.n = 2 THEN interval '5 minutes' ELSE interval '2 hours' END
         FROM ranked r WHERE d.job_id = r.job_id`,
      [first.user.email, second.user.email],
    );
    const sent = smtp.emails.length;

    expect(await mail.settleAbandoned()).toBe(2);

    expect(await deliveriesOf(t, 'password-reset.email', 'email', first.user.email)).toEqual([
      'uncertain',
      'sending',
    ]);
    expect(await deliveriesOf(t, 'password-reset.email', 'email', second.user.email)).toEqual([
      'uncertain',
    ]);
    expect(smtp.emails.length).toBe(sent);
  });
});

describe("Grove's own emails when the SMTP server's reply is lost (integration)", () => {
  let t: TestApp;
  let smtp: RawSmtpServer;
  let dropAt = 0;
  beforeAll(async () => {
    // The server takes the whole message number `dropAt`, then drops the connection without its 250.
    smtp = await startRawSmtpServer((n) => (n === dropAt ? 'close' : '250 OK'));
    t = await createTestApp({ SMTP_URL: smtp.url, THROTTLE_PASSWORD_RESET_LIMIT: '1000' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('does not send the reset link again, and keeps the link the server may have', async () => {
    const { user } = await t.signUp({ businessName: 'Mullingar Movement' });
    await mailIdle(t);
    const before = smtp.messages();
    dropAt = before + 1;
    await t.agent().post('/api/auth/password-reset').send({ email: user.email }).expect(202);
    await waitFor(
      async () =>
        (await deliveriesOf(t, 'password-reset.email', 'email', user.email)).join() === 'uncertain',
      30_000,
    );
    await settleTime();
    expect(smtp.messages() - before).toBe(1);
    expect(await liveLinks(t, user.email)).toBe(1);
  });
});

describe("Grove's own emails when the SMTP server refuses once (integration)", () => {
  let t: TestApp;
  let smtp: SmtpCatcher;
  let refuseNext = false;
  beforeAll(async () => {
    // Refuses the email after `refuseNext` is set with 451 (nothing accepted), then accepts.
    smtp = await startSmtpCatcher({
      refuse: () => {
        if (!refuseNext) return undefined;
        refuseNext = false;
        return { responseCode: 451, message: 'try again later' };
      },
    });
    t = await createTestApp({ SMTP_URL: smtp.url, THROTTLE_PASSWORD_RESET_LIMIT: '1000' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('retries it and delivers one working link (the refused one withdrawn)', async () => {
    const { user } = await t.signUp({ businessName: 'Kraków Kettlebells' });
    await mailIdle(t);
    refuseNext = true;
    const attempts = smtp.attempts();
    await t.agent().post('/api/auth/password-reset').send({ email: user.email }).expect(202);
    const mail = await waitFor(
      async () => smtp.emails.find((email) => email.subject === RESET_SUBJECT),
      30_000,
    );
    await settleTime();
    expect(smtp.attempts() - attempts).toBe(2);
    expect(smtp.emails.filter((email) => email.subject === RESET_SUBJECT)).toHaveLength(1);
    expect(await deliveriesOf(t, 'password-reset.email', 'email', user.email)).toEqual(['sent']);
    expect(await liveLinks(t, user.email)).toBe(1);
    const token = /\/reset-password#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
    await t
      .agent()
      .post('/api/auth/password-reset/confirm')
      .send({ token, password: NEW_PASSWORD })
      .expect(200);
  });
});

describe('without SMTP (outbox_emails): a refused outbox row (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // The first outbox row of a subject named in outbox_faults is refused by PostgreSQL; a sequence
    // counts the attempts (nextval outlives the refused statement's rollback).
    await t.dataSource.query(`
      CREATE TABLE outbox_faults (subject text PRIMARY KEY);
      CREATE SEQUENCE outbox_fault_attempts;
      CREATE FUNCTION refuse_outbox_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM outbox_faults WHERE subject = NEW.subject)
           AND nextval('outbox_fault_attempts') = 1 THEN
          RAISE EXCEPTION 'outbox row refused (test)';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_outbox_row BEFORE INSERT ON outbox_emails
        FOR EACH ROW EXECUTE FUNCTION refuse_outbox_row();`);
  });
  afterAll(() => t.close());

  it("takes the claim back, so the job's retry writes it once ('outboxed', not stuck 'sending' or 'uncertain')", async () => {
    const to = "zoe.o'connor-ng@example.ie";
    const subject = 'Your Grove data export for Café Łódź is ready';
    await t.dataSource.query(`INSERT INTO outbox_faults VALUES ($1)`, [subject]);
    const mail = t.app.get(MailService);
    await mail.queue({ to, subject, text: 'Hello Zoë,\n\nYour export is ready.' });
    mail.wake();
    const outboxed = async () =>
      (await t.dataSource.query(`SELECT text FROM outbox_emails WHERE subject = $1`, [
        subject,
      ])) as { text: string }[];
    // The first attempt was refused; the job's retry (5 s later) writes it.
    await waitFor(async () => (await outboxed()).length > 0, 30_000);
    const [attempts] = (await t.dataSource.query(
      `SELECT last_value::int AS n FROM outbox_fault_attempts`,
    )) as { n: number }[];
    expect(attempts?.n).toBe(2);
    await mailIdle(t);
    expect(await outboxed()).toEqual([{ text: 'Hello Zoë,\n\nYour export is ready.' }]);
    expect(await deliveriesOf(t, 'mail.send', 'to', to)).toEqual(['outboxed']);
  });
});
