import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../../../platform/config/app-config';
// The contract test drives the Mindbody stand-in in-process (as apps/api/test/mindbody-sandbox.ts
// does for the integration tests); the API code itself never imports it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import {
  startMindbodySandbox,
  type RunningSandbox,
} from '../../../../../../mindbody-sandbox/src/index';
import { MindbodyRunClient, MindbodySiteClient } from './mindbody-site-client';
import { MetricsService } from '../../../platform/metrics/metrics.service';

/** The public methods of a class (a case below is required for each, by the compiler too). */
type MethodsOf<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never;
}[keyof T];
/** A class's public methods as they are on its prototype at run time (jest runs without the type check). */
const methodsOf = (prototype: object, privates: string[] = []): string[] =>
  Object.getOwnPropertyNames(prototype)
    .filter((name) => name !== 'constructor' && !privates.includes(name))
    .sort();

/**
 * Every request the API's Mindbody client (`MindbodySiteClient` and the run's `MindbodyRunClient`)
 * can make, sent to the sandbox that validates each against Grove's Mindbody contract
 * (apps/mindbody-sandbox/src/contract/mindbody-contract.openapi.json): none may be refused, and
 * every reply must be the contract's.
 */
describe("the API's Mindbody client against Grove's Mindbody contract (validating sandbox)", () => {
  let sandbox: RunningSandbox;
  let receiver: Server;
  let webhookUrl: string;

  beforeAll(async () => {
    sandbox = await startMindbodySandbox({ port: 0, clientCount: 40, checkReplies: true });
    receiver = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/mindbody/webhooks`;
  });
  afterAll(async () => {
    await sandbox.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('sends one request of every kind it can make without a validation 4xx, and reads replies the contract allows', async () => {
    const config = {
      mindbody: {
        apiUrl: sandbox.url,
        apiKey: sandbox.options.apiKey,
        webhooksUrl: sandbox.webhooksUrl,
      },
    } as unknown as AppConfig;
    const site = new MindbodySiteClient(config, new MetricsService());
    const siteId = sandbox.options.siteId;
    const { token } = await site.issueStaffToken(
      siteId,
      sandbox.options.staffUsername,
      sandbox.options.staffPassword,
    );
    const run = site.forSite({ siteId, staffToken: token });
    const member = sandbox.control
      .clients()
      .find(
        (client) =>
          client.Status === 'Active' &&
          new Set(
            sandbox.control.contracts(client.Id)[0]?.UpcomingAutopayEvents.map((e) => e.ProductId),
          ).size > 1,
      );
    if (!member) throw new Error('the seed has no member with a multi-item contract');
    let subscriptionId = '';

    const siteCases: Record<MethodsOf<MindbodySiteClient>, () => Promise<unknown>> = {
      issueStaffToken: () =>
        site.issueStaffToken(siteId, sandbox.options.staffUsername, sandbox.options.staffPassword),
      siteActivation: async () => {
        expect((await site.siteActivation(siteId)).activated).toBe(true);
        expect((await site.siteActivation('-98')).activated).toBe(false);
      },
      forSite: async () =>
        expect(site.forSite({ siteId, staffToken: token })).toBeInstanceOf(MindbodyRunClient),
      subscribe: async () => {
        subscriptionId = (await site.subscribe(webhookUrl, 'grove')).subscriptionId;
      },
      subscriptionStatus: async () =>
        expect(await site.subscriptionStatus(subscriptionId)).toBe('Active'),
      reactivate: async () => expect(await site.reactivate(subscriptionId)).toBe('Active'),
      unsubscribe: () => site.unsubscribe(subscriptionId),
    };
    const runCases: Record<MethodsOf<MindbodyRunClient>, () => Promise<unknown>> = {
      clientsPage: async () => {
        const page = await run.clientsPage({ offset: 0, limit: 200, modifiedSince: new Date(0) });
        // Inactive profiles are read too.
        expect(page.total).toBe(sandbox.control.clients().length);
      },
      contracts: () => run.contracts(member.Id),
      autopayContracts: () => run.autopayContracts(member.Id),
      firstPayment: () => run.firstPayment(member.Id, new Date()),
      countVisits: async () => {
        // Five classes attended, one late-cancelled, one missed: 5 visits.
        for (let day = 1; day <= 7; day++)
          sandbox.control.recordVisit(member.Id, {
            StartDateTime: `2026-03-0${day}T07:00:00Z`,
            ...(day === 2 ? { SignedIn: false, LateCancelled: true } : {}),
            ...(day === 4 ? { SignedIn: false, Missed: true } : {}),
          });
        const now = new Date();
        expect(await run.countVisits(member.Id, { since: null, until: now, askUntil: now })).toBe(
          5,
        );
        // Up to a time: the classes of 1 and 3 March; the 3rd's class at 07:00 is asked but left
        // to the next window when it starts at `until`.
        const third = new Date('2026-03-03T07:00:00Z');
        expect(await run.countVisits(member.Id, { since: null, until: third, askUntil: now })).toBe(
          1,
        );
        // The next window counts from where the last stopped: each visit once (1 + 4 = 5).
        expect(await run.countVisits(member.Id, { since: third, until: now, askUntil: now })).toBe(
          4,
        );
      },
      updateAutopayAmount: async () => {
        const [contract] = await run.autopayContracts(member.Id);
        expect(contract.productId).not.toBeNull();
        expect(await run.updateAutopayAmount(contract, 4_000)).toBe(true);
      },
      clientsByEmail: async () => {
        const [known] = await run.clientsByEmail(member.Email?.toUpperCase() ?? '');
        expect(known?.id).toBe(member.Id);
      },
      requiredClientFields: async () => expect(await run.requiredClientFields()).toEqual(['Email']),
      referralTypes: async () => expect(await run.referralTypes()).toContain('Friend'),
      addClient: async () => {
        const added = await run.addClient({
          FirstName: 'Siobhán',
          LastName: "O'Brien",
          Email: 'siobhan.obrien@example.com',
          ReferredBy: 'Friend',
        });
        expect(added).toMatchObject({ firstName: 'Siobhán', referredBy: 'Friend' });
      },
      useStaffToken: async () => run.useStaffToken(token),
    };
    for (const work of [...Object.values(siteCases), ...Object.values(runCases)]) await work();

    expect(sandbox.control.contractViolations()).toEqual([]);
    expect(sandbox.control.replyViolations()).toEqual([]);
    expect(Object.keys(sandbox.control.operationCounts()).sort()).toEqual(
      [
        'createSubscription',
        'deleteSubscription',
        'getActivationCode',
        'addClient',
        'getClientReferralTypes',
        'getClientVisits',
        'getRequiredClientFields',
        'getClientContracts',
        'getClientPurchases',
        'getClients',
        'getSites',
        'getSubscription',
        // subscribe looks up the subscriptions of Grove's URL before making one
        'getSubscriptions',
        'issueToken',
        'patchSubscription',
        'updateClientContractAutopays',
      ].sort(),
    );
    expect(methodsOf(MindbodySiteClient.prototype, ['client'])).toEqual(
      Object.keys(siteCases).sort(),
    );
    expect(methodsOf(MindbodyRunClient.prototype)).toEqual(Object.keys(runCases).sort());
  });
});
