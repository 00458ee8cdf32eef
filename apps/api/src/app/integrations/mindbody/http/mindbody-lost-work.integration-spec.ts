import { createTestApp, type TestApp } from '../../../../../test/test-app';
import {
  deliverWebhook,
  reachStageFour,
  sandboxEnv,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';
import { freePort } from '../../../../../test/local-daemon';
import { JobsService } from '../../../platform/jobs/jobs.service';
import { MindbodyRepository } from '../persistence/mindbody.repository';

jest.setTimeout(120_000);

/**
 * Issue 31 item 4, nothing lost: a non-idempotent Mindbody POST is not retried blindly, and a
 * webhook's sync is queued with the delivery's record.
 *
 * A non-idempotent Mindbody POST: Mindbody makes the
 * webhook subscription, then the reply (the only one that carries its signature key) is lost:
 * Grove looks the subscription up, deletes it and makes one more, so exactly one subscription
 * delivers, signed with a key Grove holds.
 */
describe('Mindbody work that must not be lost (integration, sandbox)', () => {
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

  it('a subscription whose reply was lost: ends with one subscription, whose deliveries Grove verifies', async () => {
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

  it('a delivery whose sync cannot be queued is not recorded: Mindbody sends it again, and then the sync is queued', async () => {
    const jobs = t.app.get(JobsService);
    const realSend = jobs.send.bind(jobs);
    const send = jest
      .spyOn(jobs, 'send')
      .mockImplementationOnce(() => Promise.reject(new Error('the job queue is down')));
    try {
      const client = sandbox.control.clients()[1];
      const event = {
        messageId: 'queue-down-1',
        eventId: 'client.updated',
        clientId: String(client?.Id),
      };
      const failed = await deliverWebhook(t, sandbox, event);
      expect(failed.status).toBeGreaterThanOrEqual(500);
      const recorded = async () =>
        (
          (await t.dataSource.query(
            `SELECT count(*)::int AS n FROM mindbody_webhook_messages WHERE message_id = $1`,
            [event.messageId],
          )) as { n: number }[]
        )[0]?.n;
      expect(await recorded()).toBe(0);
      send.mockImplementation(realSend);
      // Mindbody's retry of the same message.
      expect((await deliverWebhook(t, sandbox, event)).status).toBe(204);
      expect(await recorded()).toBe(1);
      expect(send.mock.calls.some(([queue]) => queue === 'mindbody')).toBe(true);
    } finally {
      send.mockRestore();
    }
  });
});

/**
 * Issue 31 item 4: Mindbody made the subscription and answered, then Grove died before storing its
 * key (here: the store fails once). The next subscribe finds the subscription of Grove's URL that
 * Grove holds no key for and deletes it before making one, so exactly one subscription delivers,
 * signed with the key Grove stored.
 */
describe('Mindbody subscription whose key was never stored (integration, sandbox)', () => {
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

  it('the next subscribe deletes the orphan before making one: one subscription, verified deliveries', async () => {
    const { agent } = await t.signUp({ businessName: 'Zoë D’Arcy-Nguyễn Pilates' });
    const repository = t.app.get(MindbodyRepository);
    const crash = jest
      .spyOn(repository, 'saveAccountSubscription')
      .mockRejectedValueOnce(new Error('the API process died here'));
    try {
      await reachStageFour(agent, sandbox);
    } finally {
      crash.mockRestore();
    }
    // Mindbody has it; Grove has no key for it.
    const orphan = sandbox.control.subscriptions();
    expect(orphan).toHaveLength(1);
    expect(await repository.accountSubscription()).toBeNull();

    // The owner's next discount save subscribes again.
    await agent
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 500, discountForRefereeCents: 200 })
      .expect(200);

    const subscriptions = sandbox.control.subscriptions();
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]?.subscriptionId).not.toBe(orphan[0]?.subscriptionId);
    expect((await repository.accountSubscription())?.subscriptionId).toBe(
      subscriptions[0]?.subscriptionId,
    );
    const client = sandbox.control.clients()[0];
    const reply = await deliverWebhook(t, sandbox, {
      messageId: 'after-unstored-key-1',
      eventId: 'client.updated',
      clientId: String(client?.Id),
    });
    expect(reply.status).toBe(204);
  });
});
