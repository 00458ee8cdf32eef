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
    const config = loadAppConfig({ DATABASE_URL: url, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) });
    expect(config.cookieSecure).toBe(true);
  });

  it('refuses malformed values', () => {
    expect(() => loadAppConfig({ DATABASE_URL: url, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadAppConfig({ DATABASE_URL: url, LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadAppConfig({ DATABASE_URL: url, PUBLIC_ORIGIN: 'grove.example.com' })).toThrow(/PUBLIC_ORIGIN/);
  });
});
