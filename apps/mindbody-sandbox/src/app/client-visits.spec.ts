import type { GetClientVisitsResponse } from '@grove/api-mindbody';
import { DEFAULT_SANDBOX_OPTIONS } from './sandbox-server';
import { startMindbodySandbox, type RunningSandbox } from './start-sandbox';

const { apiKey, staffUsername, staffPassword } = DEFAULT_SANDBOX_OPTIONS;
const base = { 'Api-Key': apiKey, SiteId: '-99', 'Content-Type': 'application/json' };
const ALL_TIME = 'request.startDate=2000-01-01T00:00:00Z&request.endDate=2100-01-01T00:00:00Z';

/**
 * `GET /client/clientvisits` as the official GetClientVisits page says (docs/decisions/mindbody-visits.md):
 * the sandbox serves it from the visits a test records, checks each request and reply against
 * Grove's contract, and refuses what the contract refuses.
 */
describe('Mindbody sandbox: GET /client/clientvisits (official GetClientVisits)', () => {
  let sandbox: RunningSandbox;
  let auth: Record<string, string>;
  let siobhan: string;

  const visits = async (query: string, headers = auth) => {
    const reply = await fetch(`${sandbox.url}/client/clientvisits?${query}`, { headers });
    return {
      status: reply.status,
      body: (await reply.json()) as GetClientVisitsResponse & {
        Error?: { Code: string; Message: string };
      },
    };
  };

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 20, checkReplies: true });
    const issued = await fetch(`${sandbox.url}/usertoken/issue`, {
      method: 'POST',
      headers: base,
      body: JSON.stringify({ Username: staffUsername, Password: staffPassword }),
    });
    auth = {
      ...base,
      Authorization: ((await issued.json()) as { AccessToken: string }).AccessToken,
    };
    siobhan = sandbox.control.addClient({
      FirstName: 'Siobhán',
      LastName: "O'Brien",
      Email: 'siobhan.obrien@example.ie',
      NormalAutoPay: 80,
    }).Id;
    for (const [at, flags] of [
      ['2026-03-02T07:00:00Z', {}],
      ['2026-03-04T18:30:00Z', { SignedIn: false, LateCancelled: true }],
      ['2026-03-09T07:00:00Z', { SignedIn: false, Missed: true }],
      ['2026-03-11T07:00:00Z', {}],
    ] as const)
      sandbox.control.recordVisit(siobhan, { StartDateTime: at, ...flags });
  });
  afterAll(() => sandbox.close());
  afterEach(() => {
    expect(sandbox.control.replyViolations()).toEqual([]);
  });

  it('lists the client’s visits in the period, oldest first (newest first with order=desc), with the flags Grove reads and paging', async () => {
    const all = await visits(`request.clientId=${siobhan}&${ALL_TIME}`);
    expect(all.status).toBe(200);
    expect(all.body.PaginationResponse).toMatchObject({ TotalResults: 4, PageSize: 4 });
    expect(all.body.Visits.map((visit) => [visit.StartDateTime, visit.SignedIn])).toEqual([
      ['2026-03-02T07:00:00.000Z', true],
      ['2026-03-04T18:30:00.000Z', false],
      ['2026-03-09T07:00:00.000Z', false],
      ['2026-03-11T07:00:00.000Z', true],
    ]);
    expect(all.body.Visits[1]).toMatchObject({ LateCancelled: true, Missed: false });
    expect(all.body.Visits[2]).toMatchObject({ LateCancelled: false, Missed: true });
    expect(all.body.Visits.every((visit) => visit.ClientId === siobhan)).toBe(true);
    const newest = await visits(
      `request.clientId=${siobhan}&${ALL_TIME}&request.order=desc&request.limit=1`,
    );
    expect(newest.body.Visits.map((visit) => visit.StartDateTime)).toEqual([
      '2026-03-11T07:00:00.000Z',
    ]);
    expect(newest.body.PaginationResponse).toMatchObject({ TotalResults: 4, PageSize: 1 });
    const secondPage = await visits(
      `request.clientId=${siobhan}&${ALL_TIME}&request.limit=2&request.offset=2`,
    );
    expect(secondPage.body.Visits.map((visit) => visit.StartDateTime)).toEqual([
      '2026-03-09T07:00:00.000Z',
      '2026-03-11T07:00:00.000Z',
    ]);
    const march = await visits(
      `request.clientId=${siobhan}&request.startDate=2026-03-03T00:00:00Z&request.endDate=2026-03-10T00:00:00Z`,
    );
    expect(march.body.PaginationResponse.TotalResults).toBe(2);
    // The unique id takes precedence over the client id (the official page).
    const unique = sandbox.control.clients().find((client) => client.Id === siobhan)?.UniqueId;
    expect(
      (await visits(`request.clientId=nobody&request.uniqueClientId=${unique}&${ALL_TIME}`)).body
        .PaginationResponse.TotalResults,
    ).toBe(4);
  });

  it('defaults to today (the start date to the end date): older visits are not listed', async () => {
    expect((await visits(`request.clientId=${siobhan}`)).body.Visits).toEqual([]);
    expect(
      (await visits(`request.clientId=${siobhan}&request.endDate=2026-03-11T07:00:00Z`)).body
        .Visits,
    ).toHaveLength(1);
  });

  it('refuses what the contract refuses: no client, an unknown client, a bad date or order, a start after the end, an undeclared parameter, no token', async () => {
    expect(await visits(ALL_TIME)).toMatchObject({
      status: 400,
      body: { Error: { Code: 'InvalidParameter' } },
    });
    expect((await visits(`request.clientId=nobody&${ALL_TIME}`)).status).toBe(404);
    expect((await visits(`request.clientId=${siobhan}&request.startDate=soon`)).status).toBe(400);
    expect((await visits(`request.clientId=${siobhan}&request.order=newest`)).status).toBe(400);
    expect((await visits(`request.clientId=${siobhan}&request.limit=201`)).status).toBe(400);
    expect(
      (
        await visits(
          `request.clientId=${siobhan}&request.startDate=2026-03-10T00:00:00Z&request.endDate=2026-03-01T00:00:00Z`,
        )
      ).status,
    ).toBe(400);
    expect((await visits(`request.clientId=${siobhan}&request.classId=1`)).status).toBe(400);
    const { Authorization: _token, ...noToken } = auth;
    expect((await visits(`request.clientId=${siobhan}`, noToken)).status).toBe(401);
  });

  it('records a visit through the control API; refuses an unknown client and a bad date', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${sandbox.controlUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
    const ana = sandbox.control.addClient({ FirstName: 'Ana-Sofía', LastName: 'Ruiz' }).Id;
    const recorded = await post(`/clients/${ana}/visits`, {
      StartDateTime: '2026-04-01T09:00:00Z',
    });
    expect(recorded.status).toBe(201);
    expect(await recorded.json()).toMatchObject({ ClientId: ana, SignedIn: true, Missed: false });
    expect((await post('/clients/nobody/visits', {})).status).toBe(404);
    expect((await post(`/clients/${ana}/visits`, { StartDateTime: 'Tuesday' })).status).toBe(400);
    expect((await visits(`request.clientId=${ana}&${ALL_TIME}`)).body.Visits).toHaveLength(1);
  });
});
