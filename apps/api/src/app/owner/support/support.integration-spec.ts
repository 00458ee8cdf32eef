import { MESSAGES } from '@grove/contracts';
import { createTestApp, type TestApp } from '../../../../test/test-app';
import { startHttpStub, waitFor, type HttpStub } from '../../../../test/stub-servers';

interface IssueRow {
  id: string;
  business_id: string;
  user_id: string;
  summary: string;
  description: string;
  jira_key: string | null;
  jira_status: string;
}

const issues = async (t: TestApp): Promise<IssueRow[]> =>
  (await t.dataSource.query(
    `SELECT id, business_id, user_id, summary, description, jira_key, jira_status FROM support_issues ORDER BY created_at`,
  )) as IssueRow[];

describe('support issues without Jira (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_SUPPORT_LIMIT: '1000' });
  });
  afterAll(() => t.close());

  it('needs a session: 401 signed out, nothing stored', async () => {
    const reply = await t
      .agent()
      .post('/api/support/issues')
      .send({ summary: 'Broken', description: 'It broke' });
    expect(reply.status).toBe(401);
    expect(await issues(t)).toEqual([]);
  });

  it("stores the report with the session's business and user and answers SPEC's success text", async () => {
    const { agent, user } = await t.signUp();
    const reply = await agent
      .post('/api/support/issues')
      .send({ summary: '  Table does not load  ', description: 'Spinner forever.\nSince Monday.' });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ message: 'Successfully submitted request!' });
    const [row] = await issues(t);
    expect(row).toMatchObject({
      business_id: user.business.id,
      user_id: user.id,
      summary: 'Table does not load',
      description: 'Spinner forever.\nSince Monday.',
      jira_key: null,
      jira_status: 'not_configured',
    });
  });

  it('attributes each report to its own owner only (a businessId in the body is refused)', async () => {
    const a = await t.signUp({ businessName: 'Alpha Gym' });
    const b = await t.signUp({ businessName: 'Beta Gym' });
    await a.agent
      .post('/api/support/issues')
      .send({ summary: 'From A', description: 'A text' })
      .expect(201);
    await b.agent
      .post('/api/support/issues')
      .send({ summary: 'From B', description: 'B text' })
      .expect(201);
    const smuggled = await b.agent.post('/api/support/issues').send({
      summary: 'From B again',
      description: 'x',
      businessId: a.user.business.id,
      userId: a.user.id,
    });
    expect(smuggled.status).toBe(400);
    const rows = await issues(t);
    expect(rows.find((row) => row.summary === 'From A')).toMatchObject({
      business_id: a.user.business.id,
      user_id: a.user.id,
    });
    expect(rows.find((row) => row.summary === 'From B')).toMatchObject({
      business_id: b.user.business.id,
      user_id: b.user.id,
    });
    expect(
      rows.filter((row) => row.business_id === a.user.business.id).map((row) => row.summary),
    ).toEqual(['From A']);
  });

  it.each([
    [{ summary: '', description: 'x' }, { summary: MESSAGES.issueTitleRequired }],
    [{ summary: '   ', description: 'x' }, { summary: MESSAGES.issueTitleRequired }],
    [{ description: 'x' }, { summary: MESSAGES.issueTitleRequired }],
    [{ summary: 'x', description: '' }, { description: MESSAGES.issueDescriptionRequired }],
    [{}, { summary: MESSAGES.issueTitleRequired, description: MESSAGES.issueDescriptionRequired }],
    [{ summary: 's'.repeat(201), description: 'x' }, { summary: MESSAGES.issueTitleTooLong }],
    [
      { summary: 'x', description: 'd'.repeat(5001) },
      { description: MESSAGES.issueDescriptionTooLong },
    ],
  ])('refuses %o with %o and stores nothing', async (body, fieldErrors) => {
    const { agent } = await t.signUp();
    const before = (await issues(t)).length;
    const reply = await agent.post('/api/support/issues').send(body);
    expect(reply.status).toBe(400);
    expect(reply.body.fieldErrors).toEqual(fieldErrors);
    expect(reply.body.message).toBe(Object.values(fieldErrors)[0]);
    expect((await issues(t)).length).toBe(before);
  });

  it('accepts the longest title and description', async () => {
    const { agent } = await t.signUp();
    await agent
      .post('/api/support/issues')
      .send({ summary: 's'.repeat(200), description: 'd'.repeat(5000) })
      .expect(201);
  });
});

describe('support issues filed in Jira (integration, local stub of /rest/api/3/issue)', () => {
  let t: TestApp;
  let jira: HttpStub;
  /** How many calls answer 500 before the stub starts creating issues. */
  let failuresLeft = 0;
  beforeAll(async () => {
    jira = await startHttpStub((request, index) => {
      if (request.method !== 'POST' || request.url !== '/rest/api/3/issue')
        return { status: 404, body: {} };
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        return { status: 500, body: { errorMessages: ['Internal server error'] } };
      }
      return {
        status: 201,
        body: {
          id: String(10000 + index),
          key: `GROVE-${index + 1}`,
          self: `${jira.url}/rest/api/3/issue/${10000 + index}`,
        },
      };
    });
    t = await createTestApp({
      JIRA_BASE_URL: `${jira.url}/`,
      JIRA_EMAIL: 'bot@grove.test',
      JIRA_API_TOKEN: 'jira-token-123',
      JIRA_PROJECT_KEY: 'GROVE',
      JIRA_RETRY_LIMIT: '3',
      JIRA_RETRY_DELAY_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await t.close();
    await jira.close();
  });

  it('creates the issue with basic auth, the project key, the summary and an ADF description naming the reporter', async () => {
    const { agent, user, body } = await t.signUp({
      businessName: 'Jira Gym',
      firstName: 'Kim',
      lastName: 'Ng',
    });
    await agent
      .post('/api/support/issues')
      .send({ summary: 'Sync is stuck', description: 'First paragraph.\n\nSecond paragraph.' })
      .expect(201);
    const row = await waitFor(async () =>
      (await issues(t)).find((issue) => issue.jira_status === 'created'),
    );
    expect(row.jira_key).toMatch(/^GROVE-\d+$/);
    const request = jira.requests[jira.requests.length - 1];
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from('bot@grove.test:jira-token-123').toString('base64')}`,
    );
    expect(request.headers['content-type']).toContain('application/json');
    const sent = JSON.parse(request.body) as {
      fields: {
        project: { key: string };
        issuetype: { name: string };
        summary: string;
        description: Record<string, unknown>;
      };
    };
    expect(sent.fields.project).toEqual({ key: 'GROVE' });
    expect(sent.fields.issuetype).toEqual({ name: 'Bug' });
    expect(sent.fields.summary).toBe('Sync is stuck');
    expect(sent.fields.description).toMatchObject({
      version: 1,
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'First paragraph.' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Second paragraph.' }] },
        { type: 'rule' },
        { type: 'paragraph' },
      ],
    });
    const reporterText = JSON.stringify(sent.fields.description);
    for (const fact of ['Jira Gym', 'Kim Ng', body.email, user.id])
      expect(reporterText).toContain(fact);
  });

  it('keeps the report when Jira answers 500 and retries in the background until it is created', async () => {
    failuresLeft = 1;
    const callsBefore = jira.requests.length;
    const { agent } = await t.signUp();
    const reply = await agent
      .post('/api/support/issues')
      .send({ summary: 'Retry me', description: 'Please' });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ message: MESSAGES.supportSuccess });
    const kept = await waitFor(async () => {
      const row = (await issues(t)).find((issue) => issue.summary === 'Retry me');
      return jira.requests.length > callsBefore && row;
    });
    expect(kept.jira_status).toMatch(/pending|created/);
    const created = await waitFor(
      async () =>
        (await issues(t)).find(
          (issue) => issue.summary === 'Retry me' && issue.jira_status === 'created',
        ),
      25_000,
    );
    expect(created.jira_key).toMatch(/^GROVE-\d+$/);
    expect(jira.requests.length - callsBefore).toBe(2);
  });
  it('marks the report failed after the last retry, and keeps it', async () => {
    failuresLeft = 1000;
    const callsBefore = jira.requests.length;
    const { agent } = await t.signUp();
    await agent
      .post('/api/support/issues')
      .send({ summary: 'Jira is down', description: 'Still stored' })
      .expect(201);
    const failed = await waitFor(
      async () =>
        (await issues(t)).find(
          (issue) => issue.summary === 'Jira is down' && issue.jira_status === 'failed',
        ),
      28_000,
    );
    expect(failed).toMatchObject({ description: 'Still stored', jira_key: null });
    // The first attempt and JIRA_RETRY_LIMIT=3 retries.
    expect(jira.requests.length - callsBefore).toBe(4);
    failuresLeft = 0;
  }, 40_000);
});

describe('support throttling (integration, THROTTLE_SUPPORT_LIMIT=2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ THROTTLE_SUPPORT_LIMIT: '2' });
  });
  afterAll(() => t.close());

  it('answers the 3rd report from one client within a minute with 429', async () => {
    const { agent } = await t.signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await agent.post('/api/support/issues').send({ summary: `S${i}`, description: 'd' }))
          .status,
      );
    expect(statuses).toEqual([201, 201, 429]);
    expect((await issues(t)).length).toBe(2);
  });
});
