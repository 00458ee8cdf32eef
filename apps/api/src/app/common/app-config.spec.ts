import path from 'node:path';
import { loadAppConfig } from './app-config';

const url = 'postgres://u:p@localhost:5432/grove';

describe('loadAppConfig', () => {
  it('applies the defaults', () => {
    const config = loadAppConfig({ DATABASE_URL: url }, '/srv/grove');
    expect(config.port).toBe(3000);
    expect(config.accessTokenTtlSeconds).toBe(900);
    expect(config.refreshTokenTtlSeconds).toBe(2_592_000);
    expect(config.allowedOrigins).toEqual([]);
    expect(config.cookieSecure).toBe(false);
    expect(config.throttleLoginLimit).toBe(5);
    expect(config.throttleReferralLimit).toBe(10);
    expect(config.throttleDisabled).toBe(false);
    expect(config.publicOrigin).toBeNull();
    expect(config.webDistDir).toBe(path.resolve('/srv/grove', 'dist/apps'));
    expect(config.logLevel).toBe('info');
    expect(config.seedDemo).toBe(false);
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(config.remoteUrls.dashboard).toBe('/remotes/dashboard/mf-manifest.json');
    expect(config.remoteOrigins).toEqual([]);
  });

  it('reads every variable', () => {
    const config = loadAppConfig({
      DATABASE_URL: url,
      PORT: '8080',
      JWT_SECRET: 'a-very-long-secret-value',
      ALLOWED_ORIGINS: ' https://a.example.com/ ,https://b.example.com',
      COOKIE_SECURE: 'true',
      THROTTLE_LOGIN_LIMIT: '10',
      THROTTLE_REFERRAL_LIMIT: '20',
      THROTTLE_DISABLED: 'true',
      PUBLIC_ORIGIN: 'https://grove.example.com/',
      GROVE_SEED_DEMO: 'true',
      REMOTE_MARKETING_URL: 'https://cdn.example.com/marketing/mf-manifest.json',
    });
    expect(config.port).toBe(8080);
    expect(config.jwtSecret).toBe('a-very-long-secret-value');
    expect(config.allowedOrigins).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(config.cookieSecure).toBe(true);
    expect(config.throttleLoginLimit).toBe(10);
    expect(config.throttleReferralLimit).toBe(20);
    expect(config.throttleDisabled).toBe(true);
    expect(config.publicOrigin).toBe('https://grove.example.com');
    expect(config.seedDemo).toBe(true);
    expect(config.remoteOrigins).toEqual(['https://cdn.example.com']);
  });

  it('requires DATABASE_URL', () => {
    expect(() => loadAppConfig({})).toThrow(/DATABASE_URL/);
  });

  it('requires JWT_SECRET in production, where cookies are Secure by default', () => {
    expect(() => loadAppConfig({ DATABASE_URL: url, NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
    const config = loadAppConfig({
      DATABASE_URL: url,
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(32),
      MINDBODY_CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
    expect(config.cookieSecure).toBe(true);
  });

  it('requires a 32-byte MINDBODY_CREDENTIALS_KEY in production; development gets a random one', () => {
    const production = { DATABASE_URL: url, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) };
    expect(() => loadAppConfig(production)).toThrow(/MINDBODY_CREDENTIALS_KEY is required/);
    expect(() => loadAppConfig({ ...production, MINDBODY_CREDENTIALS_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      /MINDBODY_CREDENTIALS_KEY must be 32 bytes/,
    );
    const key = Buffer.alloc(32, 9);
    expect(loadAppConfig({ ...production, MINDBODY_CREDENTIALS_KEY: key.toString('base64') }).mindbody.credentialsKey).toEqual(key);
    const a = loadAppConfig({ DATABASE_URL: url }).mindbody.credentialsKey;
    const b = loadAppConfig({ DATABASE_URL: url }).mindbody.credentialsKey;
    expect(a).toHaveLength(32);
    expect(a.equals(b)).toBe(false);
  });

  it('points at the local Mindbody sandbox unless told otherwise, deriving the webhooks API from the API URL', () => {
    expect(loadAppConfig({ DATABASE_URL: url }).mindbody).toMatchObject({
      apiUrl: 'http://127.0.0.1:4010/public/v6',
      webhooksUrl: 'http://127.0.0.1:4010/push/api/v1',
      apiKey: 'grove-sandbox-key',
    });
    const real = loadAppConfig({
      DATABASE_URL: url,
      MINDBODY_API_URL: 'https://api.mindbodyonline.com/public/v6/',
      MINDBODY_WEBHOOKS_URL: 'https://mb-api.mindbodyonline.com/push/api/v1',
      MINDBODY_API_KEY: 'live-key',
    }).mindbody;
    expect(real).toMatchObject({
      apiUrl: 'https://api.mindbodyonline.com/public/v6',
      webhooksUrl: 'https://mb-api.mindbodyonline.com/push/api/v1',
      apiKey: 'live-key',
    });
    expect(() => loadAppConfig({ DATABASE_URL: url, MINDBODY_API_URL: 'not a url' })).toThrow(/MINDBODY_API_URL/);
  });

  it('refuses malformed values', () => {
    expect(() => loadAppConfig({ DATABASE_URL: url, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadAppConfig({ DATABASE_URL: url, LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadAppConfig({ DATABASE_URL: url, PUBLIC_ORIGIN: 'grove.example.com' })).toThrow(/PUBLIC_ORIGIN/);
  });
});
