import { createTransport } from 'nodemailer';
import { recipient, startSmtpCatcher, type SmtpCatcher } from './smtp-catcher';

describe('startSmtpCatcher (real SMTP through nodemailer)', () => {
  let catcher: SmtpCatcher | undefined;
  afterEach(() => catcher?.close());

  const send = (url: string, to: string, subject: string) =>
    createTransport(url).sendMail({ from: 'gym@example.com', to, subject, text: `Hello ${to}` });

  it('parses every email it accepts, in order', async () => {
    catcher = await startSmtpCatcher();
    expect(catcher.url).toBe(`smtp://127.0.0.1:${catcher.port}`);
    await send(catcher.url, 'ivy@example.com', 'First');
    await send(catcher.url, 'nina@example.com', 'Second');
    expect(catcher.emails.map((mail) => [recipient(mail), mail.subject])).toEqual([
      ['ivy@example.com', 'First'],
      ['nina@example.com', 'Second'],
    ]);
    expect(catcher.emails[0].text?.trim()).toBe('Hello ivy@example.com');
    expect(catcher.attempts()).toBe(2);
  });

  it('records the envelope recipients (RCPT TO), which may differ from the To header', async () => {
    catcher = await startSmtpCatcher();
    await createTransport(catcher.url).sendMail({
      from: 'gym@example.com',
      to: 'ivy@example.com',
      bcc: 'hidden@example.com',
      subject: 'Envelope',
      text: 'Hello',
    });
    expect(recipient(catcher.emails[0])).toBe('ivy@example.com');
    expect(catcher.emails[0].rcptTo).toEqual(['ivy@example.com', 'hidden@example.com']);
    expect(catcher.rcptTo()).toEqual(['ivy@example.com', 'hidden@example.com']);
  });

  it('refuses the emails `refuse` names with its SMTP reply, and accepts the rest', async () => {
    catcher = await startSmtpCatcher({
      refuse: (attempt) =>
        attempt === 1 ? { responseCode: 451, message: 'try again later' } : undefined,
    });
    await expect(send(catcher.url, 'ivy@example.com', 'Once')).rejects.toMatchObject({
      responseCode: 451,
    });
    await send(catcher.url, 'ivy@example.com', 'Twice');
    expect(catcher.emails.map((mail) => mail.subject)).toEqual(['Twice']);
    expect(catcher.attempts()).toBe(2);
  });

  it('listens on the port it is given, and says so when that port is taken', async () => {
    catcher = await startSmtpCatcher();
    await expect(startSmtpCatcher({ port: catcher.port })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });
});
