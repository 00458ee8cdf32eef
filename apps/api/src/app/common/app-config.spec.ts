import path from 'node:path';
import { AppConfig, DEFAULT_APP_SETTINGS, loadAppConfig, parseTrustProxy, type AppSettings } from './app-config';

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
    expect(config.logPretty).toBe(false);
    expect(config.seedDemo).toBe(false);
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(config.remoteUrls.dashboard).toBe('/remotes/dashboard/mf-manifest.json');
    expect(config.remoteOrigins).toEqual([]);
    expect(config.trustProxy).toBe(false);
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
      LOG_PRETTY: 'true',
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
    expect(config.logPretty).toBe(true);
    expect(config.remoteOrigins).toEqual(['https://cdn.example.com']);
  });

  it('reads the database timeouts (milliseconds) and refuses nonsense', () => {
    expect(loadAppConfig({ DATABASE_URL: url }).databaseTimeouts).toEqual({ connectMs: 5000, statementMs: 10_000 });
    expect(
      loadAppConfig({ DATABASE_URL: url, DATABASE_CONNECT_TIMEOUT_MS: '1500', DATABASE_STATEMENT_TIMEOUT_MS: '30000' })
        .databaseTimeouts,
    ).toEqual({ connectMs: 1500, statementMs: 30_000 });
    expect(() => loadAppConfig({ DATABASE_URL: url, DATABASE_CONNECT_TIMEOUT_MS: '5s' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
    expect(() => loadAppConfig({ DATABASE_URL: url, DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
  });

  it('refuses a REMOTE_<NAME>_URL that is neither an http(s) URL nor a path; REMOTES_DIR is resolved from the working directory', () => {
    for (const bad of ['cdn.example.com/mf-manifest.json', 'ftp://cdn.example.com/m.json', '//cdn.example.com/m.json']) {
      expect(() => loadAppConfig({ DATABASE_URL: url, REMOTE_MARKETING_URL: bad })).toThrow(/REMOTE_MARKETING_URL: must be an http\(s\) URL/);
    }
    const config = loadAppConfig({ DATABASE_URL: url, REMOTES_DIR: 'releases/remotes' }, '/srv/grove');
    expect(config.remotesDir).toBe(path.resolve('/srv/grove', 'releases/remotes'));
    expect(loadAppConfig({ DATABASE_URL: url }, '/srv/grove').remotesDir).toBe(path.resolve('/srv/grove', 'dist/remotes'));
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
      ALTCHA_HMAC_KEY: 'y'.repeat(32),
    });
    expect(config.cookieSecure).toBe(true);
  });

  it('requires a 32-byte MINDBODY_CREDENTIALS_KEY in production; development gets a random one', () => {
    const production = { DATABASE_URL: url, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), ALTCHA_HMAC_KEY: 'y'.repeat(32) };
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

describe('loadAppConfig: captcha, mail and Jira (issue 5)', () => {
  it('uses altcha by default, with outbox email, no Jira and the contact/support throttles at 5', () => {
    const config = loadAppConfig({ DATABASE_URL: url });
    expect(config.captcha).toMatchObject({ provider: 'altcha', altchaCost: 5000, altchaExpiresSeconds: 300, siteKey: null });
    expect(config.captcha.altchaHmacKey.length).toBeGreaterThanOrEqual(32);
    expect(config.mail).toEqual({ smtpUrl: null, from: 'Grove <no-reply@grove.local>', contactRecipient: 'hello@grove.local' });
    expect(config.jira).toBeNull();
    expect(config.throttleContactLimit).toBe(5);
    expect(config.throttleSupportLimit).toBe(5);
  });

  it('switches to reCAPTCHA or Turnstile only when both of their keys are set', () => {
    const recaptcha = loadAppConfig({ DATABASE_URL: url, RECAPTCHA_SITE_KEY: 'site', RECAPTCHA_SECRET_KEY: 'secret' });
    expect(recaptcha.captcha).toMatchObject({
      provider: 'recaptcha',
      siteKey: 'site',
      secretKey: 'secret',
      verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
    });
    const turnstile = loadAppConfig({ DATABASE_URL: url, TURNSTILE_SITE_KEY: 'site', TURNSTILE_SECRET_KEY: 'secret' });
    expect(turnstile.captcha).toMatchObject({
      provider: 'turnstile',
      verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    });
    expect(loadAppConfig({ DATABASE_URL: url, RECAPTCHA_SITE_KEY: 'site' }).captcha.provider).toBe('altcha');
  });

  it('requires ALTCHA_HMAC_KEY in production unless another captcha is configured', () => {
    const production = {
      DATABASE_URL: url,
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(32),
      MINDBODY_CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64'),
    };
    expect(() => loadAppConfig(production)).toThrow(/ALTCHA_HMAC_KEY/);
    expect(loadAppConfig({ ...production, TURNSTILE_SITE_KEY: 's', TURNSTILE_SECRET_KEY: 't' }).captcha.provider).toBe('turnstile');
    expect(() => loadAppConfig({ DATABASE_URL: url, ALTCHA_HMAC_KEY: 'short' })).toThrow(/ALTCHA_HMAC_KEY/);
  });

  it('configures Jira only when base URL, email, token and project key are all set', () => {
    const jira = { JIRA_BASE_URL: 'https://grove.atlassian.net/', JIRA_EMAIL: 'bot@grove.io', JIRA_API_TOKEN: 't', JIRA_PROJECT_KEY: 'GRV' };
    expect(loadAppConfig({ DATABASE_URL: url, ...jira }).jira).toEqual({
      baseUrl: 'https://grove.atlassian.net',
      email: 'bot@grove.io',
      apiToken: 't',
      projectKey: 'GRV',
      issueType: 'Bug',
    });
    expect(loadAppConfig({ DATABASE_URL: url, ...jira, JIRA_API_TOKEN: '' }).jira).toBeNull();
    expect(loadAppConfig({ DATABASE_URL: url, JIRA_RETRY_LIMIT: '2', JIRA_RETRY_DELAY_SECONDS: '1' }).jiraRetry).toEqual({
      limit: 2,
      delaySeconds: 1,
    });
  });
});

describe('AppConfig (named settings)', () => {
  const required: AppSettings = {
    nodeEnv: 'test',
    databaseUrl: url,
    port: 3000,
    jwtSecret: 'x'.repeat(32),
    accessTokenTtlSeconds: 900,
    refreshTokenTtlSeconds: 3600,
    allowedOrigins: [],
    cookieSecure: false,
    throttleLoginLimit: 5,
    webDistDir: '/srv/grove/dist/apps',
    remoteUrls: loadAppConfig({ DATABASE_URL: url }).remoteUrls,
    logLevel: 'silent',
    seedDemo: false,
  };

  it('fills every optional setting left out (or undefined) from DEFAULT_APP_SETTINGS', () => {
    const config = new AppConfig({ ...required, jira: undefined });
    expect(config).toMatchObject({ ...required, ...DEFAULT_APP_SETTINGS });
  });

  it('keeps the settings it is given, by name', () => {
    const config = new AppConfig({ ...required, throttleSupportLimit: 7, publicOrigin: 'https://grove.example.com' });
    expect(config.throttleSupportLimit).toBe(7);
    expect(config.publicOrigin).toBe('https://grove.example.com');
    expect(config.throttleContactLimit).toBe(DEFAULT_APP_SETTINGS.throttleContactLimit);
  });
});

describe('TRUST_PROXY', () => {
  const trustProxy = (value: string) => loadAppConfig({ DATABASE_URL: url, TRUST_PROXY: value }).trustProxy;

  it('trusts no proxy when unset or empty', () => {
    expect(loadAppConfig({ DATABASE_URL: url }).trustProxy).toBe(false);
    expect(trustProxy('')).toBe(false);
  });

  it('reads a hop count', () => {
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy(' 2 ')).toBe(2);
    expect(trustProxy('0')).toBe(0);
  });

  it('reads a list of addresses, CIDR ranges and named ranges', () => {
    expect(trustProxy('loopback')).toEqual(['loopback']);
    expect(trustProxy(' LinkLocal, 10.0.0.0/8 ,192.168.1.7, uniquelocal')).toEqual([
      'linklocal',
      '10.0.0.0/8',
      '192.168.1.7',
      'uniquelocal',
    ]);
    expect(trustProxy('::1,fd00::/8,2001:db8::/128,172.16.0.0/12')).toEqual(['::1', 'fd00::/8', '2001:db8::/128', '172.16.0.0/12']);
  });

  it.each([
    ['true'],
    ['false'],
    ['-1'],
    ['1.5'],
    ['one'],
    ['10.0.0.1,'],
    ['10.0.0.0/33'],
    ['fd00::/129'],
    ['10.0.0.0/8/8'],
    ['10.0.0.0/'],
    ['1.2.3'],
    ['proxy.example.com'],
    ['99999999999999999999'],
  ])('refuses %p with a message naming TRUST_PROXY', (value) => {
    expect(() => trustProxy(value)).toThrow(/TRUST_PROXY must be a hop count/);
    expect(parseTrustProxy(value)).toBeNull();
  });
});
