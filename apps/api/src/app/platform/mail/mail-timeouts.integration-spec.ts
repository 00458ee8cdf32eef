import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { MailService, SMTP_TIMEOUTS_MS } from './mail.service';

/**
 * A mail server that accepts the connection and then says nothing (a stalled relay) must not hold
 * a delivery for nodemailer's default 30 s greeting wait (issue 31): the delivery fails after
 * SMTP_TIMEOUTS_MS.greetingTimeout and the mail job retries it later.
 */
describe('SMTP timeouts (integration)', () => {
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  let t: TestApp;

  beforeAll(async () => {
    silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await t.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it(
    'gives up on a server that never greets after the greeting timeout, with the reason',
    async () => {
      const delivery = t.app
        .get(MailService)
        .deliver({ to: 'siobhan@example.com', subject: 'Hello', text: 'Hello' });
      await expect(delivery).rejects.toMatchObject({ code: 'ETIMEDOUT' });
      await expect(delivery).rejects.toThrow(/Greeting never received/);
      expect(sockets.size).toBe(1);
    },
    SMTP_TIMEOUTS_MS.greetingTimeout + 10_000,
  );
});
