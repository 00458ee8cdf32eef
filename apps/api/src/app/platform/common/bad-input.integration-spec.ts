import type TestAgent from 'supertest/lib/agent';
import { MESSAGES, type AccountDetails, type MemberRow } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { signWebhookBody } from '@grove/api-mindbody';
import { MindbodyCrypto } from '../../integrations/mindbody/persistence/mindbody-crypto';
import { MindbodyWebhookKeys } from '../../integrations/mindbody/persistence/mindbody-webhook-keys';

/**
 * Issue 11's malformed requests that used to get 500 'Something went wrong': each now gets a clear
 * 4xx and changes nothing.
 */
describe('bad input gets a clear 4xx (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let member: MemberRow;
  let ownerEmail: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signed = await t.signUp();
    owner = signed.agent;
    ownerEmail = signed.body.email;
    member = (
      await owner
        .post('/api/members')
        .send({
          memberName: 'Alex Smith',
          memberEmail: 'alex@example.com',
          membershipPriceCents: 8900,
          discountCents: 1000,
        })
        .expect(201)
    ).body as MemberRow;
  });
  afterAll(() => t.close());

  const memberNow = async (): Promise<MemberRow> =>
    (await owner.get(`/api/members/${member.id}`).expect(200)).body as MemberRow;
  const accountNow = async (): Promise<AccountDetails> =>
    (await owner.get('/api/account').expect(200)).body as AccountDetails;
  const memberCount = async (): Promise<number> =>
    ((await t.dataSource.query(`SELECT count(*)::int AS n FROM members`)) as { n: number }[])[0].n;

  describe('request bodies the parser refuses', () => {
    it('a JSON body over the limit → 413 naming the limit, on a signed-in and on a public route; nothing stored', async () => {
      const before = await memberCount();
      const big = {
        memberName: 'Alex Smith',
        memberEmail: 'big@example.com',
        membershipPriceCents: 100,
        discountCents: 'x'.repeat(150_000),
      };
      const reply = await owner.post('/api/members').send(big).expect(413);
      expect(reply.body).toEqual({
        statusCode: 413,
        message: 'The request body is larger than the limit of 100 KB',
      });
      await t
        .agent()
        .post('/api/contact')
        .send({ message: 'y'.repeat(200_000) })
        .expect(413);
      expect(await memberCount()).toBe(before);
    });

    it('an unsupported charset → 415 naming it (login, signup, members)', async () => {
      for (const [agent, path] of [
        [t.agent(), '/api/auth/login'],
        [t.agent(), '/api/auth/signup'],
        [owner, '/api/members'],
      ] as const) {
        const reply = await agent
          .post(path)
          .set('Content-Type', 'application/json; charset=koi8-r')
          .send(JSON.stringify({ email: 'a@b.com', password: 'x' }))
          .expect(415);
        expect(reply.body).toEqual({
          statusCode: 415,
          message: 'Unsupported charset "KOI8-R": send the body as UTF-8',
        });
      }
    });

    it('an unsupported Content-Encoding → 415', async () => {
      const reply = await owner
        .post('/api/members')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'compress')
        .send('{}')
        .expect(415);
      expect(reply.body.message).toBe(
        'Unsupported content encoding "compress": send gzip, deflate, br or none',
      );
    });

    it('malformed JSON → 400 saying what is wrong with it', async () => {
      const before = await memberCount();
      for (const body of ['{"memberName": "Al', '"just a string"', '{"a":1,}']) {
        const reply = await owner
          .post('/api/members')
          .set('Content-Type', 'application/json')
          .send(body)
          .expect(400);
        expect(reply.body).toEqual({ statusCode: 400, message: expect.stringMatching(/JSON/) });
      }
      expect(await memberCount()).toBe(before);
    });
  });

  describe('null and control characters', () => {
    it('PATCH /api/members/:id with null for a field → 400 with that field’s message; the member is unchanged', async () => {
      for (const [field, message] of [
        ['memberName', MESSAGES.invalidName],
        ['memberEmail', MESSAGES.invalidEmail],
        ['membershipPriceCents', MESSAGES.invalidAmount],
        ['discountCents', MESSAGES.invalidDiscount],
      ]) {
        const reply = await owner
          .patch(`/api/members/${member.id}`)
          .send({ [field]: null })
          .expect(400);
        expect(reply.body).toEqual({ statusCode: 400, message, fieldErrors: { [field]: message } });
      }
      expect(await memberCount()).toBe(1);
      expect(await memberNow()).toEqual(member);
    });

    it('PATCH /api/members/:id with a NUL or a bidi override in the email → 400', async () => {
      for (const memberEmail of ['al\u0000ex@example.com', 'alex@example.com\u202E']) {
        const reply = await owner
          .patch(`/api/members/${member.id}`)
          .send({ memberEmail })
          .expect(400);
        expect(reply.body.fieldErrors).toEqual({ memberEmail: MESSAGES.invalidEmail });
      }
      expect(await memberNow()).toEqual(member);
    });

    it('PATCH /api/account with null or a NUL character → 400 with each field’s message; nothing changes', async () => {
      const before = await accountNow();
      const nulls = await owner
        .patch('/api/account')
        .send({ businessName: null, firstName: null })
        .expect(400);
      expect(nulls.body.fieldErrors).toEqual({
        businessName: MESSAGES.businessNameRequired,
        firstName: MESSAGES.fillAllFields,
      });
      const nul = await owner
        .patch('/api/account')
        .send({
          businessName: 'Green\u0000Valley',
          phoneNumber: '0412\u0000345678',
          website: 'gym.com\u0000',
        })
        .expect(400);
      expect(nul.body.fieldErrors).toEqual({
        businessName: MESSAGES.businessNameRequired,
        phoneNumber: MESSAGES.signupInvalidPhone,
        website: MESSAGES.signupInvalidUrl,
      });
      expect(await accountNow()).toEqual(before);
    });

    it('a NUL in the login email → 400 "Not a valid email address" (not a database error)', async () => {
      const reply = await t
        .agent()
        .post('/api/auth/login')
        .send({ email: `${ownerEmail}\u0000`, password: 'correct horse battery' })
        .expect(400);
      expect(reply.body).toEqual({ statusCode: 400, message: MESSAGES.invalidEmail });
    });

    it('a NUL in a signed Mindbody webhook’s siteId → 400; nothing recorded', async () => {
      // Deliveries are verified before anything else (issue 31): this one is signed with the
      // account subscription's key, so its site ID is what gets refused.
      const key = 'a2V5LW9mLXRoZS1hY2NvdW50LXN1YnNjcmlwdGlvbg==';
      await t.dataSource.query(
        `INSERT INTO mindbody_webhook_subscription (id, subscription_id, signature_key_enc, webhook_url)
         VALUES (1, 'sub-nul', $1, 'https://grove.example/api/mindbody/webhooks')`,
        [t.app.get(MindbodyCrypto).seal(key)],
      );
      t.app.get(MindbodyWebhookKeys).invalidate();
      const body = JSON.stringify({
        messageId: 'm-1',
        eventId: 'client.updated',
        eventData: { siteId: '-99\u0000', clientId: '1' },
      });
      const reply = await t
        .agent()
        .post('/api/mindbody/webhooks')
        .set('Content-Type', 'application/json')
        .set('X-Mindbody-Signature', signWebhookBody(body, key))
        .send(body)
        .expect(400);
      expect(reply.body).toEqual({ statusCode: 400, message: 'Invalid webhook delivery' });
      const [row] = (await t.dataSource.query(
        `SELECT count(*)::int AS n FROM mindbody_webhook_messages`,
      )) as { n: number }[];
      expect(row.n).toBe(0);
    });

    it('control characters in the Mindbody site ID or a search → 400 with their messages', async () => {
      const credentials = await owner
        .post('/api/mindbody/credentials')
        .send({
          username: 'owner@sandbox.example.com',
          password: 'sandbox-pass-1234',
          siteId: '-99\u0000',
        })
        .expect(400);
      expect(credentials.body.message).toBe(MESSAGES.mindbodyInvalidCredentials);
      for (const path of ['/api/members', '/api/referral-links']) {
        const reply = await owner.get(path).query({ search: 'al\u0000ex' }).expect(400);
        expect(reply.body.fieldErrors).toEqual({ search: MESSAGES.searchInvalid });
      }
    });
  });

  describe('paging', () => {
    it.each(['/api/members', '/api/referral-links', '/api/prospects'])(
      '%s: page=1e21, 20 digits, 0, 1.5 → 400; 1,000,000 is fine',
      async (path) => {
        for (const page of ['1e21', '99999999999999999999', '0', '1.5', '0x10', '1000001', '-1']) {
          const reply = await owner.get(`${path}?page=${page}`).expect(400);
          expect(reply.body).toEqual({
            statusCode: 400,
            message: MESSAGES.pageInvalid,
            fieldErrors: { page: MESSAGES.pageInvalid },
          });
        }
        for (const pageSize of ['1e2', '101', '0', '']) {
          const reply = await owner.get(`${path}?pageSize=${pageSize}`).expect(400);
          expect(reply.body.fieldErrors).toEqual({ pageSize: MESSAGES.pageSizeInvalid });
        }
        await owner.get(`${path}?page=1&page=2`).expect(400);
        const last = await owner.get(`${path}?page=1000000&pageSize=100`).expect(200);
        expect(last.body).toMatchObject({ items: [], page: 1000000, pageSize: 100 });
      },
    );
  });
});
