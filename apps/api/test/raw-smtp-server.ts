// A bare SMTP server for the tests of what happens when a reply never arrives (issue 31).
import { createServer, type AddressInfo } from 'node:net';

/** A raw SMTP server on 127.0.0.1 (no parsing, no TLS, no auth). */
export interface RawSmtpServer {
  port: number;
  url: string;
  /** How many messages were handed over whole (their final `.` received), answered or not. */
  messages(): number;
  close(): Promise<void>;
}

/**
 * Starts an SMTP server that speaks until the end of DATA, then answers message number `n` (1 for
 * the first) with what `final(n)` says: an SMTP reply line (e.g. '250 OK', '451 try again later')
 * or 'close', which drops the connection without a reply, as a reply lost on the way would look
 * to the client.
 */
export async function startRawSmtpServer(
  final: (n: number) => string | 'close',
): Promise<RawSmtpServer> {
  let messages = 0;
  const server = createServer((socket) => {
    let inData = false;
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      for (const line of chunk.toString('utf8').split('\r\n')) {
        if (inData) {
          if (line !== '.') continue;
          inData = false;
          messages += 1;
          const reply = final(messages);
          if (reply === 'close') socket.destroy();
          else socket.write(`${reply}\r\n`);
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 test\r\n');
        else if (/^(MAIL|RCPT|RSET|NOOP)/i.test(line)) socket.write('250 OK\r\n');
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages: () => messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
