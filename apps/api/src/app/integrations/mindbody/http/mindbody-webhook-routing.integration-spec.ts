import type TestAgent from 'supertest/lib/agent';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import { MindbodyWebhookWatch } from '../jobs/mindbody-webhook-watch';
import {
  mindbodyStatus,
  pricesSettled,
  sandboxEnv,
  sandboxLogin,
  settled,
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../test/mindbody-sandbox';
import { waitFor } from '../../../../../test/stub-servers';
import { freePort } from '../../../../../test/local-daemon';

jest.setTimeout(180_000);

/** The second gym's Mindbody site (activated, beside the sandbox's main site -99). */
const OTHER_SITE = '-97';

/**
 * One webhook subscription for Grove's developer account (issue 22): Mindbody delivers every
 * activated site's events to it, and Grove routes each delivery by `eventData.siteId`. Two
 * businesses on two sites: one subscription, each event reaches only its own business, every
 * delivery is answered 204 (no 401 that would make Mindbody retry and deactivate the
 * subscription), and the webhook URL answers Mindbody's HEAD check with 204.
 */
describe('Mindbody webhooks: one subscription for every gym, routed by site (integration, sandbox)', () => {
  let sandbox: RunningSandbox;
  let t: TestApp;
  let alpha: TestAgent;
  let bravo: TestAgent;
  let alphaId: string;
  let bravoId: string;

  /** Takes a business through the wizard on `siteId`: credentials, import, discounts (stage 4). */
  async function connect(agent: TestAgent, siteId: string): Promise<void> {
    await agent
      .post('/api/mindbody/credentials')
      .send({ ...sandboxLogin(sandbox), siteId })
      .expect(200);
    await agent.post('/api/mindbody/import').expect(202);
    expect((await settled(agent)).processState).toMatch(/^completed /);
    await agent
      .put('/api/mindbody/discounts')
      .send({ discountOnReferralCents: 500, discountForRefereeCents: 0 })
      .expect(200);
    await pricesSettled(agent);
  }
  const names = async (businessId: string): Promise<string[]> =>
    (
      (await t.dataSource.query(`SELECT name FROM members WHERE business_id = $1`, [
        businessId,
      ])) as { name: string }[]
    ).map((row) => row.name);

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({
      port: 0,
      clientCount: 30,
      sites: [{ siteId: OTHER_SITE, clientCount: 30, activated: true }],
      webhookRetryDelayMs: 50,
    });
    // A real port: the sandbox checks the webhook URL (HEAD) and delivers to it; the URL is on
    // PUBLIC_ORIGIN, which every link Grove hands out is built on.
    const port = await freePort();
    t = await createTestApp({ ...sandboxEnv(sandbox), PUBLIC_ORIGIN: `http://127.0.0.1:${port}` });
    await t.app.listen(port, '127.0.0.1');
    const a = await t.signUp({ businessName: 'Alpha Gym' });
    const b = await t.signUp({ businessName: 'Bravo Gym' });
    [alpha, alphaId, bravo, bravoId] = [a.agent, a.user.business.id, b.agent, b.user.business.id];
    await connect(alpha, sandbox.options.siteId);
    await connect(bravo, OTHER_SITE);
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  it('keeps one active subscription for both businesses, and the webhook URL answers a HEAD with 204', async () => {
    const subscriptions = sandbox.control.subscriptions();
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0].status).toBe('Active');
    await t.agent().head('/api/mindbody/webhooks').expect(204);
    const [{ n }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM mindbody_webhook_subscription`,
    )) as { n: number }[];
    expect(n).toBe(1);
  });

  it('routes each event to the business of its site only; every delivery is answered 204', async () => {
    const alphaClient = sandbox.control.site(sandbox.options.siteId).clients()[0];
    const bravoClient = sandbox.control.site(OTHER_SITE).clients()[0];
    sandbox.control
      .site(sandbox.options.siteId)
      .updateClient(alphaClient.Id, { FirstName: 'Alphaone' });
    sandbox.control.site(OTHER_SITE).updateClient(bravoClient.Id, { FirstName: 'Bravoone' });
    await sandbox.control.flushWebhooks();

    const deliveries = sandbox.control.deliveries();
    expect(deliveries.length).toBeGreaterThanOrEqual(2);
    expect(deliveries.map((delivery) => [delivery.state, delivery.lastStatus])).toEqual(
      deliveries.map(() => ['delivered', 204]),
    );
    // Each event queued a sync of its own business only.
    await waitFor(async () => (await names(alphaId)).some((name) => name.startsWith('Alphaone')));
    await waitFor(async () => (await names(bravoId)).some((name) => name.startsWith('Bravoone')));
    await settled(alpha);
    await settled(bravo);
    expect((await names(alphaId)).some((name) => name.startsWith('Bravoone'))).toBe(false);
    expect((await names(bravoId)).some((name) => name.startsWith('Alphaone'))).toBe(false);
    const messages = (await t.dataSource.query(
      `SELECT business_id, count(*)::int AS n FROM mindbody_webhook_messages GROUP BY business_id`,
    )) as { business_id: string; n: number }[];
    expect(new Map(messages.map((row) => [row.business_id, row.n]))).toEqual(
      new Map([
        [alphaId, 1],
        [bravoId, 1],
      ]),
    );
  });

  it('an hourly check finds the subscription Mindbody deactivated and activates it again; while it cannot, both wizards say webhooks are down', async () => {
    const watch = t.app.get(MindbodyWebhookWatch);
    const [subscription] = sandbox.control.subscriptions();
    expect(await watch.check()).toBe('Active');
    sandbox.control.deactivateSubscription(
      subscription.subscriptionId,
      'DeactivatedTooManyFailedMessageDeliveryAttempts',
    );
    expect(await watch.check()).toBe('Active');
    expect(sandbox.control.subscriptions()[0].status).toBe('Active');
    expect((await mindbodyStatus(alpha)).webhooksDown).toBeUndefined();

    // Mindbody refuses to activate it again (its HEAD check fails, say): down until it can.
    sandbox.control.deactivateSubscription(subscription.subscriptionId);
    sandbox.control.addFault({
      path: `/subscriptions/${subscription.subscriptionId}`,
      method: 'PATCH',
      status: 500,
    });
    expect(await watch.check()).toBe('DeactivatedByAdmin');
    for (const agent of [alpha, bravo])
      expect((await mindbodyStatus(agent)).webhooksDown).toEqual({
        since: expect.any(String),
        status: 'DeactivatedByAdmin',
      });
    sandbox.control.clearFaults();
    expect(await watch.check()).toBe('Active');
    expect((await mindbodyStatus(bravo)).webhooksDown).toBeUndefined();
  });

  it('removing one gym keeps the subscription the other needs; removing the last deletes it', async () => {
    await alpha.delete('/api/mindbody').expect(200);
    expect(sandbox.control.subscriptions().map((item) => item.status)).toEqual(['Active']);
    // An event of the removed gym's site reaches nobody and is still answered 204.
    const before = sandbox.control.deliveries().length;
    sandbox.control
      .site(sandbox.options.siteId)
      .updateClient(sandbox.control.site(sandbox.options.siteId).clients()[1].Id, {
        FirstName: 'Nobody',
      });
    await sandbox.control.flushWebhooks();
    expect(
      sandbox.control
        .deliveries()
        .slice(before)
        .map((item) => item.lastStatus),
    ).toEqual([204]);

    await bravo.delete('/api/mindbody').expect(200);
    expect(sandbox.control.subscriptions()).toEqual([]);
  });
});
