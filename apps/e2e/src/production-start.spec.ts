import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const root = path.resolve(__dirname, '../../..');

/**
 * Starts the built API (`node dist/apps/api/main.js`, as the Docker image does) with `env` and
 * waits for it to exit.
 * @returns the exit code and what it wrote to stderr
 */
function startApi(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const api = spawn(process.execPath, [path.join(root, 'dist/apps/api/main.js')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    api.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      api.kill('SIGKILL');
      reject(new Error(`the API did not exit within 20 s:\n${stderr}`));
    }, 20_000);
    api.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** Production settings with fresh secrets; nothing listens on port 1, and the API must stop before it tries. */
const production = (): Record<string, string> => ({
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://grove:grove@127.0.0.1:1/grove',
  PORT: '0',
  JWT_SECRET: randomBytes(32).toString('base64url'),
  ALTCHA_HMAC_KEY: randomBytes(32).toString('base64url'),
  MINDBODY_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
  PUBLIC_ORIGIN: 'https://grove.example.com',
  MINDBODY_API_KEY: randomBytes(16).toString('hex'),
  SMTP_URL: 'smtp://127.0.0.1:1',
  STRIPE_SECRET_KEY: 'sk_live_grove0production0check',
  STRIPE_WEBHOOK_SECRET: 'whsec_grove0production0check',
  STRIPE_PRICES: 'usd:price_grove0plan',
});

test.describe('a production API refuses to start with a weak secret (issue 11.5)', () => {
  test('the JWT_SECRET docker-compose.yml used to ship: exit 1, naming the variable and the fix', async () => {
    const { code, stderr } = await startApi({
      ...production(),
      JWT_SECRET: 'change-me-to-a-long-random-secret',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration:');
    expect(stderr).toContain('JWT_SECRET is a value published in the Grove repository');
    expect(stderr).toContain('openssl rand -base64 32');
  });

  test('a missing ALTCHA_HMAC_KEY and a placeholder MINDBODY_CREDENTIALS_KEY: both named', async () => {
    const env = production();
    delete (env as Partial<typeof env>).ALTCHA_HMAC_KEY;
    const { code, stderr } = await startApi({
      ...env,
      MINDBODY_CREDENTIALS_KEY: Buffer.alloc(32, 1).toString('base64'),
    });
    expect(code).toBe(1);
    expect(stderr).toContain('ALTCHA_HMAC_KEY is required when NODE_ENV=production');
    expect(stderr).toContain('MINDBODY_CREDENTIALS_KEY repeats a few characters');
  });

  test("no MINDBODY_API_KEY (production used to send the sandbox's key to Mindbody): exit 1, naming it", async () => {
    const env = production();
    delete (env as Partial<typeof env>).MINDBODY_API_KEY;
    const { code, stderr } = await startApi(env);
    expect(code).toBe(1);
    expect(stderr).toContain('MINDBODY_API_KEY is required when NODE_ENV=production');
  });

  test('no SMTP_URL (reset links would wait in the outbox while the owner is told they are on their way): exit 1, naming it and MAIL_OUTBOX_ONLY', async () => {
    const env = production();
    delete (env as Partial<typeof env>).SMTP_URL;
    const { code, stderr } = await startApi(env);
    expect(code).toBe(1);
    expect(stderr).toContain('SMTP_URL is required when NODE_ENV=production');
    expect(stderr).toContain('MAIL_OUTBOX_ONLY=true');
  });

  test('billing on without a Stripe key or price (issue 30): exit 1, naming each and GROVE_BILLING=off', async () => {
    const env: Record<string, string> = production();
    delete env.STRIPE_SECRET_KEY;
    delete env.STRIPE_PRICES;
    const { code, stderr } = await startApi(env);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'STRIPE_SECRET_KEY is required when NODE_ENV=production and GROVE_BILLING=on',
    );
    expect(stderr).toContain(
      'STRIPE_PRICES is required when NODE_ENV=production and GROVE_BILLING=on',
    );
    expect(stderr).toContain('set GROVE_BILLING=off');
    expect(stderr).not.toContain('STRIPE_WEBHOOK_SECRET is required');
  });
});

test('npm start serves the OpenAPI document for the developer (API_DOCS_ENABLED=true)', async ({
  request,
}) => {
  const reply = await request.get('/api/docs-json');
  expect(reply.status()).toBe(200);
  expect(
    ((await reply.json()) as { paths: Record<string, unknown> }).paths['/api/auth/signup'],
  ).toBeDefined();
});
