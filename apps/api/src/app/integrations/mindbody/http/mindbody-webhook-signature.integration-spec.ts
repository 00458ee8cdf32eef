import { signWebhookBody } from '@grove/api-mindbody';
import { WAIT_A_MINUTE } from '../../../platform/throttle/throttling';
import { createTestApp, type TestApp } from '../../../../../test/test-app';
import { MindbodyCrypto } from '../persistence/mindbody-crypto';

const KEY = 'c2lnbmF0dXJlLWtleS1vZi10aGUtYWNjb3VudA==';

/** A delivery as Mindbody sends it (Webhooks API), for a site no business on Grove integrates. */
const delivery = (messageId: string): string =>
  JSON.stringify({
    messageId,
    eventId: 'client.updated',
    eventSchemaVersion: 1,
    eventInstanceOriginationDateTime: '2026-11-28T10:00:00Z',
    eventData: { siteId: -12345, clientId: '100000001', firstName: 'Zoë', lastName: "O'Brien" },
  });

/**
 * Issue 31 item 6: the public webhook route checks the signature before any other work, and a
 * client sending wrong signatures is throttled, while signed deliveries are never refused.
 */
describe('Mindbody webhooks: signature first, wrong signatures throttled (integration)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_WEBHOOK_SIGNATURE_LIMIT: '3', TRUST_PROXY: '1' });
    const crypto = t.app.get(MindbodyCrypto);
    await t.dataSource.query(
      `INSERT INTO mindbody_webhook_subscription (id, subscription_id, signature_key_enc, webhook_url)
       VALUES (1, 'sub-1', $1, 'https://grove.example/api/mindbody/webhooks')`,
      [crypto.seal(KEY)],
    );
  });
  afterAll(() => t.close());

  const post = (body: string, signature: string, from: string) =>
    t
      .agent()
      .post('/api/mindbody/webhooks')
      .set('Content-Type', 'application/json')
      .set('X-Forwarded-For', from)
      .set('X-Mindbody-Signature', signature)
      .send(body);

  it('reads nothing from the database and opens no key for forged deliveries once the keys are known', async () => {
    // The first delivery reads the keys (one signed delivery: 204).
    await post(delivery('m-0'), signWebhookBody(delivery('m-0'), KEY), '203.0.113.1').expect(204);
    const queries = jest.spyOn(t.dataSource, 'query');
    const opens = jest.spyOn(t.app.get(MindbodyCrypto), 'open');
    try {
      for (let i = 1; i <= 20; i++) {
        const body = delivery(`forged-${i}`);
        // A different client each time: the throttle is not what stops them here.
        await post(body, signWebhookBody(body, 'a-guessed-key'), `198.51.100.${i}`).expect(401);
      }
      // Before the change every forged delivery read the site's integrations and the account's
      // subscription (40 reads, 20 keys opened). Now: at most one re-read of the keys (5 s apart).
      const reads = queries.mock.calls.filter(([sql]) => /mindbody/.test(String(sql)));
      expect(reads.length).toBeLessThanOrEqual(2);
      expect(opens.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      queries.mockRestore();
      opens.mockRestore();
    }
  });

  it('refuses a client after THROTTLE_WEBHOOK_SIGNATURE_LIMIT wrong signatures (429), never a signed delivery, and not another client', async () => {
    const forged = delivery('forged-again');
    const badSignature = signWebhookBody(forged, 'another-guess');
    for (let i = 0; i < 3; i++) await post(forged, badSignature, '192.0.2.50').expect(401);
    const refused = await post(forged, badSignature, '192.0.2.50').expect(429);
    expect(refused.body.message).toBe(WAIT_A_MINUTE);
    // Mindbody's signed deliveries from that same address still go through.
    const signed = delivery('m-1');
    await post(signed, signWebhookBody(signed, KEY), '192.0.2.50').expect(204);
    // Another client's first wrong signature is an ordinary 401.
    await post(forged, badSignature, '192.0.2.51').expect(401);
  });
});
