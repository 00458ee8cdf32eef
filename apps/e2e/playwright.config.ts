import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';

// Journeys run in Debian's Chromium against a production build served by `npm start`'s own
// script on a throwaway embedded database (docs/architecture.md#build-and-tests). The build happens before (npm run test:e2e).
export const port = Number(process.env.E2E_PORT ?? 3311);
/**
 * Port of the SMTP server a journey starts itself (smtp-server) to read Grove's emails; Grove's
 * SMTP_URL points at it. Nothing listens there outside such a journey (Grove's mail jobs retry).
 */
export const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 1000);
/**
 * Port the journeys' Stripe stand-in prefers (tools/scripts/start.mjs's GROVE_STRIPE_SANDBOX_PORT),
 * so a journey can reach its control API as a gym owner reaches their Stripe Dashboard.
 */
export const stripeSandboxPort = Number(process.env.E2E_STRIPE_PORT ?? port + 2000);
export const workspaceRoot = path.resolve(__dirname, '../..');
// Workers inherit the environment, so every process agrees on one state folder.
if (!process.env.GROVE_E2E_STATE) {
  process.env.GROVE_E2E_STATE = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-e2e-'));
  // mkdtemp makes a 0700 folder; the embedded PostgreSQL (user postgres) must enter it.
  fs.chmodSync(process.env.GROVE_E2E_STATE, 0o755);
}

/** The answer every image captcha accepts in the journeys (CAPTCHA_IMAGE_TEST_ANSWER). */
export const E2E_CAPTCHA_IMAGE_ANSWER = 'grove-e2e-code';

/**
 * The JWT_SECRET of every Grove the journeys start (random per run; workers inherit it with the
 * environment): the queued sign-up email's body is sealed under it (support.ts `signupLink` opens it).
 */
process.env.GROVE_E2E_JWT_SECRET ??= randomBytes(32).toString('base64url');
export const E2E_JWT_SECRET = process.env.GROVE_E2E_JWT_SECRET;

/** Grove as `npm start` runs it, on `port`, with `env` on top of the journeys' settings. */

export function groveServer(
  env: Record<string, string> = {},
): Exclude<NonNullable<PlaywrightTestConfig['webServer']>, unknown[]> {
  return {
    command: 'node tools/scripts/start.mjs --no-build',
    cwd: workspaceRoot,
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      GROVE_STATE_DIR: process.env.GROVE_E2E_STATE ?? '',
      GROVE_DB_PORT: '0',
      GROVE_EPHEMERAL_STATE: 'true',
      LOG_LEVEL: 'warn',
      // A small Mindbody sandbox keeps the Mindbody journey quick (tools/scripts/start.mjs starts it).
      MINDBODY_SANDBOX_CLIENTS: process.env.MINDBODY_SANDBOX_CLIENTS ?? '300',
      // Remote versions the deploy journey stores (remote-deploy.spec.ts), thrown away with the state.
      REMOTES_DIR: path.join(process.env.GROVE_E2E_STATE ?? '', 'remotes'),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      JWT_SECRET: E2E_JWT_SECRET,
      GROVE_STRIPE_SANDBOX_PORT: String(stripeSandboxPort),
      // The contact form without JavaScript asks for the code of an image no test can read.
      CAPTCHA_IMAGE_TEST_ANSWER: E2E_CAPTCHA_IMAGE_ANSWER,
      // Every journey signs up a new owner from this one address, several a minute: the
      // login/signup limit has its own integration tests (throttle/, auth/).
      THROTTLE_LOGIN_LIMIT: '1000',
      // The Mindbody journeys (and a retry of one) check staff credentials from this address more
      // than 5 times in 15 minutes: that limit has its own integration test
      // (mindbody-credentials-throttle.integration-spec.ts).
      THROTTLE_MINDBODY_CREDENTIALS_LIMIT: '1000',
      // Reset links, email verification and staff invitations share the 'password-reset' limit
      // (5 a minute per address): the journeys that invite or reset (audit-log, staff-roles,
      // invitation-passkey, password-reset, second-factor) pass it within a minute of each other.
      // That limit has its own integration test (password-reset.integration-spec.ts).
      THROTTLE_PASSWORD_RESET_LIMIT: '1000',
      // New owners sign up in most journeys; data-rights.spec.ts starts a Grove with it on.
      SENDER_VERIFICATION: 'false',
      ...env,
    },
  };
}

/** Everything both runs share: Chromium, one worker (the main run overrides it), reports and traces. */
export const sharedConfig: PlaywrightTestConfig = {
  testDir: './src',
  globalTeardown: './src/global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list']]
    : [['list'], ['html', { open: 'never', outputFolder: '../../dist/playwright-report' }]],
  outputDir: '../../dist/test-results',
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
};

/**
 * What two journeys cannot hold at once, found in a journey's source: the one SMTP port Grove's
 * `SMTP_URL` names (support.ts `journeySmtp`), and the Mindbody sandbox's site, which one business
 * holds at a time (issue 31: a second claim is refused; `MINDBODY_SANDBOX_SITE` or support.ts
 * `connectMindbody`).
 */
const ONE_AT_A_TIME = [/\bjourneySmtp\(/, /\bMINDBODY_SANDBOX_SITE\b/, /\bconnectMindbody\(/];
/** Journeys holding one of those: they run one at a time, beside the other journeys. */
const oneAtATime = fs
  .readdirSync(path.join(__dirname, 'src'))
  .filter((file) => file.endsWith('.spec.ts'))
  .filter((file) => {
    const source = fs.readFileSync(path.join(__dirname, 'src', file), 'utf8');
    return ONE_AT_A_TIME.some((pattern) => pattern.test(source));
  })
  .map((file) => `**/${file}`);
/** Switches the marketing remote's version of the shared Grove: runs alone, after the others. */
const remoteDeployJourney = '**/remote-deploy.spec.ts';
const chromium = { ...devices['Desktop Chrome'], channel: undefined };

export default defineConfig({
  ...sharedConfig,
  // Two journeys at a time on CI's 2 cores (each signs up its own owner on the shared Grove);
  // docs/decisions/tests-in-two-workers.md.
  workers: 2,
  projects: [
    { name: 'one-at-a-time', testMatch: oneAtATime, workers: 1, use: chromium },
    {
      name: 'journeys',
      // cross-origin.spec.ts runs in playwright.cross-origin.config.ts (remotes on origins of their own).
      testIgnore: [...oneAtATime, remoteDeployJourney, '**/cross-origin.spec.ts'],
      use: chromium,
    },
    {
      name: 'remote-deploy',
      testMatch: remoteDeployJourney,
      dependencies: ['one-at-a-time', 'journeys'],
      use: chromium,
    },
  ],
  webServer: groveServer(),
});
