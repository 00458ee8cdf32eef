import { createTestApp, type TestApp } from '../../../../../test/test-app';
import {
  deliverWebhook,
  reachStageFour,
  sandboxEnv,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';
import { freePort } from '../../../../../test/local-daemon';

jest.setTimeout(120_000);

/**
 * Issue 31 item 4: a non-idempotent Mindbody POST is not retried blindly. Mindbody makes the
 * webhook subscription, then the reply (the only one that carries its signature key) is lost:
 * Grove looks the subscription up, deletes it and makes one more, so exactly one subscription
 * delivers, signed with a key Grove holds.
 */
describe('Mindbody webhook subscription whose reply was lost (integration, sandbox)', () => {
  let sandbox: RunningSandbox;
  let t: TestApp;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 10 });
    const port = await freePort();
    t = await createTestApp({ ...sandboxEnv(sandbox), PUBLIC_ORIGIN: `http://127.0.0.1:${port}` });
    await t.app.listen(port, '127.0.0.1');
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  it('ends with one subscription, whose deliveries Grove verifies', async () => {
    const { agent } = await t.signUp({ businessName: "Siobhán's Strength Co." });
    sandbox.control.addFault({
      path: '/subscriptions',
      method: 'POST',
      drop: true,
      afterHandling: true,
      times: 1,
    });
    await reachStageFour(agent, sandbox);
    const subscriptions = sandbox.control.subscriptions();
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]?.status).toBe('Active');
    // Signed with the surviving subscription's key: Grove takes it (204), not 401.
    const client = sandbox.control.clients()[0];
    const reply = await deliverWebhook(t, sandbox, {
      messageId: 'after-lost-reply-1',
      eventId: 'client.updated',
      clientId: String(client?.Id),
    });
    expect(reply.status).toBe(204);
  });
});
