import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import type { SessionUser } from '@grove/contracts';
import { queuedSignupLink, type Queryable } from '@grove/testing-smtp';
import { AppModule } from '../src/app/app.module';
import { setupApp } from '../src/app/setup-app';
import { createTestDatabase, type TestDatabase } from './test-database';

/** A booted Grove API on its own cloned database. */
export interface TestApp {
  app: INestApplication;
  db: TestDatabase;
  dataSource: DataSource;
  /** A new supertest agent that keeps cookies between requests (one browser). */
  agent(): TestAgent;
  /**
   * Signs up a new business owner on a fresh agent as a person does: the sign-up form (202), then
   * the emailed link (read from the queued email, {@link signupLinkToken}); returns the agent
   * (signed in by the link) and the user, once the emails of the sign-up have been delivered.
   */
  signUp(
    overrides?: Partial<SignupBody>,
  ): Promise<{ agent: TestAgent; user: SessionUser; body: SignupBody }>;
  /** Closes the app and drops the database. */
  close(): Promise<void>;
}

/** Body of `POST /api/auth/signup`. */
export interface SignupBody {
  businessName: string;
  /** The business's country (ISO 3166-1 alpha-2); Australia when absent. */
  country?: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  website: string;
  password: string;
}

/**
 * The configuration every test API starts with (in-process or as a process): quiet logs, one
 * JWT secret (instances on one database accept each other's sessions), the login and Mindbody
 * credential, CSV upload, billing and webhook signature throttles out of the way, no wait for a verified sender, no web apps to serve, the metrics listener (where one is
 * started: `main.ts`, or a test calling `MetricsServer.listen`) on any free port.
 */
export const TEST_APP_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  JWT_SECRET: 'integration-test-secret-0123456789',
  THROTTLE_LOGIN_LIMIT: '1000',
  THROTTLE_MINDBODY_CREDENTIALS_LIMIT: '1000',
  THROTTLE_CSV_UPLOAD_LIMIT: '1000',
  THROTTLE_WEBHOOK_SIGNATURE_LIMIT: '1000',
  THROTTLE_BILLING_LIMIT: '1000',
  // Member emails of a new business wait for its owner's verified email (docs/product.md#verified-senders):
  // off here, as every test signs up new owners; sender-verification.integration-spec.ts turns it on.
  SENDER_VERIFICATION: 'false',
  WEB_DIST_DIR: '/nonexistent-grove-web',
  METRICS_PORT: '0',
};

/**
 * The token of the sign-up link emailed to `email` that still works (docs/product.md#signup),
 * read from the email Grove queued, its body opened with {@link TEST_APP_ENV}'s JWT_SECRET
 * (`queuedSignupLink` of `@grove/testing-smtp`, shared with the journeys, benches and drills).
 * @throws Error when no sign-up link was emailed to it
 */
export async function signupLinkToken(database: Queryable, email: string): Promise<string> {
  return (await queuedSignupLink(database, email, TEST_APP_ENV.JWT_SECRET ?? '')).token;
}

export type { Queryable };

/**
 * Signs `body` up through `client` as a person does (docs/product.md#signup): the form (→ 202),
 * then the emailed link read from `database` ({@link signupLinkToken}). For tests that sign up
 * through another client than {@link TestApp.signUp}'s (a proxy, an API process) or read the
 * reply's cookies.
 * Returns once the sign-up's emails have left the mail queue.
 * @returns the link's reply (201 SessionUser with the session's cookies)
 * @throws Error when the form is not accepted (its status and body)
 */
export async function signUpThroughLink(
  client: { post(url: string): request.Test },
  database: Queryable,
  body: SignupBody,
): Promise<request.Response> {
  const reply = await client.post('/api/auth/signup').send(body);
  if (reply.status !== 202)
    throw new Error(`signup failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  const token = await signupLinkToken(database, body.email);
  const confirmed = await client.post('/api/auth/signup/confirm').send({ token });
  await emailsSettled(database, body.email);
  return confirmed;
}

/**
 * Waits (up to 10 s) until Grove's emails to `email` have left the mail queue (delivered, or
 * waiting for a retry), so that a test counting the emails a server received after a sign-up
 * does not see the sign-up link arrive late.
 */
async function emailsSettled(database: Queryable, email: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    const result: unknown = await database.query(
      `SELECT count(*)::int AS n FROM pgboss.job
        WHERE name = 'mail.send' AND lower(data->>'to') = lower($1) AND state IN ('created', 'active')`,
      [email],
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
      n: number;
    }[];
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let counter = 0;

/** A valid signup body with a unique email. */
export function signupBody(overrides: Partial<SignupBody> = {}): SignupBody {
  counter += 1;
  return {
    businessName: 'Green Valley Fitness',
    firstName: 'Sam',
    lastName: 'Lee',
    email: `owner${counter}.${process.pid}@greenvalley.com.au`,
    phoneNumber: '0412 345 678',
    website: 'greenvalley.com.au',
    password: 'correct horse battery',
    ...overrides,
  };
}

/**
 * Boots the real AppModule (as main.ts does, minus listen) on a clone of the migrated template.
 * @param env extra configuration over `TEST_APP_ENV`
 * @param options.database boot on this existing database instead (a second API instance on one
 *   database); its `close()` then leaves the database to its owner
 * @param options.logLines every log line the app writes (JSON text, at env's LOG_LEVEL) is pushed
 *   here instead of stdout
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { database?: TestDatabase; logLines?: string[] } = {},
): Promise<TestApp> {
  const shared = options.database;
  const logLines = options.logLines;
  const db = shared ?? (await createTestDatabase());
  try {
    const moduleRef = await Test.createTestingModule({
      imports: [
        AppModule.forRoot(
          {
            ...TEST_APP_ENV,
            ...env,
            // A test may connect as another role (app-role.integration-spec.ts).
            DATABASE_URL: env['DATABASE_URL'] ?? db.url,
          },
          logLines ? { logDestination: { write: (line: string) => void logLines.push(line) } } : {},
        ),
      ],
    }).compile();
    const app = moduleRef.createNestApplication({ bufferLogs: true, rawBody: true });
    setupApp(app);
    await app.init();
    const agent = (): TestAgent => request.agent(app.getHttpServer());
    return {
      app,
      db,
      dataSource: app.get(DataSource),
      agent,
      async signUp(overrides = {}) {
        const body = signupBody(overrides);
        const browser = agent();
        const confirmed = await signUpThroughLink(browser, app.get(DataSource), body);
        if (confirmed.status !== 201)
          throw new Error(
            `signup link refused: ${confirmed.status} ${JSON.stringify(confirmed.body)}`,
          );
        return { agent: browser, user: confirmed.body as SessionUser, body };
      },
      async close() {
        await app.close();
        if (!shared) await db.drop();
      },
    };
  } catch (error) {
    if (!shared) await db.drop();
    throw error;
  }
}

/**
 * The add-tree form's body (`POST /api/members`), amounts in integer cents.
 * @param membershipPriceCents cents, default 10000; @param discountCents cents per referral, default 1500
 */
export function treeBody(
  name: string,
  email: string,
  membershipPriceCents = 10_000,
  discountCents = 1500,
) {
  return { memberName: name, memberEmail: email, membershipPriceCents, discountCents };
}

/**
 * Turns automatic referral links off for the signed-in owner's business (`PUT
 * /api/referral-links/settings`): on by default for a new business since issue 25, so a test
 * whose subject is a member without a link (creating one by hand, "not ready yet", counts of
 * links) says so in its setup.
 */
export async function autoLinksOff(owner: TestAgent): Promise<void> {
  await owner.put('/api/referral-links/settings').send({ autoCreate: false }).expect(200);
}
