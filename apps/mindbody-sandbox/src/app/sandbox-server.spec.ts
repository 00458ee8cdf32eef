import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  verifyWebhookSignature,
  type Client,
  type GetClientContractsResponse,
  type GetClientPurchasesResponse,
  type GetClientsResponse,
  type WebhookDelivery,
  type WebhookSubscription,
} from '@grove/api-mindbody';
import { DEFAULT_SANDBOX_OPTIONS } from './sandbox-server';
import { SANDBOX_ADD_ON, SANDBOX_PAID_SHARE, SANDBOX_REFERRAL_TYPES, seedSite } from './seed';
import { startMindbodySandbox, type RunningSandbox } from './start-sandbox';

const { apiKey, staffUsername, staffPassword } = DEFAULT_SANDBOX_OPTIONS;
const base = { 'Api-Key': apiKey, SiteId: '-99', 'Content-Type': 'application/json' };

describe('Mindbody sandbox (Public API v6 + Webhooks API shapes)', () => {
  let sandbox: RunningSandbox;
  let auth: Record<string, string>;

  const issue = async () => {
    const reply = await fetch(`${sandbox.url}/usertoken/issue`, {
      method: 'POST',
      headers: base,
      body: JSON.stringify({ Username: staffUsername, Password: staffPassword }),
    });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as {
      AccessToken: string;
      Expires: string;
      User: { Id: number };
    };
    expect(Date.parse(body.Expires)).toBeGreaterThan(Date.now());
    expect(body.User.Id).toBe(1);
    return body.AccessToken;
  };
  const getClients = async (query: string, headers = auth) => {
    const reply = await fetch(`${sandbox.url}/client/clients?${query}`, { headers });
    return {
      status: reply.status,
      body: (await reply.json()) as GetClientsResponse & {
        Error?: { Code: string; Message: string };
      },
    };
  };

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 450, webhookRetryDelayMs: 20 });
    auth = { ...base, Authorization: await issue() };
  });
  afterAll(() => sandbox.close());
  afterEach(() => {
    sandbox.control.clearFaults();
  });

  describe('seed', () => {
    it('is deterministic and shaped like a real site: Id ≠ UniqueId, ~10% prospects, ~3% inactive profiles, ReferredBy only referral types, memberships with add-ons and tax', () => {
      const first = seedSite({ clientCount: 3_000 });
      const again = seedSite({ clientCount: 3_000 });
      expect(JSON.stringify([...again.clients, ...again.contracts])).toBe(
        JSON.stringify([...first.clients, ...first.contracts]),
      );
      expect(JSON.stringify(seedSite({ clientCount: 3_000, seed: 5 }).clients)).not.toBe(
        JSON.stringify(first.clients),
      );
      expect(() => seedSite({ clientCount: 50_001 })).toThrow(RangeError);
      expect(() => seedSite({ clientCount: Number('abc') })).toThrow(RangeError);

      const share = (count: number) => count / first.clients.length;
      const prospects = first.clients.filter((client) => client.IsProspect);
      expect(share(prospects.length)).toBeGreaterThan(0.08);
      expect(share(prospects.length)).toBeLessThan(0.12);
      // The business's Id (a barcode) is not the system's UniqueId.
      expect(first.clients.every((client) => client.Id !== String(client.UniqueId))).toBe(true);
      expect(new Set(first.clients.map((client) => client.Id)).size).toBe(first.clients.length);
      const inactive = first.clients.filter((client) => !client.Active);
      expect(share(inactive.length)).toBeGreaterThan(0.01);
      expect(share(inactive.length)).toBeLessThan(0.05);
      expect(inactive.every((client) => client.Status === 'Expired' && !client.IsProspect)).toBe(
        true,
      );
      // ReferredBy is how the client heard of the business: a referral type, never a person.
      const referred = first.clients.filter((client) => client.ReferredBy !== null);
      expect(share(referred.length)).toBeGreaterThan(0.3);
      expect(
        referred.every((client) => SANDBOX_REFERRAL_TYPES.includes(client.ReferredBy as string)),
      ).toBe(true);

      let addOns = 0;
      let taxed = 0;
      for (const client of first.clients) {
        const contracts = first.contracts.get(client.Id) ?? [];
        if (client.Status !== 'Active') {
          expect(contracts).toHaveLength(0);
          continue;
        }
        expect(contracts).toHaveLength(1);
        const [contract] = contracts;
        expect(contract.AutopayStatus).toBe('Active');
        const products = new Set(contract.UpcomingAutopayEvents.map((event) => event.ProductId));
        if (products.size > 1) addOns += 1;
        if (contract.UpcomingAutopayEvents.some((event) => event.Tax > 0)) taxed += 1;
        const dates = new Set(contract.UpcomingAutopayEvents.map((event) => event.ScheduleDate));
        expect(contract.UpcomingAutopayEvents).toHaveLength(dates.size * products.size);
        for (const event of contract.UpcomingAutopayEvents) {
          expect(event.ClientContractId).toBe(contract.Id);
          expect(event.ChargeAmount).toBeCloseTo(event.Subtotal + event.Tax, 2);
        }
        // NormalAutoPay: the items before tax, the membership itself 49–129 dollars.
        const [date] = dates;
        const items = contract.UpcomingAutopayEvents.filter((event) => event.ScheduleDate === date);
        expect(contract.NormalAutoPay).toBeCloseTo(
          items.reduce((sum, event) => sum + event.Subtotal, 0),
          2,
        );
        const membership = Math.max(...items.map((event) => event.Subtotal));
        expect(membership).toBeGreaterThanOrEqual(49);
        expect(membership).toBeLessThanOrEqual(129);
      }
      const contracts = first.contracts.size;
      expect(addOns / contracts).toBeGreaterThan(0.1);
      expect(addOns / contracts).toBeLessThan(0.2);
      expect(taxed / contracts).toBeGreaterThan(0.2);
      expect(taxed / contracts).toBeLessThan(0.3);
    });
  });

  describe('seed purchases', () => {
    it('about 80% of the members with a contract have paid for it (its start, some also the first autopay), the rest nothing yet', () => {
      const { clients, contracts, purchases } = seedSite({ clientCount: 3_000 });
      expect(JSON.stringify([...seedSite({ clientCount: 3_000 }).purchases])).toBe(
        JSON.stringify([...purchases]),
      );
      expect([...purchases.keys()].every((id) => contracts.has(id))).toBe(true);
      const share = purchases.size / contracts.size;
      expect(share).toBeGreaterThan(SANDBOX_PAID_SHARE - 0.05);
      expect(share).toBeLessThan(SANDBOX_PAID_SHARE + 0.05);
      const saleIds = new Set<number>();
      for (const [clientId, records] of purchases) {
        const [contract] = contracts.get(clientId) ?? [];
        expect(records[0]).toMatchObject({
          Description: contract.ContractName,
          AmountPaid: contract.FirstAutoPay,
          Returned: false,
          Sale: { ClientId: clientId, SaleDateTime: contract.StartDate },
        });
        expect(records.length).toBeLessThanOrEqual(2);
        if (records[1])
          expect(records[1]).toMatchObject({
            Description: `${contract.ContractName} (autopay)`,
            Sale: { SaleDateTime: contract.UpcomingAutopayEvents[0].ScheduleDate },
          });
        for (const record of records) saleIds.add(record.Sale.Id);
      }
      expect(saleIds.size).toBe([...purchases.values()].flat().length);
      expect([...purchases.values()].some((records) => records.length === 2)).toBe(true);
      // Purchases come from their own random sequence: the clients are those of a seed without them.
      expect(clients.filter((client) => client.Status === 'Active').length).toBe(contracts.size);
    });
  });

  describe('auth', () => {
    it('refuses wrong staff credentials with the Mindbody error shape', async () => {
      const reply = await fetch(`${sandbox.url}/usertoken/issue`, {
        method: 'POST',
        headers: base,
        body: JSON.stringify({ Username: staffUsername, Password: 'nope' }),
      });
      expect(reply.status).toBe(401);
      expect(await reply.json()).toEqual({
        Error: { Message: 'Invalid credentials', Code: 'DeniedAccess' },
      });
    });

    it('answers 401 without the Api-Key or with a wrong one, and 400 for a missing or wrong SiteId', async () => {
      expect(
        (await getClients('', { SiteId: '-99', Authorization: auth.Authorization })).status,
      ).toBe(401);
      const wrongKey = await getClients('', { ...auth, 'Api-Key': 'other' });
      expect(wrongKey).toMatchObject({ status: 401, body: { Error: { Code: 'DeniedAccess' } } });
      expect(
        (await getClients('', { 'Api-Key': apiKey, Authorization: auth.Authorization })).status,
      ).toBe(400);
      expect(await getClients('', { ...auth, SiteId: '12345' })).toMatchObject({
        status: 400,
        body: { Error: { Code: 'InvalidSiteId' } },
      });
    });

    it('requires a staff token that has not expired', async () => {
      expect((await getClients('', base)).status).toBe(401);
      expect((await getClients('', { ...base, Authorization: 'made-up' })).status).toBe(401);
      const token = await issue();
      expect((await getClients('', { ...base, Authorization: `Bearer ${token}` })).status).toBe(
        200,
      );
      sandbox.control.expireTokens();
      expect(await getClients('', { ...base, Authorization: token })).toMatchObject({
        status: 401,
        body: { Error: { Code: 'DeniedAccess' } },
      });
      auth = { ...base, Authorization: await issue() };
    });
  });

  describe('GET /client/clients', () => {
    it('pages through every client, at most 200 per page, with PaginationResponse; inactive profiles only with request.includeInactive=true', async () => {
      const ids = new Set<string>();
      for (let offset = 0; ; offset += 200) {
        const { status, body } = await getClients(
          `request.limit=200&request.offset=${offset}&request.includeInactive=true`,
        );
        expect(status).toBe(200);
        expect(body.PaginationResponse).toEqual({
          RequestedLimit: 200,
          RequestedOffset: offset,
          PageSize: body.Clients.length,
          TotalResults: 450,
        });
        body.Clients.forEach((client) => ids.add(client.Id));
        if (offset + 200 >= 450) break;
      }
      expect(ids.size).toBe(450);
      // Mindbody's default leaves inactive profiles out.
      const active = sandbox.control.clients().filter((client) => client.Active).length;
      expect(active).toBeLessThan(450);
      expect((await getClients('request.limit=1')).body.PaginationResponse.TotalResults).toBe(
        active,
      );
      const [first] = (await getClients('request.limit=1')).body.Clients;
      expect(Object.keys(first).sort()).toEqual(
        [
          'Active',
          'CreationDate',
          'Email',
          'FirstName',
          'Id',
          'IsProspect',
          'LastModifiedDateTime',
          'LastName',
          'MobilePhone',
          'ReferredBy',
          'Status',
          'UniqueId',
        ].sort(),
      );
    });

    it('answers 400 for request.limit above 200 or a bad offset', async () => {
      expect(await getClients('request.limit=201')).toMatchObject({
        status: 400,
        body: { Error: { Code: 'InvalidParameter' } },
      });
      expect((await getClients('request.offset=-1')).status).toBe(400);
    });

    it('filters by request.lastModifiedDate (at or after), request.clientIDs and request.searchText', async () => {
      // Client n was last modified n minutes after 2026-01-01T00:00Z: from 07:00 on are clients 420..450.
      const since = await getClients(
        'request.limit=200&request.lastModifiedDate=2026-01-01T07:00:00Z',
      );
      expect(since.body.PaginationResponse.TotalResults).toBe(31);
      expect(since.body.Clients[0].UniqueId).toBe(100_420);
      const [a, b, c] = sandbox.control
        .clients()
        .filter((client) => client.Active)
        .map((client) => client.Id);
      const byIds = await getClients(
        `request.clientIDs=${c}&request.clientIDs=${a}&request.clientIDs=${b}`,
      );
      expect(byIds.body.Clients.map((client) => client.Id)).toEqual([a, b, c]);
      // The SDKs' indexed form is the same list.
      const indexed = await getClients(`request.clientIDs[0]=${b}&request.clientIDs[1]=${a}`);
      expect(indexed.body.Clients.map((client) => client.Id)).toEqual([a, b]);
      // By UniqueId.
      const unique = sandbox.control.clients().find((client) => client.Id === a)?.UniqueId;
      expect(
        (await getClients(`request.uniqueIds=${unique}`)).body.Clients.map((client) => client.Id),
      ).toEqual([a]);
      // GetClients spells it request.clientIDs: another spelling is not a parameter of it.
      expect(await getClients(`request.clientIds=${a}`)).toMatchObject({
        status: 400,
        body: { Error: { Code: 'InvalidParameter' } },
      });
      const tooMany = Array.from({ length: 21 }, (_, n) => `request.clientIDs=${100_001 + n}`);
      expect((await getClients(tooMany.join('&'))).status).toBe(400);
      const someone = sandbox.control.clients()[10];
      const search = await getClients(
        `request.limit=200&request.searchText=${encodeURIComponent(someone.Email as string)}`,
      );
      expect(search.body.Clients.map((client) => client.Id)).toEqual([someone.Id]);
      expect((await getClients('request.lastModifiedDate=yesterday')).status).toBe(400);
    });

    it('lists the clients of one email over the control API (GET /_sandbox/clients?email=)', async () => {
      const added = sandbox.control.addClient({
        FirstName: 'Zoë',
        LastName: "D'Arcy-Nguyễn",
        Email: 'Zoe.Darcy@example.com',
      });
      const read = async (query: string) =>
        (await (await fetch(`${sandbox.controlUrl}/clients${query}`)).json()) as {
          clients: Client[];
        };
      expect((await read('?email=%20zoe.darcy@EXAMPLE.com')).clients.map((c) => c.Id)).toEqual([
        added.Id,
      ]);
      expect((await read('?email=nobody@example.com')).clients).toEqual([]);
      expect((await read('')).clients).toEqual([]);
      sandbox.control.reset();
    });

    it('shows a client added or changed through the control API to a lastModifiedDate query', async () => {
      const before = new Date().toISOString();
      const added = sandbox.control.addClient({
        FirstName: 'Nina',
        LastName: 'Newcomer',
        Email: 'nina@example.com',
        IsProspect: true,
        ReferredBy: 'Olivia Smith',
      });
      const changed = sandbox.control.updateClient(
        (sandbox.control.clients().filter((client) => client.Active)[4] as Client).Id,
        { Email: 'changed@example.com' },
      );
      const { body } = await getClients(`request.lastModifiedDate=${before}`);
      expect(body.Clients.map((client) => client.Id).sort()).toEqual(
        [changed?.Id, added.Id].sort(),
      );
      expect(body.Clients.find((client) => client.Id === added.Id)).toMatchObject({
        IsProspect: true,
        ReferredBy: 'Olivia Smith',
        Status: 'Non-Member',
      });
      sandbox.control.reset();
      expect(
        (await getClients('request.limit=1&request.includeInactive=true')).body.PaginationResponse
          .TotalResults,
      ).toBe(450);
    });

    it('pages 10,000 clients without a cost that grows with the page number', async () => {
      sandbox.control.reset({ clientCount: 10_000 });
      await getClients('request.limit=200'); // warm the connection
      const started = performance.now();
      let received = 0;
      for (let offset = 0; offset < 10_000; offset += 200)
        received += (
          await getClients(
            `request.limit=200&request.offset=${offset}&request.includeInactive=true`,
          )
        ).body.Clients.length;
      const elapsed = performance.now() - started;
      expect(received).toBe(10_000);
      // About 0.3 s on an idle machine; the bound only catches a cost per page that grows with the
      // list (an O(N²) paging), not a slow machine (bench figures belong in benchmarks).
      expect(elapsed).toBeLessThan(10_000);
      sandbox.control.reset({ clientCount: 450 });
    });
  });

  describe('contracts, autopays, referral types', () => {
    it('lists a member’s contract and records every autopay write, changing the upcoming charges', async () => {
      const member = sandbox.control
        .clients()
        .find((client) => client.Status === 'Active') as Client;
      const reply = await fetch(
        `${sandbox.url}/client/clientcontracts?request.clientId=${member.Id}`,
        { headers: auth },
      );
      const { Contracts, PaginationResponse } = (await reply.json()) as GetClientContractsResponse;
      expect(PaginationResponse.TotalResults).toBe(1);
      const [contract] = Contracts;
      expect(contract.PayerClientId).toBe(member.UniqueId);

      sandbox.control.clearAutopayWrites();
      const amount = Math.round((contract.NormalAutoPay - 10) * 100) / 100;
      const next = contract.UpcomingAutopayEvents[0].ScheduleDate;
      const write = (body: unknown) =>
        fetch(`${sandbox.url}/client/updateclientcontractautopays`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify(body),
        });
      // UpdateClientContractAutopaysRequest has no client field.
      const withClient = await write({
        ClientId: member.Id,
        ClientContractId: contract.Id,
        AutopayStartDate: next,
        Amount: amount,
      });
      expect(withClient.status).toBe(400);
      expect(await withClient.json()).toMatchObject({ Error: { Code: 'InvalidParameter' } });
      const update = await write({
        ClientContractId: contract.Id,
        AutopayStartDate: next,
        Amount: amount,
      });
      expect(update.status).toBe(200);
      // The official reply model is Contract: the contract template's ID and name.
      expect(await update.json()).toMatchObject({
        Id: contract.ContractID,
        Name: contract.ContractName,
      });
      expect(sandbox.control.autopayWrites()).toEqual([
        expect.objectContaining({
          ClientContractId: contract.Id,
          ClientId: member.Id,
          Amount: amount,
          PreviousAmount: contract.NormalAutoPay,
          AutopayStartDate: next,
          ProductId: null,
        }),
      ]);
      const [after] = sandbox.control.contracts(member.Id);
      expect(after.UpcomingAutopayEvents.every((event) => event.ChargeAmount === amount)).toBe(
        true,
      );

      const unknown = await write({ ClientContractId: 1, AutopayStartDate: next, Amount: 5 });
      expect(unknown.status).toBe(404);
      const noStart = await write({ ClientContractId: contract.Id, Amount: 5 });
      expect(noStart.status).toBe(400);
      const textAmount = await write({
        ClientContractId: contract.Id,
        AutopayStartDate: next,
        Amount: '5',
      });
      expect(textAmount.status).toBe(400);
      const control = await fetch(`${sandbox.controlUrl}/autopay-writes`);
      expect(((await control.json()) as { writes: unknown[] }).writes).toHaveLength(1);
    });

    it('records a write to one product of a two-product contract with that item’s previous amount, not the add-on’s', async () => {
      const added = sandbox.control.addClient({
        FirstName: 'Siobhán',
        LastName: "O'Brien",
        Email: 'siobhan.obrien@example.ie',
        NormalAutoPay: 59,
        AddOn: true,
      });
      const [contract] = sandbox.control.contracts(added.Id);
      expect(contract.NormalAutoPay).toBe(59 + SANDBOX_ADD_ON.Subtotal);
      const membership = contract.UpcomingAutopayEvents.find(
        (event) => event.ProductId !== SANDBOX_ADD_ON.ProductId,
      );
      sandbox.control.clearAutopayWrites();
      const reply = await fetch(`${sandbox.url}/client/updateclientcontractautopays`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          ClientContractId: contract.Id,
          AutopayStartDate: contract.UpcomingAutopayEvents[0].ScheduleDate,
          Amount: 49,
          ProductId: membership?.ProductId,
        }),
      });
      expect(reply.status).toBe(200);
      const [write] = sandbox.control.autopayWrites();
      // The membership item went from $59 to $49: −$10, the add-on untouched.
      expect(write).toMatchObject({ Amount: 49, PreviousAmount: 59 });
      expect(sandbox.control.contracts(added.Id)[0].NormalAutoPay).toBe(
        49 + SANDBOX_ADD_ON.Subtotal,
      );
    });

    it('answers contracts paging errors and unknown clients', async () => {
      expect((await fetch(`${sandbox.url}/client/clientcontracts`, { headers: auth })).status).toBe(
        400,
      );
      expect(
        (
          await fetch(`${sandbox.url}/client/clientcontracts?request.clientId=nobody`, {
            headers: auth,
          })
        ).status,
      ).toBe(404);
      const prospect = sandbox.control.clients().find((client) => client.IsProspect) as Client;
      const reply = await fetch(
        `${sandbox.url}/client/clientcontracts?request.clientId=${prospect.Id}`,
        { headers: auth },
      );
      expect(((await reply.json()) as GetClientContractsResponse).Contracts).toEqual([]);
    });

    it('lists the referral types', async () => {
      const reply = await fetch(`${sandbox.url}/client/clientreferraltypes`, { headers: auth });
      expect(await reply.json()).toEqual({
        ReferralTypes: ['Friend', 'Google', 'Instagram', 'Walk-in', 'Flyer'],
      });
    });
  });

  describe('POST /client/addclient', () => {
    const addClient = async (body: Record<string, unknown>) => {
      const reply = await fetch(`${sandbox.url}/client/addclient`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: reply.status,
        body: (await reply.json()) as {
          Client?: {
            Id: string;
            FirstName: string;
            ReferredBy: string | null;
            IsProspect: boolean;
          };
          Error?: { Code: string; Message: string };
        },
      };
    };
    const ana = {
      FirstName: 'Ana-Sofía',
      LastName: "D'Arcy",
      Email: 'ana.sofia@example.es',
      MobilePhone: '+34 612 34 56 78',
      ReferredBy: 'Friend',
    };

    it("lists the site's required client fields and adds a client with them, once", async () => {
      const required = await fetch(`${sandbox.url}/client/requiredclientfields`, { headers: auth });
      expect(await required.json()).toEqual({ RequiredClientFields: ['Email'] });
      const before = sandbox.control.clients().length;
      const added = await addClient(ana);
      expect(added.status).toBe(200);
      expect(added.body.Client).toMatchObject({
        FirstName: 'Ana-Sofía',
        ReferredBy: 'Friend',
        IsProspect: false,
      });
      const found = await getClients(
        `request.searchText=${encodeURIComponent('ana.sofia@example.es')}`,
      );
      expect(found.body.Clients.map((client) => client.Id)).toEqual([added.body.Client?.Id]);
      // The same first name, last name and email again (any case): refused, nothing added.
      const again = await addClient({
        ...ana,
        FirstName: 'ANA-SOFÍA',
        Email: 'Ana.Sofia@example.es',
      });
      expect(again.status).toBe(400);
      expect(again.body.Error?.Code).toBe('DuplicateClient');
      expect(sandbox.control.clients()).toHaveLength(before + 1);
    });

    it('refuses a missing required field, a referral type the site does not have, a missing last name and a field the contract does not list', async () => {
      const before = sandbox.control.clients().length;
      const noEmail = await addClient({ FirstName: 'Zoë', LastName: 'Nguyễn' });
      expect(noEmail.status).toBe(400);
      expect(noEmail.body.Error).toEqual({
        Code: 'MissingRequiredFields',
        Message: 'Missing required fields: Email',
      });
      const badType = await addClient({ ...ana, Email: 'other@example.es', ReferredBy: 'Jenny' });
      expect(badType.body.Error?.Code).toBe('InvalidReferredBy');
      expect((await addClient({ FirstName: 'Zoë', Email: 'zoe@example.fr' })).status).toBe(400);
      expect(
        (await addClient({ ...ana, Email: 'third@example.es', AccountBalance: 10 })).status,
      ).toBe(400);
      expect(sandbox.control.clients()).toHaveLength(before);
    });
  });

  describe('purchases, payments and suspensions', () => {
    const purchases = async (query: string) => {
      const reply = await fetch(`${sandbox.url}/client/clientpurchases?${query}`, {
        headers: auth,
      });
      return {
        status: reply.status,
        body: (await reply.json()) as GetClientPurchasesResponse & {
          Error?: { Code: string };
        },
      };
    };
    const control = async (path: string, body?: unknown) => {
      const reply = await fetch(`${sandbox.controlUrl}${path}`, {
        method: 'POST',
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
    };
    const members = () =>
      sandbox.control.clients().filter((client) => sandbox.control.contracts(client.Id).length);
    const ALL_TIME = 'request.startDate=2000-01-01T00:00:00Z&request.endDate=2100-01-01T00:00:00Z';

    it('lists a client’s purchases in the period (default: today), oldest first, with paging', async () => {
      const paid = members().find((client) => sandbox.control.purchases(client.Id).length === 2);
      const unpaid = members().find((client) => sandbox.control.purchases(client.Id).length === 0);
      if (!paid || !unpaid) throw new Error('the seed has no such members');
      const all = await purchases(`request.clientId=${paid.Id}&${ALL_TIME}`);
      expect(all.status).toBe(200);
      expect(all.body.PaginationResponse).toMatchObject({ TotalResults: 2, PageSize: 2 });
      expect(all.body.Purchases).toEqual(sandbox.control.purchases(paid.Id));
      const [first, second] = all.body.Purchases;
      expect(Date.parse(first.Sale.SaleDateTime)).toBeLessThan(
        Date.parse(second.Sale.SaleDateTime),
      );
      const secondPage = await purchases(
        `request.clientId=${paid.Id}&${ALL_TIME}&request.limit=1&request.offset=1`,
      );
      expect(secondPage.body.Purchases).toEqual([second]);
      const before = await purchases(
        `request.clientId=${paid.Id}&request.startDate=2000-01-01T00:00:00Z&request.endDate=${first.Sale.SaleDateTime}`,
      );
      expect(before.body.Purchases).toEqual([first]);
      expect(
        (
          await purchases(
            `request.clientId=${paid.Id}&${ALL_TIME}&request.saleId=${second.Sale.Id}`,
          )
        ).body.Purchases,
      ).toEqual([second]);
      // Mindbody's default period is today: the seeded sales are older.
      expect((await purchases(`request.clientId=${paid.Id}`)).body.Purchases).toEqual([]);
      expect((await purchases(`request.clientId=${unpaid.Id}&${ALL_TIME}`)).body).toMatchObject({
        PaginationResponse: { TotalResults: 0 },
        Purchases: [],
      });
    });

    it('answers 400 without a client or with a bad date, 404 for an unknown client, 401 without a token', async () => {
      expect((await purchases(ALL_TIME)).body.Error?.Code).toBe('MissingRequiredFields');
      expect((await purchases(`request.clientId=nobody&${ALL_TIME}`)).status).toBe(404);
      const id = members()[0].Id;
      expect((await purchases(`request.clientId=${id}&request.startDate=soon`)).status).toBe(400);
      expect((await purchases(`request.clientId=${id}&request.limit=201`)).status).toBe(400);
      const reply = await fetch(`${sandbox.url}/client/clientpurchases?request.clientId=${id}`, {
        headers: base,
      });
      expect(reply.status).toBe(401);
    });

    it('records a payment (default: one charge of the running autopay) without touching the client; refuses a client with nothing to charge', async () => {
      const unpaid = members().find((client) => sandbox.control.purchases(client.Id).length === 0);
      if (!unpaid) throw new Error('the seed has no unpaid member');
      const modified = unpaid.LastModifiedDateTime;
      const [contract] = sandbox.control.contracts(unpaid.Id);
      const recorded = await control(`/clients/${unpaid.Id}/payments`);
      expect(recorded).toMatchObject({
        status: 201,
        body: {
          Description: `${contract.ContractName} (autopay)`,
          AmountPaid: contract.NormalAutoPay,
          Returned: false,
          Sale: { ClientId: unpaid.Id, Payments: [{ Amount: contract.NormalAutoPay }] },
        },
      });
      // Today's purchases (Mindbody's default period) now hold it.
      expect((await purchases(`request.clientId=${unpaid.Id}`)).body.Purchases).toEqual([
        recorded.body,
      ]);
      expect(sandbox.control.clients().find((client) => client.Id === unpaid.Id)).toMatchObject({
        LastModifiedDateTime: modified,
      });
      const dated = await control(`/clients/${unpaid.Id}/payments`, {
        Amount: 10,
        Description: 'Water bottle',
        SaleDateTime: '2026-03-01T10:00:00Z',
      });
      expect(dated.body).toMatchObject({ AmountPaid: 10, Description: 'Water bottle' });
      expect(sandbox.control.purchases(unpaid.Id).map((record) => record.Description)).toEqual([
        'Water bottle',
        `${contract.ContractName} (autopay)`,
      ]);

      const prospect = sandbox.control.clients().find((client) => client.IsProspect) as Client;
      expect((await control(`/clients/${prospect.Id}/payments`)).status).toBe(400);
      expect((await control(`/clients/${prospect.Id}/payments`, { Amount: -1 })).status).toBe(400);
      expect(
        (await control(`/clients/${prospect.Id}/payments`, { Amount: 5, SaleDateTime: 'x' }))
          .status,
      ).toBe(400);
      expect((await control(`/clients/nobody/payments`, { Amount: 5 })).status).toBe(404);
    });

    it('suspends and resumes a membership: autopay and Status Suspended (a changed client), autopay writes refused meanwhile', async () => {
      const member = members().find(
        (client) => sandbox.control.contracts(client.Id)[0].AutopayStatus === 'Active',
      ) as Client;
      const [contract] = sandbox.control.contracts(member.Id);
      const since = new Date().toISOString();
      expect(await control(`/clients/${member.Id}/suspend`)).toMatchObject({
        status: 200,
        body: { Id: contract.Id, AutopayStatus: 'Suspended' },
      });
      const changed = await getClients(
        `request.lastModifiedDate=${encodeURIComponent(since)}&request.limit=200`,
      );
      expect(changed.body.Clients.map((client) => [client.Id, client.Status])).toEqual([
        [member.Id, 'Suspended'],
      ]);
      const write = await fetch(`${sandbox.url}/client/updateclientcontractautopays`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          ClientContractId: contract.Id,
          AutopayStartDate: contract.UpcomingAutopayEvents[0].ScheduleDate,
          Amount: 1,
        }),
      });
      expect(write.status).toBe(400);
      expect(await write.json()).toMatchObject({
        Error: { Message: 'The contract has no active autopay' },
      });
      expect((await control(`/clients/${member.Id}/suspend`)).status).toBe(404);

      expect(await control(`/clients/${member.Id}/resume`)).toMatchObject({
        status: 200,
        body: { AutopayStatus: 'Active' },
      });
      expect(sandbox.control.clients().find((client) => client.Id === member.Id)?.Status).toBe(
        'Active',
      );
      expect((await control(`/clients/${member.Id}/resume`)).status).toBe(404);
      expect((await control(`/clients/nobody/suspend`)).status).toBe(404);
    });
  });

  describe('fault switches', () => {
    const page = (n: number) =>
      fetch(`${sandbox.url}/client/clients?request.limit=100&request.offset=${(n - 1) * 100}`, {
        headers: auth,
      });

    it('fails page 3 only with 500, for the next N calls', async () => {
      sandbox.control.addFault({ path: '/client/clients', page: 3, status: 500, times: 2 });
      expect((await page(1)).status).toBe(200);
      expect((await page(2)).status).toBe(200);
      const failed = await page(3);
      expect(failed.status).toBe(500);
      expect(await failed.json()).toMatchObject({ Error: { Code: 'InternalServerError' } });
      expect((await page(3)).status).toBe(500);
      expect((await page(3)).status).toBe(200);
      expect(sandbox.control.faults()).toEqual([]);
    });

    it('answers 429 with Retry-After, permanently until cleared, set over the control API', async () => {
      const added = await fetch(`${sandbox.controlUrl}/faults`, {
        method: 'POST',
        body: JSON.stringify({
          path: '/client/clients',
          offset: 200,
          status: 429,
          retryAfterSeconds: 2,
        }),
      });
      expect(added.status).toBe(201);
      for (let i = 0; i < 3; i++) {
        const reply = await page(3);
        expect(reply.status).toBe(429);
        expect(reply.headers.get('retry-after')).toBe('2');
      }
      expect((await page(4)).status).toBe(200);
      await fetch(`${sandbox.controlUrl}/faults`, { method: 'DELETE' });
      expect((await page(3)).status).toBe(200);
      expect(
        (
          await fetch(`${sandbox.controlUrl}/faults`, {
            method: 'POST',
            body: JSON.stringify({ path: '/x' }),
          })
        ).status,
      ).toBe(400);
    });

    it('drops the connection of page 3 only', async () => {
      sandbox.control.addFault({ path: '/client/clients', page: 3, drop: true, times: 1 });
      expect((await page(2)).status).toBe(200);
      await expect(page(3)).rejects.toThrow();
      expect((await page(3)).status).toBe(200);
    });

    it('adds latency', async () => {
      sandbox.control.addFault({ path: '/client/clientreferraltypes', latencyMs: 250, times: 1 });
      const started = performance.now();
      expect(
        (await fetch(`${sandbox.url}/client/clientreferraltypes`, { headers: auth })).status,
      ).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(240);
      expect(sandbox.control.faults()).toEqual([]);
    });

    it('takes fault switches at start (as MINDBODY_SANDBOX_FAULTS does)', async () => {
      const other = await startMindbodySandbox({
        clientCount: 10,
        faults: [{ path: '/usertoken/issue', status: 503 }],
      });
      try {
        const reply = await fetch(`${other.url}/usertoken/issue`, {
          method: 'POST',
          headers: base,
          body: JSON.stringify({ Username: staffUsername, Password: staffPassword }),
        });
        expect(reply.status).toBe(503);
      } finally {
        await other.close();
      }
    });
  });

  describe('control API over HTTP', () => {
    const control = async (path: string, method = 'GET', body?: unknown) => {
      const reply = await fetch(`${sandbox.controlUrl}${path}`, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
    };

    it('reseeds with a size, adds, changes and cancels clients, and reports the state', async () => {
      expect(await control('/reset', 'POST', { clientCount: 120 })).toEqual({
        status: 200,
        body: { clientCount: 120 },
      });
      expect((await control('/reset', 'POST', { clientCount: 50_001 })).status).toBe(400);
      const added = await control('/clients', 'POST', {
        FirstName: 'Http',
        LastName: 'Member',
        Email: 'http@example.com',
        NormalAutoPay: 99,
      });
      expect(added).toMatchObject({
        status: 201,
        body: { Id: '200121', UniqueId: 100_121, Status: 'Active', IsProspect: false },
      });
      expect((await control('/clients', 'POST', { FirstName: 'NoLastName' })).status).toBe(400);
      expect(await control('/clients/200121', 'PATCH', { ReferredBy: 'Instagram' })).toMatchObject({
        status: 200,
        body: { ReferredBy: 'Instagram' },
      });
      expect((await control('/clients/nobody', 'PATCH', { ReferredBy: 'x' })).status).toBe(404);
      expect(await control('/clients/200121/cancel-membership', 'POST')).toMatchObject({
        status: 200,
        body: { AutopayStatus: 'Inactive', UpcomingAutopayEvents: [] },
      });
      expect((await control('/clients/200121/cancel-membership', 'POST')).status).toBe(404);
      // The business gives the client a new barcode: its UniqueId stays, its contract follows.
      expect(await control('/clients/200121/renumber', 'POST', { NewId: 'GYM-7' })).toMatchObject({
        status: 200,
        body: { Id: 'GYM-7', UniqueId: 100_121 },
      });
      expect(sandbox.control.contracts('GYM-7')).toHaveLength(1);
      expect(sandbox.control.contracts('200121')).toHaveLength(0);
      expect((await control('/clients/GYM-7/renumber', 'POST', { NewId: '200001' })).status).toBe(
        400,
      );
      expect(sandbox.control.clients().at(-1)).toMatchObject({
        Id: 'GYM-7',
        Status: 'Terminated',
      });
      expect(await control('/state')).toMatchObject({
        status: 200,
        body: { clientCount: 121, faults: [] },
      });
      expect((await control('/nowhere')).status).toBe(404);
      sandbox.control.reset({ clientCount: 450 });
    });
  });

  describe('webhooks', () => {
    let receiver: Server;
    let receiverUrl: string;
    const received: { body: string; signature: string | undefined }[] = [];
    let failNext = 0;
    let heads = 0;
    let headStatus = 204;

    beforeAll(async () => {
      receiver = createServer((request: IncomingMessage, response) => {
        if (request.method === 'HEAD') {
          // Mindbody's validation of the webhookUrl before it activates a subscription.
          heads += 1;
          response.writeHead(headStatus).end();
          return;
        }
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          if (failNext > 0) {
            failNext -= 1;
            response.writeHead(500).end();
            return;
          }
          received.push({
            body: Buffer.concat(chunks).toString('utf8'),
            signature: request.headers['x-mindbody-signature'] as string | undefined,
          });
          response.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/mindbody`;
    });
    afterAll(() => new Promise((resolve) => receiver.close(resolve)));

    const api = (
      path: string,
      method: string,
      body?: unknown,
      headers: Record<string, string> = { 'API-Key': apiKey, 'Content-Type': 'application/json' },
    ) =>
      fetch(`${sandbox.webhooksUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    /** The `value` of a Webhooks API reply's `{isSuccess, value, errorInformation}` envelope. */
    const value = async <T>(reply: Response | Promise<Response>): Promise<T> => {
      const body = (await (await reply).json()) as { isSuccess: boolean; value: T };
      expect(body.isSuccess).toBe(true);
      return body.value;
    };

    it('creates, activates and deletes a subscription; delivers signed events only while active', async () => {
      const unauthorized = await api('/subscriptions', 'GET', undefined, {});
      expect(unauthorized.status).toBe(401);
      expect(await unauthorized.json()).toMatchObject({
        isSuccess: false,
        errorInformation: [{ errorType: 'missingAPIKeyHeader' }],
      });
      const unknownEvent = await api('/subscriptions', 'POST', {
        webhookUrl: receiverUrl,
        eventIds: ['nope'],
        eventSchemaVersion: 1,
        referenceId: 'x',
      });
      expect(unknownEvent.status).toBe(400);
      expect(await unknownEvent.json()).toMatchObject({ isSuccess: false });
      // CreateSubscriptionRequest names no site.
      expect(
        (
          await api('/subscriptions', 'POST', {
            webhookUrl: receiverUrl,
            eventIds: ['client.created'],
            eventSchemaVersion: 1,
            siteId: -99,
          })
        ).status,
      ).toBe(400);
      expect((await api('/push/api/v1/subscriptions', 'GET')).status).toBe(404);

      const created = await api('/subscriptions', 'POST', {
        webhookUrl: receiverUrl,
        eventIds: ['client.created', 'client.updated', 'clientMembershipAssignment.cancelled'],
        eventSchemaVersion: 1,
        referenceId: 'business-1',
      });
      expect(created.status).toBe(200);
      const subscription = await value<WebhookSubscription & { messageSignatureKey: string }>(
        created,
      );
      expect(subscription).toMatchObject({
        status: 'PendingActivation',
        referenceId: 'business-1',
        webhookUrl: receiverUrl,
        eventSchemaVersion: 1,
      });
      expect(subscription.messageSignatureKey.length).toBeGreaterThan(20);
      // Only creation returns the key.
      const listed = await value<{ items: WebhookSubscription[] }>(api('/subscriptions', 'GET'));
      expect(listed.items.map((item) => item.messageSignatureKey)).toEqual(
        listed.items.map(() => undefined),
      );

      sandbox.control.addClient({ FirstName: 'Before', LastName: 'Activation' });
      await sandbox.control.flushWebhooks();
      expect(received).toHaveLength(0);

      // A webhookUrl that fails the HEAD check is not activated.
      headStatus = 404;
      const refused = await api(`/subscriptions/${subscription.subscriptionId}`, 'PATCH', {
        status: 'Active',
      });
      expect(refused.status).toBe(400);
      expect(
        (
          await value<WebhookSubscription>(
            api(`/subscriptions/${subscription.subscriptionId}`, 'GET'),
          )
        ).status,
      ).toBe('PendingActivation');
      headStatus = 204;
      const headsBefore = heads;
      const activated = await api(`/subscriptions/${subscription.subscriptionId}`, 'PATCH', {
        status: 'Active',
      });
      expect((await value<WebhookSubscription>(activated)).status).toBe('Active');
      expect(heads).toBe(headsBefore + 1);

      const added = sandbox.control.addClient({
        FirstName: 'Webhook',
        LastName: 'Person',
        Email: 'webhook@example.com',
        NormalAutoPay: 79,
      });
      sandbox.control.updateClient(added.Id, { Email: 'new@example.com' });
      sandbox.control.cancelMembership(added.Id);
      await sandbox.control.flushWebhooks();

      expect(received).toHaveLength(3);
      const deliveries = received.map(({ body, signature }) => {
        expect(verifyWebhookSignature(body, signature, subscription.messageSignatureKey)).toBe(
          true,
        );
        expect(verifyWebhookSignature(body, signature, 'another-key')).toBe(false);
        return JSON.parse(body) as WebhookDelivery;
      });
      expect(deliveries.map((delivery) => delivery.eventId)).toEqual([
        'client.created',
        'client.updated',
        'clientMembershipAssignment.cancelled',
      ]);
      expect(new Set(deliveries.map((delivery) => delivery.messageId)).size).toBe(3);
      expect(deliveries[0]).toMatchObject({
        eventSchemaVersion: 1,
        eventData: {
          siteId: -99,
          clientId: added.Id,
          firstName: 'Webhook',
          email: 'webhook@example.com',
          isProspect: false,
        },
      });
      expect(deliveries[1].eventData).toMatchObject({
        clientId: added.Id,
        email: 'new@example.com',
        previousEmail: 'webhook@example.com',
      });
      expect(deliveries[2].eventData).toMatchObject({
        clientId: added.Id,
        membershipName: 'Monthly Unlimited',
      });

      const deleted = await api(`/subscriptions/${subscription.subscriptionId}`, 'DELETE');
      expect(await value(deleted)).toMatchObject({
        subscriptionId: subscription.subscriptionId,
        referenceId: 'business-1',
      });
      sandbox.control.addClient({ FirstName: 'After', LastName: 'Delete' });
      await sandbox.control.flushWebhooks();
      expect(received).toHaveLength(3);
      expect(
        (await api(`/subscriptions/${subscription.subscriptionId}`, 'PATCH', { status: 'Active' }))
          .status,
      ).toBe(404);
    });

    it('delivers clientSale.created for a payment and clientContract.updated for a suspension and a resumption', async () => {
      received.length = 0;
      const created = await api('/subscriptions', 'POST', {
        webhookUrl: receiverUrl,
        eventIds: ['clientSale.created', 'clientContract.updated'],
        eventSchemaVersion: 1,
        referenceId: 'payments',
      });
      const { subscriptionId } = await value<WebhookSubscription>(created);
      await api(`/subscriptions/${subscriptionId}`, 'PATCH', { status: 'Active' });
      const added = sandbox.control.addClient({
        FirstName: 'Paying',
        LastName: 'Member',
        NormalAutoPay: 59,
      });
      const [contract] = sandbox.control.contracts(added.Id);
      const sale = sandbox.control.recordPayment(added.Id);
      sandbox.control.suspendMembership(added.Id);
      sandbox.control.resumeMembership(added.Id);
      await sandbox.control.flushWebhooks();

      // Deliveries run concurrently (Mindbody promises no order either): compared by event.
      const deliveries = received
        .map(({ body }) => JSON.parse(body) as WebhookDelivery)
        .sort((a, b) => b.eventId.localeCompare(a.eventId));
      expect(deliveries.map((delivery) => delivery.eventId)).toEqual([
        'clientSale.created',
        'clientContract.updated',
        'clientContract.updated',
      ]);
      if ('status' in sale) throw new Error('the payment was refused');
      expect(deliveries[0].eventData).toMatchObject({
        siteId: -99,
        saleId: sale.Sale.Id,
        purchasingClientId: added.Id,
        saleDateTime: sale.Sale.SaleDateTime,
        totalAmountPaid: 59,
        payments: [{ paymentAmountPaid: 59 }],
        items: [{ type: 'Contract', name: 'Monthly Unlimited (autopay)', amountPaid: 59 }],
      });
      expect(deliveries[1].eventData).toMatchObject({
        siteId: -99,
        clientId: added.Id,
        clientContractId: contract.Id,
        contractName: contract.ContractName,
      });
      await api(`/subscriptions/${subscriptionId}`, 'DELETE');
    });

    it('delivers client.deactivated, clientContract.cancelled and clientProfileMerger.created (the merged-away profile is gone, its contract moved)', async () => {
      received.length = 0;
      const created = await api('/subscriptions', 'POST', {
        webhookUrl: receiverUrl,
        eventIds: ['client.deactivated', 'clientContract.cancelled', 'clientProfileMerger.created'],
        eventSchemaVersion: 1,
        referenceId: 'lifecycle',
      });
      const { subscriptionId } = await value<WebhookSubscription>(created);
      await api(`/subscriptions/${subscriptionId}`, 'PATCH', { status: 'Active' });
      const leaving = sandbox.control.addClient({ FirstName: 'Lea', LastName: 'Ving' });
      const ending = sandbox.control.addClient({
        FirstName: 'End',
        LastName: 'Ing',
        NormalAutoPay: 70,
      });
      const kept = sandbox.control.addClient({ FirstName: 'Kay', LastName: 'Kept' });
      const twin = sandbox.control.addClient({
        FirstName: 'Kay',
        LastName: 'Twin',
        NormalAutoPay: 55,
      });
      sandbox.control.updateClient(leaving.Id, { Active: false });
      sandbox.control.cancelMembership(ending.Id);
      expect(sandbox.control.mergeClients(kept.Id, twin.Id)).toMatchObject({ Id: kept.Id });
      await sandbox.control.flushWebhooks();

      const deliveries = received.map(({ body }) => JSON.parse(body) as WebhookDelivery);
      expect(deliveries.map((delivery) => delivery.eventId).sort()).toEqual([
        'client.deactivated',
        'clientContract.cancelled',
        'clientProfileMerger.created',
      ]);
      expect(
        deliveries.find((d) => d.eventId === 'clientProfileMerger.created')?.eventData,
      ).toEqual({
        siteId: -99,
        keptClientId: kept.Id,
        keptClientUniqueId: kept.UniqueId,
        removedClientId: twin.Id,
        removedClientUniqueId: twin.UniqueId,
      });
      expect(sandbox.control.clients().some((client) => client.Id === twin.Id)).toBe(false);
      expect(sandbox.control.contracts(kept.Id).map((contract) => contract.NormalAutoPay)).toEqual([
        55,
      ]);
      await api(`/subscriptions/${subscriptionId}`, 'DELETE');
    });

    it('retries a delivery the receiver failed', async () => {
      received.length = 0;
      const created = await api('/subscriptions', 'POST', {
        webhookUrl: receiverUrl,
        eventIds: ['client.created'],
        eventSchemaVersion: 1,
        referenceId: 'retry',
      });
      const { subscriptionId } = await value<WebhookSubscription>(created);
      await api(`/subscriptions/${subscriptionId}`, 'PATCH', { status: 'Active' });
      failNext = 1;
      const added = sandbox.control.addClient({ FirstName: 'Retry', LastName: 'Me' });
      await sandbox.control.flushWebhooks();
      expect(received).toHaveLength(1);
      const record = sandbox.control
        .deliveries()
        .find((delivery) => delivery.subscriptionId === subscriptionId);
      expect(record).toMatchObject({ state: 'delivered', attempts: 2 });
      expect(JSON.parse(received[0].body)).toMatchObject({ eventData: { clientId: added.Id } });
      await api(`/subscriptions/${subscriptionId}`, 'DELETE');
    });
  });
});
