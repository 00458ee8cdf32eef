// Helpers of the Mindbody integration tests: an in-process Mindbody sandbox and what an import of it should give.
import { randomBytes } from 'node:crypto';
import type TestAgent from 'supertest/lib/agent';
import {
  emailKey,
  type MemberRow,
  type MindbodyBillChanges,
  type MindbodyStatus,
  type Page,
} from '@grove/contracts';
import type request from 'supertest';
import { signWebhookBody, type Client } from '@grove/api-mindbody';
import { createTestApp, type TestApp } from './test-app';
import { freePort } from './local-daemon';
import { waitFor } from './stub-servers';
// The API's tests drive the Mindbody stand-in in-process, as docs/architecture.md#mindbody intends; the API code
// itself never imports it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startMindbodySandbox, type RunningSandbox } from '../../mindbody-sandbox/src/index';

export { startMindbodySandbox, type RunningSandbox };

/** One AES key for every API instance of a test file (instances on one database must agree). */
export const TEST_CREDENTIALS_KEY = randomBytes(32).toString('base64');

/** Configuration pointing an API at `sandbox`. */
export function sandboxEnv(sandbox: RunningSandbox): Record<string, string> {
  return {
    MINDBODY_API_URL: sandbox.url,
    MINDBODY_WEBHOOKS_URL: sandbox.webhooksUrl,
    MINDBODY_API_KEY: sandbox.options.apiKey,
    MINDBODY_CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
    // Grove's referral loop (`referThroughGrove`) joins through the public join endpoint many
    // times a minute from one address; the join throttle has its own tests.
    THROTTLE_REFERRAL_LIMIT: '1000',
  };
}

/**
 * The sandbox's staff login, as the wizard's stage 1 form sends it. The sandbox takes the same
 * staff login at every one of its sites (`startMindbodySandbox({ sites })` adds sites).
 * @param siteId the site to log in to: the sandbox's main site unless given. A Mindbody site
 *   belongs to one business (issue 31), and a test file's businesses share one database, so a
 *   further business of a file that connects Mindbody logs in to a site of its own (or the first
 *   business releases its site first: `DELETE /api/mindbody`).
 */
export function sandboxLogin(
  sandbox: RunningSandbox,
  siteId = sandbox.options.siteId,
): {
  username: string;
  password: string;
  siteId: string;
} {
  return {
    username: sandbox.options.staffUsername,
    password: sandbox.options.staffPassword,
    siteId,
  };
}

/** `GET /api/mindbody`. */
export async function mindbodyStatus(agent: TestAgent): Promise<MindbodyStatus> {
  return (await agent.get('/api/mindbody').expect(200)).body as MindbodyStatus;
}

/**
 * 'Sync with mindbody' as the wizard does it (issue 25): reads the preview, then starts the sync
 * confirming its fingerprint. When the bills changed in between (409: a job of the business, such
 * as a friend's contract read, was still writing) it previews again, as the wizard does, up to 5
 * times. Expects 202.
 * @returns the preview that was confirmed
 */
export async function confirmedSync(agent: TestAgent): Promise<MindbodyBillChanges> {
  for (let attempt = 1; ; attempt++) {
    const preview = (await agent.get('/api/mindbody/sync/preview').expect(200))
      .body as MindbodyBillChanges;
    const started = await agent.post('/api/mindbody/sync').send({ confirm: preview.fingerprint });
    if (started.status === 202) return preview;
    if (started.status !== 409 || attempt === 5)
      throw new Error(`sync not started: ${started.status} ${JSON.stringify(started.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Takes `agent`'s business through the wizard against `sandbox`: credentials (stage 2), a full
 * import (stage 3), then discounts (default 5 and 2 dollars: stage 4, webhooks subscribed), and
 * waits for the import's prices.
 * @param siteId the sandbox's site to connect (its default site unless given; a site belongs to
 *   one business, so a second business of a test connects a site of its own)
 */
export async function reachStageFour(
  agent: TestAgent,
  sandbox: RunningSandbox,
  discounts = { discountOnReferralCents: 500, discountForRefereeCents: 200 },
  siteId = sandbox.options.siteId,
): Promise<void> {
  await agent.post('/api/mindbody/credentials').send(sandboxLogin(sandbox, siteId)).expect(200);
  await agent.post('/api/mindbody/import').expect(202);
  const status = await settled(agent);
  if (!status.processState?.startsWith('completed'))
    throw new Error(`import ended ${JSON.stringify(status)}`);
  await agent.put('/api/mindbody/discounts').send(discounts).expect(200);
  await pricesSettled(agent);
}

/**
 * Waits until the import's follow-up 'prices' job has priced every member (no row of the
 * members list shows 'Pricing…' any more), so nothing changes the business's rows afterwards.
 * @throws Error when members are still pending after `timeoutMs`
 */
export async function pricesSettled(agent: TestAgent, timeoutMs = 90_000): Promise<void> {
  const pendingOnPage = async (page: number): Promise<number> => {
    const body = (await agent.get(`/api/members?page=${page}&pageSize=100`).expect(200))
      .body as Page<MemberRow>;
    const pending = body.items.filter((row) => row.membershipPricePending).length;
    return page * 100 >= body.total ? pending : pending + (await pendingOnPage(page + 1));
  };
  await waitFor(async () => (await pendingOnPage(1)) === 0, timeoutMs);
}

/** Polls `GET /api/mindbody` (as the wizard does, only faster) until the process is no longer 'running'. */
export async function settled(agent: TestAgent, timeoutMs = 90_000): Promise<MindbodyStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await mindbodyStatus(agent);
    if (status.processState !== 'running') return status;
    if (Date.now() > deadline)
      throw new Error(`still running after ${timeoutMs} ms: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * What an import of the sandbox's clients should produce, computed from the sandbox's own data:
 * every client that is not a prospect, as a member (inactive profiles too: Grove reads them with
 * `request.includeInactive=true`). `ReferredBy` links nobody, so an import makes no branch and
 * queues no prospect.
 */
export function expectedImport(clients: readonly Client[]): {
  members: Client[];
  memberKeys: Set<string>;
} {
  const members = clients.filter((client) => !client.IsProspect);
  return {
    members,
    memberKeys: new Set(members.map((client) => emailKey(client.Email ?? ''))),
  };
}

/** Whether Grove takes a client's membership as ended: Status Expired or Terminated, or an inactive profile. */
export const membershipEnded = (client: Client): boolean =>
  ['Expired', 'Terminated'].includes(client.Status) || !client.Active;

/**
 * A client's membership price as Grove reads it, cents: its running contract's membership item
 * (the largest `Subtotal` of the next upcoming autopay; docs/decisions/mindbody-contract.md), or
 * null without a running autopay contract.
 */
export function membershipPriceCents(sandbox: RunningSandbox, client: Client): number | null {
  const contract = sandbox.control
    .contracts(client.Id)
    .find((item) => item.AutopayStatus === 'Active');
  if (!contract) return null;
  const events = contract.UpcomingAutopayEvents;
  if (events.length === 0) return Math.round(contract.NormalAutoPay * 100);
  const next = Math.min(...events.map((event) => Date.parse(event.ScheduleDate)));
  const item = Math.max(
    ...events.filter((event) => Date.parse(event.ScheduleDate) === next).map((e) => e.Subtotal),
  );
  return Math.round(item * 100);
}

/** Sandbox request count of a Mindbody path (e.g. '/client/clients'), any method prefix. */
export function requests(sandbox: RunningSandbox, path: string): number {
  return Object.entries(sandbox.control.requestCounts())
    .filter(([key]) => key.endsWith(path.toLowerCase()))
    .reduce((sum, [, count]) => sum + count, 0);
}

/**
 * A sandbox of `clientCount` clients (webhooks retried after 50 ms) and a test API configured for
 * it, listening on a real port so the sandbox can deliver webhooks to the subscription URL (the
 * request origin). Close both when done (`closeSandboxApp`).
 */
export async function startSandboxApp(
  clientCount: number,
): Promise<{ sandbox: RunningSandbox; t: TestApp }> {
  const sandbox = await startMindbodySandbox({ port: 0, clientCount, webhookRetryDelayMs: 50 });
  const t = await createListeningApp(sandboxEnv(sandbox));
  return { sandbox, t };
}

/**
 * A test app listening on a real port of 127.0.0.1, with PUBLIC_ORIGIN that address: the
 * sandbox delivers webhooks to the subscription URL Grove builds on PUBLIC_ORIGIN.
 * @param env configuration over `TEST_APP_ENV`
 */
export async function createListeningApp(env: Record<string, string>): Promise<TestApp> {
  const port = await freePort();
  const t = await createTestApp({ ...env, PUBLIC_ORIGIN: `http://127.0.0.1:${port}` });
  await t.app.listen(port, '127.0.0.1');
  return t;
}

/** Closes what `startSandboxApp` started: the API, then the sandbox. */
export async function closeSandboxApp(running: {
  sandbox: RunningSandbox;
  t: TestApp;
}): Promise<void> {
  await running.t.close();
  await running.sandbox.close();
}

/**
 * Delivers one webhook message to the API as Mindbody does: the body signed with the key of the
 * sandbox's subscription (as its Webhooks API lists it), `POST /api/mindbody/webhooks`.
 * @returns the API's reply (204 for a delivery it accepts)
 */
export async function deliverWebhook(
  t: TestApp,
  sandbox: RunningSandbox,
  event: {
    messageId: string;
    eventId: string;
    clientId: string;
    /** The delivery's `eventData` beyond siteId and clientId (e.g. a sale's). */
    eventData?: Record<string, unknown>;
  },
): Promise<request.Response> {
  // The key as the subscription's creation returned it (the Webhooks API lists subscriptions without keys).
  const key = sandbox.control.subscriptions()[0].messageSignatureKey;
  const body = JSON.stringify({
    messageId: event.messageId,
    eventId: event.eventId,
    eventSchemaVersion: 1,
    eventInstanceOriginationDateTime: new Date().toISOString(),
    eventData: {
      siteId: Number(sandbox.options.siteId),
      clientId: event.clientId,
      ...event.eventData,
    },
  });
  return t
    .agent()
    .post('/api/mindbody/webhooks')
    .set('Content-Type', 'application/json')
    .set('X-Mindbody-Signature', signWebhookBody(body, key))
    .send(body);
}

/** A friend of a Mindbody member, as Grove's referral loop meets them. */
export interface GroveReferredFriend {
  name: string;
  email: string;
  /** Their autopay once they are a Mindbody client, dollars. */
  autopay: number;
}

/**
 * Grove's own referral loop for a Mindbody gym (issue 22): the friend joins through the managed
 * referrer's referral link, the owner approves them (the add-branch form, price = `autopay`, the
 * business's discount on referral 0), and then — unless `frontDesk` is false — the front desk
 * creates them as a Mindbody client with the same email, which the next sync matches by email.
 * @returns the friend's Grove member id and their Mindbody client Id (null without the front desk)
 */
export async function referThroughGrove(
  owner: TestAgent,
  t: TestApp,
  sandbox: RunningSandbox,
  referrerId: string,
  friend: GroveReferredFriend,
  frontDesk = true,
): Promise<{ memberId: string; clientId: string | null }> {
  const link = (await owner.post(`/api/members/${referrerId}/referral-link`).expect(201)).body as {
    code: string;
  };
  await t
    .agent()
    .post(`/api/referrals/${link.code}/join`)
    .send({ name: friend.name, email: friend.email })
    .expect(201);
  const queued = (await owner.get('/api/prospects?pageSize=100').expect(200)).body as Page<{
    id: string;
    email: string;
  }>;
  const prospect = queued.items.find((item) => item.email === friend.email);
  if (!prospect) throw new Error(`${friend.email} was not queued`);
  const approved = (
    await owner
      .post(`/api/prospects/${prospect.id}/approve`)
      .send({
        memberName: friend.name,
        memberEmail: friend.email,
        membershipPriceCents: Math.round(friend.autopay * 100),
        discountCents: 0,
      })
      .expect(201)
  ).body as MemberRow;
  if (!frontDesk) return { memberId: approved.id, clientId: null };
  const [FirstName, ...rest] = friend.name.split(' ');
  const client = sandbox.control.addClient({
    FirstName,
    LastName: rest.join(' '),
    Email: friend.email,
    NormalAutoPay: friend.autopay,
    ReferredBy: 'Friend',
  });
  return { memberId: approved.id, clientId: client.Id };
}
