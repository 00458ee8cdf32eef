import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { MindbodyClient } from './mindbody-client';
import {
  MINDBODY_OPERATIONS,
  mindbodyOperationPath,
  type MindbodyOperation,
} from './mindbody-operations';
import type { Client, CreatedSubscription } from './mindbody-types';

/**
 * The part of apps/mindbody-sandbox's `startMindbodySandbox` this test uses (loaded by path at run
 * time: a library may not import an app, and the sandbox depends on this library).
 */
interface Sandbox {
  url: string;
  webhooksUrl: string;
  options: { apiKey: string; siteId: string; staffUsername: string; staffPassword: string };
  control: {
    clients(): readonly Client[];
    contractViolations(): unknown[];
    replyViolations(): unknown[];
    operationCounts(): Record<string, number>;
  };
  close(): Promise<void>;
}
type SandboxModule = {
  startMindbodySandbox(options: {
    port: number;
    clientCount: number;
    checkReplies: boolean;
  }): Promise<Sandbox>;
};
const SANDBOX_DIR = join(__dirname, '../../../../../apps/mindbody-sandbox/src');

/** The contract's operations: `METHOD path` → operationId. */
function contractOperations(): Map<string, string> {
  const document = JSON.parse(
    readFileSync(join(SANDBOX_DIR, 'contract/mindbody-contract.openapi.json'), 'utf8'),
  ) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const operations = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(item))
      if (operation.operationId)
        operations.set(`${method.toUpperCase()} ${path}`, operation.operationId);
  return operations;
}

/** The operations of `operations` the contract does not list under the same operationId. */
function unlisted(operations: Record<string, MindbodyOperation>): string[] {
  const contract = contractOperations();
  return Object.entries(operations)
    .filter(
      ([id, operation]) =>
        contract.get(`${operation.method} ${mindbodyOperationPath(operation)}`) !== id,
    )
    .map(([id, operation]) => `${id}: ${operation.method} ${mindbodyOperationPath(operation)}`);
}

/** The public methods of MindbodyClient (a case below is required for each, by the compiler too). */
type ClientMethod = {
  [K in keyof MindbodyClient]: MindbodyClient[K] extends (...args: never[]) => unknown ? K : never;
}[keyof MindbodyClient];
/** MindbodyClient's private helpers (on its prototype at run time, but not operations). */
const PRIVATE_METHODS = ['pagedGet', 'request', 'attempt', 'retryAfterMs', 'url'];

describe("MindbodyClient sends only what Grove's Mindbody contract lists", () => {
  it('every operation the client can send is in the contract, with the same method, path and official operationId', () => {
    expect(unlisted(MINDBODY_OPERATIONS)).toEqual([]);
    // The check finds an operation the contract does not list (it is not vacuous).
    expect(
      unlisted({
        ...MINDBODY_OPERATIONS,
        getClientSchedule: { api: 'public', method: 'GET', path: '/client/clientschedule' },
      }),
    ).toEqual(['getClientSchedule: GET /public/v6/client/clientschedule']);
  });

  describe('against the validating sandbox', () => {
    let sandbox: Sandbox;
    let receiver: Server;
    let webhookUrl: string;

    beforeAll(async () => {
      const { startMindbodySandbox } = (await import(
        join(SANDBOX_DIR, 'index.ts')
      )) as SandboxModule;
      sandbox = await startMindbodySandbox({ port: 0, clientCount: 60, checkReplies: true });
      receiver = createServer((_request, response) => response.writeHead(204).end());
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    });
    afterAll(async () => {
      await sandbox?.close();
      await new Promise((resolve) => receiver.close(resolve));
    });

    it('sends one request of every kind (Public API and webhook subscriptions) without a single validation 4xx', async () => {
      const mindbody = new MindbodyClient({
        baseUrl: sandbox.url,
        webhooksBaseUrl: sandbox.webhooksUrl,
        apiKey: sandbox.options.apiKey,
        siteId: sandbox.options.siteId,
        retries: 0,
      });
      let member: Client | undefined;
      let subscription: CreatedSubscription | undefined;
      // One case per public method, run in this order; a new method without a case fails here.
      const cases: Record<ClientMethod, () => Promise<unknown>> = {
        getStaffToken: async () => expect(mindbody.getStaffToken()).toBeNull(),
        issueStaffToken: () =>
          mindbody.issueStaffToken(sandbox.options.staffUsername, sandbox.options.staffPassword),
        setStaffToken: async () => mindbody.setStaffToken(mindbody.getStaffToken()),
        getSites: () => mindbody.getSites([Number(sandbox.options.siteId)]),
        getActivationCode: () => mindbody.getActivationCode(),
        getClients: async () => {
          const page = await mindbody.getClients({
            limit: 20,
            offset: 0,
            lastModifiedDate: new Date('2000-01-01T00:00:00Z'),
            includeInactive: true,
          });
          member = page.Clients.find((client) => !client.IsProspect && client.Status === 'Active');
          await mindbody.getClients({
            clientIDs: page.Clients.slice(0, 20).map((client) => client.Id),
          });
          await mindbody.getClients({ uniqueIds: [page.Clients[0].UniqueId] });
          await mindbody.getClients({ searchText: page.Clients[0].LastName });
        },
        allClients: async () => {
          let count = 0;
          for await (const _client of mindbody.allClients({ pageSize: 25, includeInactive: true }))
            count += 1;
          expect(count).toBe(sandbox.control.clients().length);
        },
        getClientContracts: () =>
          mindbody.getClientContracts((member as Client).Id, {
            uniqueClientId: (member as Client).UniqueId,
          }),
        getClientPurchases: () =>
          mindbody.getClientPurchases((member as Client).Id, {
            startDate: '2000-01-01',
            endDate: new Date(),
            saleId: 1,
          }),
        getClientVisits: () =>
          mindbody.getClientVisits((member as Client).Id, {
            startDate: '2000-01-01',
            endDate: new Date(),
            limit: 50,
          }),
        updateClientContractAutopays: async () => {
          const [contract] = (await mindbody.getClientContracts((member as Client).Id)).Contracts;
          await mindbody.updateClientContractAutopays({
            ClientContractId: contract.Id,
            AutopayStartDate: contract.UpcomingAutopayEvents[0].ScheduleDate,
            ProductId: contract.UpcomingAutopayEvents[0].ProductId,
            Amount: contract.NormalAutoPay,
          });
        },
        getClientReferralTypes: () => mindbody.getClientReferralTypes(),
        getRequiredClientFields: () => mindbody.getRequiredClientFields(),
        addClient: async () => {
          const { ReferralTypes } = await mindbody.getClientReferralTypes();
          const added = await mindbody.addClient({
            FirstName: 'Siobhán',
            LastName: "O'Brien-Nguyễn",
            Email: 'siobhan.obrien@example.ie',
            MobilePhone: '+353 87 123 4567',
            ReferredBy: ReferralTypes[0],
          });
          expect(added.Client).toMatchObject({ FirstName: 'Siobhán', IsProspect: false });
        },
        createSubscription: async () => {
          subscription = await mindbody.createSubscription({
            eventIds: ['client.created', 'client.updated'],
            eventSchemaVersion: 1,
            referenceId: 'grove',
            webhookUrl,
          });
        },
        activateSubscription: () =>
          mindbody.activateSubscription((subscription as CreatedSubscription).subscriptionId),
        getSubscription: () =>
          mindbody.getSubscription((subscription as CreatedSubscription).subscriptionId),
        getSubscriptions: () => mindbody.getSubscriptions(),
        deleteSubscription: () =>
          mindbody.deleteSubscription((subscription as CreatedSubscription).subscriptionId),
      };
      for (const run of Object.values(cases)) await run();

      expect(sandbox.control.contractViolations()).toEqual([]);
      expect(sandbox.control.replyViolations()).toEqual([]);
      // Every operation the client can send was sent, and nothing else.
      expect(Object.keys(sandbox.control.operationCounts()).sort()).toEqual(
        Object.keys(MINDBODY_OPERATIONS).sort(),
      );
      // Every public method has its case (jest runs without the type check).
      const methods = Object.getOwnPropertyNames(MindbodyClient.prototype).filter(
        (name) => name !== 'constructor' && !PRIVATE_METHODS.includes(name),
      );
      expect(methods.sort()).toEqual(Object.keys(cases).sort());
    });
  });
});
