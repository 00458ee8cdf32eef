import { createServer, type AddressInfo, type Server } from 'node:net';
import { createTransport } from 'nodemailer';
import { smtpNotAccepted } from './smtp-outcome';

/**
 * A raw SMTP server on 127.0.0.1 that speaks until the end of DATA, then answers the message with
 * `final` ('close': drops the connection without a reply, as a reply lost on the way would look).
 */
async function smtpServer(final: string | 'close'): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => {
    let inData = false;
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      for (const line of chunk.toString('utf8').split('\r\n')) {
        if (inData) {
          if (line === '.') {
            inData = false;
            if (final === 'close') socket.destroy();
            else socket.write(`${final}\r\n`);
          }
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 test\r\n');
        else if (/^(MAIL|RCPT)/i.test(line)) socket.write('250 OK\r\n');
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

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
    const { port, server } = await smtpServer('250 OK');
    await new Promise((resolve) => server.close(resolve));
    expect(smtpNotAccepted(await failureAt(port))).toBe(true);
  });

  it('is true when the server refuses the message after DATA (451)', async () => {
    const { port, server } = await smtpServer('451 try again later');
    try {
      expect(smtpNotAccepted(await failureAt(port))).toBe(true);
    } finally {
      server.close();
    }
  });

  it('is false when the connection drops after the message was sent: it may have been accepted', async () => {
    const { port, server } = await smtpServer('close');
    try {
      expect(smtpNotAccepted(await failureAt(port))).toBe(false);
    } finally {
      server.close();
    }
  });

  it('is false for an error that is not an SMTP failure', () => {
    expect(smtpNotAccepted(new Error('markDelivered failed'))).toBe(false);
    expect(smtpNotAccepted(undefined)).toBe(false);
  });
});
