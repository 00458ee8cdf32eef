import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MINDBODY_CONTRACT, MindbodyContract } from './contract-validator';
import { DEFAULT_SANDBOX_OPTIONS } from './sandbox-server';
import { startMindbodySandbox, type RunningSandbox } from './start-sandbox';

const { apiKey, staffUsername, staffPassword } = DEFAULT_SANDBOX_OPTIONS;
const json = { 'Content-Type': 'application/json' };

describe("Grove's Mindbody contract (src/contract/mindbody-contract.openapi.json)", () => {
  it('names, for every operation, the official operationId and the SDK model pages it was transcribed from', () => {
    const operations = new MindbodyContract().operations();
    expect(operations.length).toBeGreaterThanOrEqual(13);
    for (const { path, method, operationId } of operations) {
      const raw = MINDBODY_CONTRACT.paths[path][method.toLowerCase()] as Record<string, unknown>;
      const official = raw['x-mindbody-official'] as {
        operationId: string;
        sdkPage: string;
        models: string[];
      };
      expect({ operationId, official: official.operationId }).toEqual({
        operationId,
        official: operationId,
      });
      expect(official.sdkPage).toMatch(
        /^(PublicAPI|WebhooksAPI) python: doc\/controllers\/.+\.md#/,
      );
      expect(official.models.length).toBeGreaterThan(0);
      expect(Array.isArray(raw['x-grove-differs'])).toBe(true);
    }
  });
});

describe('the sandbox checks every request against the contract', () => {
  let sandbox: RunningSandbox;
  let receiver: Server;
  let webhookUrl: string;
  let token: string;
  const publicHeaders = () => ({ 'API-Key': apiKey, siteId: '-99', authorization: token, ...json });
  const push = { 'API-Key': apiKey, ...json };

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 120, checkReplies: true });
    receiver = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const issued = await fetch(`${sandbox.url}/usertoken/issue`, {
      method: 'POST',
      headers: { 'API-Key': apiKey, siteId: '-99', ...json },
      body: JSON.stringify({ Username: staffUsername, Password: staffPassword }),
    });
    token = ((await issued.json()) as { AccessToken: string }).AccessToken;
  });
  afterAll(async () => {
    await sandbox.close();
    await new Promise((resolve) => receiver.close(resolve));
  });
  beforeEach(() => sandbox.control.clearContractViolations());

  it('answers 404 for a path or a method that is not a Mindbody operation', async () => {
    const unknownPath = await fetch(`${sandbox.url}/client/clientschedule`, {
      headers: publicHeaders(),
    });
    expect(unknownPath.status).toBe(404);
    expect(await unknownPath.json()).toMatchObject({ Error: { Code: 'NotFound' } });
    const unknownMethod = await fetch(`${sandbox.url}/client/clients`, {
      method: 'DELETE',
      headers: publicHeaders(),
    });
    expect(unknownMethod.status).toBe(404);
    const oldWebhooksHost = await fetch(
      `${sandbox.webhooksUrl.replace('/api/v1', '/push/api/v1')}/subscriptions`,
      {
        headers: push,
      },
    );
    expect(oldWebhooksHost.status).toBe(404);
    expect(sandbox.control.contractViolations().map((violation) => violation.status)).toEqual([
      404, 404, 404,
    ]);
  });

  it("answers 400 with Mindbody's error body for an undeclared query parameter or body property, and for wrong types", async () => {
    const get = (query: string) =>
      fetch(`${sandbox.url}/client/clients?${query}`, { headers: publicHeaders() });
    const undeclared = await get('request.limit=10&request.clientIds=100001');
    expect(undeclared.status).toBe(400);
    expect(await undeclared.json()).toEqual({
      Error: {
        Code: 'InvalidParameter',
        Message:
          'The query parameter request.clientIds is not part of GET /public/v6/client/clients',
      },
    });
    expect((await get('request.includeInactive=maybe')).status).toBe(400);
    expect((await get('request.limit=ten')).status).toBe(400);
    expect((await get('request.uniqueIds=abc')).status).toBe(400);

    const write = (body: unknown) =>
      fetch(`${sandbox.url}/client/updateclientcontractautopays`, {
        method: 'POST',
        headers: publicHeaders(),
        body: JSON.stringify(body),
      });
    const withClientId = await write({
      ClientContractId: 1,
      AutopayStartDate: '2026-12-01T00:00:00Z',
      ClientId: '100001',
    });
    expect(withClientId.status).toBe(400);
    expect(await withClientId.json()).toEqual({
      Error: { Code: 'InvalidParameter', Message: 'Body: ClientId is not a declared property' },
    });
    expect(
      (await write({ ClientContractId: '1', AutopayStartDate: '2026-12-01T00:00:00Z' })).status,
    ).toBe(400);
    const notJson = await fetch(`${sandbox.url}/client/updateclientcontractautopays`, {
      method: 'POST',
      headers: publicHeaders(),
      body: '{',
    });
    expect(notJson.status).toBe(400);

    // The Webhooks API answers in its own envelope.
    const withSite = await fetch(`${sandbox.webhooksUrl}/subscriptions`, {
      method: 'POST',
      headers: push,
      body: JSON.stringify({
        eventIds: ['client.created'],
        eventSchemaVersion: 1,
        webhookUrl,
        siteId: -99,
      }),
    });
    expect(withSite.status).toBe(400);
    expect(await withSite.json()).toMatchObject({
      isSuccess: false,
      errorInformation: [{ errorMessage: 'Body: siteId is not a declared property' }],
    });
    expect(sandbox.control.contractViolations()).toHaveLength(8);
  });

  it('replies as the contract says to every operation, success and failure alike', async () => {
    const call = (url: string, init: RequestInit = {}) =>
      fetch(url, { ...init, headers: { ...publicHeaders(), ...(init.headers ?? {}) } });
    const member = sandbox.control
      .clients()
      .find((client) => client.Status === 'Active' && client.Active) as {
      Id: string;
      UniqueId: number;
    };
    const [contract] = sandbox.control.contracts(member.Id);
    const replies = await Promise.all([
      call(`${sandbox.url}/usertoken/issue`, {
        method: 'POST',
        body: JSON.stringify({ Username: staffUsername, Password: 'wrong' }),
      }),
      call(`${sandbox.url}/site/sites?request.siteIds=-99&request.siteIds=-98`),
      call(`${sandbox.url}/site/activationcode`, { headers: { siteId: '-98' } }),
      call(`${sandbox.url}/client/clients?request.limit=200&request.includeInactive=true`),
      call(`${sandbox.url}/client/clients`, { headers: { siteId: '-98' } }),
      call(`${sandbox.url}/client/clientcontracts?request.clientId=${member.Id}`),
      call(`${sandbox.url}/client/clientcontracts?request.clientId=nobody`),
      call(
        `${sandbox.url}/client/clientpurchases?request.clientId=${member.Id}&request.startDate=2000-01-01T00:00:00Z`,
      ),
      call(
        `${sandbox.url}/client/clientvisits?request.clientId=${member.Id}&request.startDate=2000-01-01T00:00:00Z&request.order=desc`,
      ),
      call(`${sandbox.url}/client/clientvisits?request.clientId=nobody`),
      call(`${sandbox.url}/client/updateclientcontractautopays`, {
        method: 'POST',
        body: JSON.stringify({
          ClientContractId: contract.Id,
          AutopayStartDate: contract.UpcomingAutopayEvents[0].ScheduleDate,
          Amount: contract.NormalAutoPay,
        }),
      }),
      call(`${sandbox.url}/client/clientreferraltypes?request.includeInactive=true`),
      call(`${sandbox.url}/client/requiredclientfields`),
      call(`${sandbox.url}/client/addclient`, {
        method: 'POST',
        body: JSON.stringify({ FirstName: 'Zoë', LastName: "D'Arcy", Email: 'zoe@example.fr' }),
      }),
      call(`${sandbox.url}/client/addclient`, {
        method: 'POST',
        body: JSON.stringify({ FirstName: 'Zoë', LastName: "D'Arcy", Email: 'zoe@example.fr' }),
      }),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual([
      401, 200, 200, 200, 403, 200, 404, 200, 200, 404, 200, 200, 200, 200, 400,
    ]);
    const created = await fetch(`${sandbox.webhooksUrl}/subscriptions`, {
      method: 'POST',
      headers: push,
      body: JSON.stringify({ eventIds: ['client.created'], eventSchemaVersion: 1, webhookUrl }),
    });
    const { value } = (await created.json()) as { value: { subscriptionId: string } };
    const path = `${sandbox.webhooksUrl}/subscriptions/${value.subscriptionId}`;
    const webhookReplies = [
      await fetch(path, {
        method: 'PATCH',
        headers: push,
        body: JSON.stringify({ status: 'Active' }),
      }),
      await fetch(path, { headers: push }),
      await fetch(`${sandbox.webhooksUrl}/subscriptions`, { headers: push }),
      await fetch(path, { method: 'DELETE', headers: push }),
      await fetch(path, { method: 'DELETE', headers: push }),
    ];
    expect(webhookReplies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 404]);
    expect(sandbox.control.replyViolations()).toEqual([]);
    expect(sandbox.control.contractViolations()).toEqual([]);
    // Every operation of the contract was answered.
    expect(Object.keys(sandbox.control.operationCounts()).sort()).toEqual(
      new MindbodyContract()
        .operations()
        .map((operation) => operation.operationId)
        .sort(),
    );
  });

  it('catches a reply that breaks the contract (the check is not vacuous)', () => {
    const contract = new MindbodyContract();
    expect(contract.checkResponse('getClients', 200, { Clients: [] })).toEqual([
      'PaginationResponse is required',
    ]);
    expect(
      contract.checkResponse('createSubscription', 200, { subscriptionId: 'x', status: 'Active' }),
    ).not.toEqual([]);
    expect(contract.checkResponse('getClients', 418, {})).toEqual([
      'getClients declares no 418 reply',
    ]);
  });
});
