import { randomBytes } from 'node:crypto';
import { createTestApp, type TestApp } from '../../../../test/test-app';

/** Production settings with freshly generated secrets (a written-down one would be refused). */
const production = (): Record<string, string> => ({
  NODE_ENV: 'production',
  JWT_SECRET: randomBytes(32).toString('base64url'),
  ALTCHA_HMAC_KEY: randomBytes(32).toString('base64url'),
  MINDBODY_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
  PUBLIC_ORIGIN: 'https://grove.example.com',
  MINDBODY_API_KEY: randomBytes(16).toString('hex'),
  // No SMTP server here: emails stay in outbox_emails, on purpose.
  MAIL_OUTBOX_ONLY: 'true',
  // Grove's own bill is not what these tests are about (docs/operations.md#billing).
  GROVE_BILLING: 'off',
});

describe('a production API (integration, issue 11.5)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(production());
  });
  afterAll(() => t.close());

  it('answers /api/docs and /api/docs-json with 404 by default (ASVS 14.3)', async () => {
    await t.agent().get('/api/health').expect(200);
    await t.agent().get('/api/docs').expect(404);
    await t.agent().get('/api/docs/').expect(404);
    await t.agent().get('/api/docs-json').expect(404);
  });

  it('serves them when API_DOCS_ENABLED=true', async () => {
    const docs = await createTestApp({ ...production(), API_DOCS_ENABLED: 'true' });
    try {
      const reply = await docs.agent().get('/api/docs-json').expect(200);
      expect(reply.body.paths['/api/auth/login']).toBeDefined();
    } finally {
      await docs.close();
    }
  });

  it('refuses to boot without PUBLIC_ORIGIN (issue 24: every link in an email is built from it)', async () => {
    const { PUBLIC_ORIGIN: _unset, ...withoutOrigin } = production();
    await expect(createTestApp(withoutOrigin)).rejects.toThrow(
      /Invalid configuration:\n {2}PUBLIC_ORIGIN is required when NODE_ENV=production/,
    );
  });

  it('refuses to boot the app with a JWT_SECRET from the repository, naming it', async () => {
    await expect(
      createTestApp({ ...production(), JWT_SECRET: 'change-me-to-a-long-random-secret' }),
    ).rejects.toThrow(
      /Invalid configuration:\n {2}JWT_SECRET is a value published in the Grove repository/,
    );
  });
});
