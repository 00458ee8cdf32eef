import type TestAgent from 'supertest/lib/agent';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { HEADERS_TOO_LARGE, REQUEST_LIMITS, TOO_MANY_QUERY_PARAMETERS } from './request-limits';

/**
 * Issue 31 item 1: every request is bounded (`REQUEST_LIMITS`): a JSON or form body, a query
 * string and the headers over their limit each get a clear 4xx with a JSON message, never a 500,
 * and nothing changes; a request just within the limit is read as usual.
 */
describe('request limits (integration)', () => {
  let t: TestApp;
  let owner: TestAgent;
  let businessId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signed = await t.signUp();
    owner = signed.agent;
    businessId = signed.user.business.id;
  });
  afterAll(() => t.close());

  const members = async (): Promise<string[]> =>
    (
      (await t.dataSource.query(`SELECT name FROM members WHERE business_id = $1 ORDER BY name`, [
        businessId,
      ])) as { name: string }[]
    ).map((row) => row.name);

  const member = {
    memberName: 'Zoë O’Brien',
    memberEmail: 'zoe@example.com',
    membershipPriceCents: 8900,
    discountCents: 1000,
  };

  it('a JSON body over 100 KB → 413 naming the limit; one just under it is read; nothing stored', async () => {
    const padding = (bytes: number) => ({ ...member, note: 'x'.repeat(bytes) });
    const over = await owner
      .post('/api/members')
      .send(padding(REQUEST_LIMITS.bodyBytes))
      .expect(413);
    expect(over.body).toEqual({
      statusCode: 413,
      message: 'The request body is larger than the limit of 100 KB',
    });
    // Within the limit the body is parsed and the field rules answer (an unknown field).
    const under = await owner
      .post('/api/members')
      .send(padding(REQUEST_LIMITS.bodyBytes - 1_000))
      .expect(400);
    expect(under.body.statusCode).toBe(400);
    expect(await members()).toEqual([]);
  });

  it('a form body of more than 1,000 parameters → 413; 1,000 are read; nothing stored', async () => {
    const form = (count: number) =>
      Array.from({ length: count }, (_, index) => `p${index}=1`).join('&');
    const over = await owner
      .post('/api/members')
      .type('form')
      .send(form(REQUEST_LIMITS.formParameters + 1))
      .expect(413);
    expect(over.body).toEqual({
      statusCode: 413,
      message: 'The request body has too many parameters',
    });
    const within = await owner
      .post('/api/members')
      .type('form')
      .send(form(REQUEST_LIMITS.formParameters))
      .expect(400);
    expect(within.body.statusCode).toBe(400);
    expect(await members()).toEqual([]);
  });

  it('a query string of more than 1,000 parameters → 400 saying so (a read and a write); 1,000 are read; nothing stored', async () => {
    const query = (count: number) =>
      Array.from({ length: count }, (_, index) => `q${index}=1`).join('&');
    const over = await owner
      .get(`/api/members?${query(REQUEST_LIMITS.queryParameters + 1)}`)
      .expect(400);
    expect(over.body).toEqual({ statusCode: 400, message: TOO_MANY_QUERY_PARAMETERS });
    expect(TOO_MANY_QUERY_PARAMETERS).toBe('The query string has more than 1,000 parameters');
    const write = await owner
      .post(`/api/members?${query(REQUEST_LIMITS.queryParameters + 1)}`)
      .send(member)
      .expect(400);
    expect(write.body.message).toBe(TOO_MANY_QUERY_PARAMETERS);
    expect(await members()).toEqual([]);
    // 1,000 parameters: read as usual (the liveness check takes no query; the members list would
    // refuse names it does not know).
    await t
      .agent()
      .get(`/api/health/live?${query(REQUEST_LIMITS.queryParameters)}`)
      .expect(200);
    await t
      .agent()
      .get(`/api/health/live?${query(REQUEST_LIMITS.queryParameters + 1)}`)
      .expect(400);
  });

  it('headers over 16 KB → 431 with a JSON message from the server itself; headers just under are read; nothing stored; the API goes on answering', async () => {
    const over = await owner
      .post('/api/members')
      .set('X-Padding', 'x'.repeat(REQUEST_LIMITS.headerBytes))
      .send(member)
      .expect(431);
    expect(over.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(over.body).toEqual({ statusCode: 431, message: HEADERS_TOO_LARGE });
    expect(HEADERS_TOO_LARGE).toBe('The request headers are larger than the limit of 16 KB');
    expect(await members()).toEqual([]);
    await owner
      .get('/api/members')
      .set('X-Padding', 'x'.repeat(REQUEST_LIMITS.headerBytes - 2_048))
      .expect(200);
    await t.agent().get('/api/health/live').expect(200);
  });
});
