import { createTransport } from 'nodemailer';
import { startRawSmtpServer } from '../../../../test/raw-smtp-server';
import { smtpNotAccepted } from './smtp-outcome';

/** The error nodemailer throws sending one email to 127.0.0.1:`port`. */
async function failureAt(port: number): Promise<unknown> {
  const transport = createTransport({ host: '127.0.0.1', port, connectionTimeout: 2000 });
  try {
    await transport.sendMail({ from: 'a@grove.test', to: 'b@grove.test', subject: 's', text: 't' });
  } catch (error) {
    return error;
  }
  throw new Error('the email was accepted');
}

describe('smtpNotAccepted (nodemailer errors from real SMTP conversations)', () => {
  it('is true when nothing listens: the email can be sent again', async () => {
    const server = await startRawSmtpServer(() => '250 OK');
    await server.close();
    expect(smtpNotAccepted(await failureAt(server.port))).toBe(true);
  });

  it('is true when the server refuses the message after DATA (451)', async () => {
    const server = await startRawSmtpServer(() => '451 try again later');
    try {
      expect(smtpNotAccepted(await failureAt(server.port))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('is false when the connection drops after the message was sent: it may have been accepted', async () => {
    const server = await startRawSmtpServer(() => 'close');
    try {
      expect(smtpNotAccepted(await failureAt(server.port))).toBe(false);
      expect(server.messages()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('is false for an error that is not an SMTP failure', () => {
    expect(smtpNotAccepted(new Error('markDelivered failed'))).toBe(false);
    expect(smtpNotAccepted(undefined)).toBe(false);
  });
});
