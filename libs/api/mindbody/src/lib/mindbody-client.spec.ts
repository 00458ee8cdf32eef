import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  MindbodyClient,
  type ClientsPageProgress,
  type MindbodyClientOptions,
} from './mindbody-client';
import {
  MindbodyAuthError,
  MindbodyRequestError,
  MindbodyUnavailableError,
} from './mindbody-errors';
import type {
  Client,
  ClientContract,
  ClientPurchaseRecord,
  MindbodyEventId,
} from './mindbody-types';

/**
 * The part of apps/mindbody-sandbox's `startMindbodySandbox` these tests use. The sandbox is
 * loaded by path at run time rather than imported: a library may not import an app (Nx module
 * boundaries), and the sandbox itself depends on this library.
 */
interface Sandbox {
  url: string;
  webhooksUrl: string;
  controlUrl: string;
  options: { apiKey: string; siteId: string; staffUsername: string; staffPassword: string };
  control: {
    reset(options?: { clientCount?: number }): unknown;
    addFault(rule: {
      path: string;
      page?: number;
      offset?: number;
      status?: number;
      retryAfterSeconds?: number;
      drop?: boolean;
      latencyMs?: number;
      times?: number;
      method?: string;
      afterHandling?: boolean;
    }): unknown;
    clearFaults(): void;
    expireTokens(): void;
    requestCounts(): Record<string, number>;
    autopayWrites(): { ClientContractId: number; ClientId: string; Amount: number }[];
    clients(): readonly Client[];
    contracts(clientId: string): ClientContract[];
    purchases(clientId: string): ClientPurchaseRecord[];
    recordPayment(clientId: string, payment?: { Amount?: number }): unknown;
  };
  close(): Promise<void>;
}
type SandboxModule = {
  startMindbodySandbox(options: { port: number; clientCount: number }): Promise<Sandbox>;
};
const SANDBOX_MODULE = join(__dirname, '../../../../../apps/mindbody-sandbox/src/index.ts');

const CLIENTS = 1_000;
const GET_CLIENTS = 'GET /public/v6/client/clients';

describe('MindbodyClient against a real Mindbody sandbox', () => {
  let sandbox: Sandbox;
  let token: string;

  const client = (options: Partial<MindbodyClientOptions> = {}) =>
    new MindbodyClient({
      baseUrl: sandbox.url,
      webhooksBaseUrl: sandbox.webhooksUrl,
      apiKey: sandbox.options.apiKey,
      siteId: sandbox.options.siteId,
      backoffMs: 5,
      timeoutMs: 2_000,
      staffToken: token,
      ...options,
    });
  const calls = (key = GET_CLIENTS) => sandbox.control.requestCounts()[key] ?? 0;
  const collect = async (mindbody: MindbodyClient, pageSize = 200) => {
    const seen: Client[] = [];
    for await (const item of mindbody.allClients({ pageSize, includeInactive: true }))
      seen.push(item);
    return seen;
  };

  beforeAll(async () => {
    const { startMindbodySandbox } = (await import(SANDBOX_MODULE)) as SandboxModule;
    sandbox = await startMindbodySandbox({ port: 0, clientCount: CLIENTS });
    token = (
      await client({ staffToken: undefined }).issueStaffToken(
        sandbox.options.staffUsername,
        sandbox.options.staffPassword,
      )
    ).AccessToken;
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    sandbox.control.clearFaults();
    sandbox.control.reset();
  });

  describe('staff token', () => {
    it('issues a token and sends it as Authorization on the following calls', async () => {
      const mindbody = client({ staffToken: undefined });
      await expect(mindbody.getClients({ limit: 1 })).rejects.toBeInstanceOf(MindbodyAuthError);
      const reply = await mindbody.issueStaffToken(
        sandbox.options.staffUsername,
        sandbox.options.staffPassword,
      );
      expect(reply.AccessToken).toBe(mindbody.getStaffToken());
      expect(reply.User).toMatchObject({ FirstName: 'Sandbox' });
      expect((await mindbody.getClients({ limit: 1 })).Clients).toHaveLength(1);
    });

    it('maps invalid staff credentials to MindbodyAuthError, without retrying', async () => {
      const before = calls('POST /public/v6/usertoken/issue');
      const failure = await client()
        .issueStaffToken(sandbox.options.staffUsername, 'wrong')
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MindbodyAuthError);
      expect(failure).toMatchObject({
        status: 401,
        code: 'DeniedAccess',
        mindbodyMessage: 'Invalid credentials',
      });
      expect(calls('POST /public/v6/usertoken/issue')).toBe(before + 1);
    });

    it('maps an expired token and a wrong Api-Key to MindbodyAuthError', async () => {
      const mindbody = client({ staffToken: undefined });
      await mindbody.issueStaffToken(sandbox.options.staffUsername, sandbox.options.staffPassword);
      sandbox.control.expireTokens();
      await expect(mindbody.getClientReferralTypes()).rejects.toBeInstanceOf(MindbodyAuthError);
      await expect(client({ apiKey: 'wrong' }).getClients()).rejects.toBeInstanceOf(
        MindbodyAuthError,
      );
      token = (
        await client({ staffToken: undefined }).issueStaffToken(
          sandbox.options.staffUsername,
          sandbox.options.staffPassword,
        )
      ).AccessToken;
    });
  });

  describe('paging', () => {
    it('pages every client by offset until TotalResults, reporting each page', async () => {
      const progress: ClientsPageProgress[] = [];
      const seen: string[] = [];
      for await (const item of client().allClients({
        pageSize: 200,
        includeInactive: true,
        onPage: (page) => void progress.push(page),
      }))
        seen.push(item.Id);
      expect(seen).toHaveLength(CLIENTS);
      expect(new Set(seen).size).toBe(CLIENTS);
      expect(progress.map((page) => page.nextOffset)).toEqual([200, 400, 600, 800, 1_000]);
      expect(progress.every((page) => page.totalResults === CLIENTS && page.pageSize === 200)).toBe(
        true,
      );
    });

    it('pages only the clients modified since lastModifiedDate, from a start offset', async () => {
      // Seeded client n was last modified n minutes after 2026-01-01T00:00Z.
      const since = new Date(Date.UTC(2026, 0, 1, 0, 901));
      const seen: Client[] = [];
      for await (const item of client().allClients({
        pageSize: 40,
        lastModifiedDate: since,
        includeInactive: true,
      }))
        seen.push(item);
      expect(seen.map((item) => item.UniqueId)).toEqual(
        Array.from({ length: 100 }, (_, index) => 100_901 + index),
      );
      const resumed: Client[] = [];
      for await (const item of client().allClients({
        pageSize: 40,
        lastModifiedDate: since,
        includeInactive: true,
        startOffset: 90,
      }))
        resumed.push(item);
      expect(resumed).toHaveLength(10);
    });

    it('refuses a page size above 200 before sending anything', async () => {
      const before = calls();
      await expect(client().getClients({ limit: 201 })).rejects.toBeInstanceOf(RangeError);
      await expect(collect(client(), 500)).rejects.toBeInstanceOf(RangeError);
      expect(calls()).toBe(before);
    });
  });

  describe('retries and faults', () => {
    it('retries a 500 on page 3 and still returns every client once', async () => {
      sandbox.control.addFault({ path: '/client/clients', page: 3, status: 500, times: 2 });
      const before = calls();
      const seen = await collect(client({ retries: 3 }));
      expect(new Set(seen.map((item) => item.Id)).size).toBe(CLIENTS);
      expect(calls() - before).toBe(5 + 2);
    });

    it('waits for Retry-After on a 429', async () => {
      sandbox.control.addFault({
        path: '/client/clients',
        offset: 400,
        status: 429,
        retryAfterSeconds: 1,
        times: 1,
      });
      const started = performance.now();
      const seen = await collect(client({ retries: 2 }));
      expect(seen).toHaveLength(CLIENTS);
      expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    });

    it('retries a dropped connection', async () => {
      sandbox.control.addFault({ path: '/client/clients', page: 3, drop: true, times: 2 });
      const before = calls();
      expect(await collect(client({ retries: 2 }))).toHaveLength(CLIENTS);
      expect(calls() - before).toBe(5 + 2);
    });

    it('gives MindbodyUnavailableError when the retries are used up', async () => {
      sandbox.control.addFault({ path: '/client/clients', page: 3, status: 503 });
      const before = calls();
      const failure = await collect(client({ retries: 2 })).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MindbodyUnavailableError);
      expect(failure).toMatchObject({ attempts: 3, lastFailure: 503 });
      expect(calls() - before).toBe(2 + 3);
    });

    it('times out a slow reply, and retries it', async () => {
      sandbox.control.addFault({ path: '/client/clientreferraltypes', latencyMs: 400 });
      const failure = await client({ timeoutMs: 100, retries: 0 })
        .getClientReferralTypes()
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MindbodyUnavailableError);
      expect(failure).toMatchObject({ attempts: 1, lastFailure: 'timeout' });
      sandbox.control.clearFaults();
      sandbox.control.addFault({ path: '/client/clientreferraltypes', latencyMs: 400, times: 1 });
      expect(
        (await client({ timeoutMs: 150, retries: 1 }).getClientReferralTypes()).ReferralTypes,
      ).toContain('Friend');
    });

    it('does not retry a 400 and serializes it to text', async () => {
      const before = calls();
      const failure = await client({ retries: 3 })
        .getClients({ lastModifiedDate: 'not-a-date' })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MindbodyRequestError);
      expect(failure).toMatchObject({ status: 400, code: 'InvalidParameter' });
      expect(String(failure)).toBe(
        'Mindbody request failed (400 InvalidParameter): Query: request.lastModifiedDate should match format "date-time"',
      );
      expect(calls() - before).toBe(1);
      await expect(client({ siteId: '12345' }).getClients()).rejects.toMatchObject({
        status: 400,
        code: 'InvalidSiteId',
      });
    });
  });

  describe('contracts, autopays, referral types', () => {
    it('reads a member’s contract and overrides its autopay amount (dollars)', async () => {
      const products = (client: Client) =>
        new Set(
          (sandbox.control.contracts(client.Id)[0]?.UpcomingAutopayEvents ?? []).map(
            (event) => event.ProductId,
          ),
        ).size;
      const untaxed = (client: Client) =>
        sandbox.control.contracts(client.Id)[0]?.UpcomingAutopayEvents.every((e) => e.Tax === 0);
      const member = sandbox.control
        .clients()
        .find(
          (item) => item.Status === 'Active' && products(item) === 1 && untaxed(item),
        ) as Client;
      const mindbody = client();
      const { Contracts } = await mindbody.getClientContracts(member.Id);
      expect(Contracts).toHaveLength(1);
      const amount = Math.round((Contracts[0].NormalAutoPay - 15) * 100) / 100;
      const next = Contracts[0].UpcomingAutopayEvents[0].ScheduleDate;
      const reply = await mindbody.updateClientContractAutopays({
        ClientContractId: Contracts[0].Id,
        AutopayStartDate: next,
        Amount: amount,
      });
      // The official reply model is Contract (the template): its ID and name.
      expect(reply).toMatchObject({ Id: Contracts[0].ContractID, Name: Contracts[0].ContractName });
      const [after] = (await mindbody.getClientContracts(member.Id)).Contracts;
      expect(after.NormalAutoPay).toBe(amount);
      expect(after.UpcomingAutopayEvents.every((event) => event.ChargeAmount === amount)).toBe(
        true,
      );
      expect(sandbox.control.autopayWrites()).toEqual([
        expect.objectContaining({
          ClientContractId: Contracts[0].Id,
          ClientId: member.Id,
          Amount: amount,
          AutopayStartDate: next,
        }),
      ]);
      await expect(
        mindbody.updateClientContractAutopays({
          ClientContractId: 42,
          AutopayStartDate: next,
          Amount: 1,
        }),
      ).rejects.toMatchObject({ status: 404 });

      // A contract of two products: the write must name one, and only its autopays change.
      const multi = sandbox.control
        .clients()
        .find((item) => item.Status === 'Active' && products(item) === 2) as Client;
      const [contract] = (await mindbody.getClientContracts(multi.Id)).Contracts;
      const [membership, addOn] = contract.UpcomingAutopayEvents;
      await expect(
        mindbody.updateClientContractAutopays({
          ClientContractId: contract.Id,
          AutopayStartDate: membership.ScheduleDate,
          Amount: 40,
        }),
      ).rejects.toMatchObject({ status: 400 });
      await mindbody.updateClientContractAutopays({
        ClientContractId: contract.Id,
        AutopayStartDate: membership.ScheduleDate,
        ProductId: membership.ProductId,
        Amount: 40,
      });
      const changed = (await mindbody.getClientContracts(multi.Id)).Contracts[0];
      for (const event of changed.UpcomingAutopayEvents)
        expect(event.Subtotal).toBe(event.ProductId === membership.ProductId ? 40 : addOn.Subtotal);
    });

    it('reads a client’s purchases in a period (request.startDate/endDate sent as ISO), page by page', async () => {
      const paid = sandbox.control
        .clients()
        .find((item) => sandbox.control.purchases(item.Id).length === 2) as Client;
      const mindbody = client();
      const from = new Date('2000-01-01T00:00:00Z');
      const all = await mindbody.getClientPurchases(paid.Id, {
        startDate: from,
        endDate: new Date(),
      });
      expect(all.Purchases).toEqual(sandbox.control.purchases(paid.Id));
      expect(all.PaginationResponse).toMatchObject({ TotalResults: 2, RequestedLimit: 200 });
      const [first, second] = all.Purchases;
      const page = await mindbody.getClientPurchases(paid.Id, {
        startDate: '2000-01-01',
        endDate: new Date(),
        limit: 1,
        offset: 1,
      });
      expect(page.Purchases).toEqual([second]);
      expect(
        (
          await mindbody.getClientPurchases(paid.Id, {
            startDate: from,
            endDate: first.Sale.SaleDateTime,
          })
        ).Purchases,
      ).toEqual([first]);
      expect(
        (
          await mindbody.getClientPurchases(paid.Id, {
            startDate: from,
            endDate: new Date(),
            saleId: second.Sale.Id,
          })
        ).Purchases,
      ).toEqual([second]);
      await expect(
        mindbody.getClientPurchases('nobody', { startDate: from, endDate: new Date() }),
      ).rejects.toMatchObject({ status: 404, code: 'ClientNotFound' });
      await expect(
        mindbody.getClientPurchases(paid.Id, { startDate: from, endDate: new Date(), limit: 0 }),
      ).rejects.toThrow(RangeError);
    });

    it('reads the referral types', async () => {
      expect((await client().getClientReferralTypes()).ReferralTypes).toEqual([
        'Friend',
        'Google',
        'Instagram',
        'Walk-in',
        'Flyer',
      ]);
    });
  });

  describe('webhook subscriptions', () => {
    let receiver: Server;
    let webhookUrl: string;
    beforeAll(async () => {
      // Answers Mindbody's HEAD check of the webhookUrl (and any delivery) with 204.
      receiver = createServer((_request, response) => response.writeHead(204).end());
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    });
    afterAll(() => new Promise((resolve) => receiver.close(resolve)));

    it('creates (PendingActivation, with a signature key), activates and deletes a subscription', async () => {
      const mindbody = client();
      const eventIds: MindbodyEventId[] = [
        'client.created',
        'client.updated',
        'clientMembershipAssignment.cancelled',
      ];
      const created = await mindbody.createSubscription({
        eventIds,
        eventSchemaVersion: 1,
        referenceId: 'business-7',
        webhookUrl,
      });
      expect(created).toMatchObject({
        status: 'PendingActivation',
        eventIds,
        referenceId: 'business-7',
      });
      expect(created.messageSignatureKey).toBeTruthy();
      expect((await mindbody.activateSubscription(created.subscriptionId)).status).toBe('Active');
      expect(await mindbody.getSubscription(created.subscriptionId)).toMatchObject({
        subscriptionId: created.subscriptionId,
        status: 'Active',
      });
      expect(
        (await mindbody.getSubscriptions()).items.map((item) => item.subscriptionId),
      ).toContain(created.subscriptionId);
      expect(await mindbody.deleteSubscription(created.subscriptionId)).toMatchObject({
        subscriptionId: created.subscriptionId,
        referenceId: 'business-7',
      });
      await expect(mindbody.activateSubscription(created.subscriptionId)).rejects.toMatchObject({
        status: 404,
      });
      await expect(
        mindbody.createSubscription({
          eventIds,
          eventSchemaVersion: 1,
          referenceId: 'x',
          webhookUrl: 'not a url',
        }),
      ).rejects.toBeInstanceOf(MindbodyRequestError);
    });

    it('sends a createSubscription again after a 429 only: a lost reply or a 500 may have made one', async () => {
      const mindbody = client({ backoffMs: 1 });
      const request = {
        eventIds: ['client.updated'] as MindbodyEventId[],
        eventSchemaVersion: 1,
        referenceId: 'retry-check',
        webhookUrl,
      };
      const mine = async () =>
        (await mindbody.getSubscriptions()).items.filter(
          (item) => item.referenceId === 'retry-check',
        );
      // Made by Mindbody, then the reply lost: one attempt, one subscription, and the error.
      sandbox.control.addFault({
        path: '/subscriptions',
        method: 'POST',
        drop: true,
        afterHandling: true,
        times: 1,
      });
      await expect(mindbody.createSubscription(request)).rejects.toBeInstanceOf(
        MindbodyUnavailableError,
      );
      expect(await mine()).toHaveLength(1);
      sandbox.control.addFault({ path: '/subscriptions', method: 'POST', status: 500, times: 1 });
      await expect(mindbody.createSubscription(request)).rejects.toBeInstanceOf(
        MindbodyUnavailableError,
      );
      // A 429 is answered before anything is done: sent again, and it succeeds.
      sandbox.control.addFault({
        path: '/subscriptions',
        method: 'POST',
        status: 429,
        retryAfterSeconds: 0,
        times: 1,
      });
      const created = await mindbody.createSubscription(request);
      expect(created.messageSignatureKey).toBeTruthy();
      expect(await mine()).toHaveLength(2);
      for (const item of await mine()) await mindbody.deleteSubscription(item.subscriptionId);
    });

    it('uses webhooksBaseUrl when given', async () => {
      const mindbody = client({ webhooksBaseUrl: `${sandbox.controlUrl}/nowhere`, retries: 0 });
      await expect(mindbody.getSubscriptions()).rejects.toMatchObject({ status: 404 });
    });

    it('defaults to the official Webhooks host (not one derived from baseUrl) and reads its {isSuccess, value, errorInformation} envelope', async () => {
      const asked: { url: string; headers: Record<string, string> }[] = [];
      let reply: unknown = { isSuccess: true, value: { items: [] }, errorInformation: [] };
      const fetch = (input: string | URL | Request, init?: RequestInit) => {
        asked.push({ url: String(input), headers: init?.headers as Record<string, string> });
        return Promise.resolve(new Response(JSON.stringify(reply), { status: 200 }));
      };
      const mindbody = new MindbodyClient({
        baseUrl: 'https://api.mindbodyonline.com/public/v6',
        apiKey: 'key',
        siteId: '-99',
        staffToken: 'staff-token',
        fetch: fetch as typeof globalThis.fetch,
      });
      expect(await mindbody.getSubscriptions()).toEqual({ items: [] });
      expect(asked[0].url).toBe('https://push-api.mindbodyonline.com/api/v1/subscriptions');
      // The Webhooks API is the developer account's: no site, no staff token.
      expect(asked[0].headers).toMatchObject({ 'Api-Key': 'key' });
      expect(asked[0].headers).not.toHaveProperty('SiteId');
      expect(asked[0].headers).not.toHaveProperty('Authorization');
      reply = {
        isSuccess: false,
        value: null,
        errorInformation: [{ errorCode: 400, errorMessage: 'Bad event', errorType: 'Invalid' }],
      };
      await expect(mindbody.getSubscriptions()).rejects.toMatchObject({
        status: 200,
        code: 'Invalid',
        mindbodyMessage: 'Bad event',
      });
    });
  });
});
