import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  AppConfig,
  DEFAULT_APP_SETTINGS,
  loadAppConfig,
  parseTrustProxy,
  type AppSettings,
} from './app-config';

const url = 'postgres://u:p@localhost:5432/grove';
/** A freshly generated secret (tests never write one down: any literal in the repo is refused in production). */
const fresh = (): string => randomBytes(32).toString('base64url');
/** Production settings with every secret freshly generated. */
const productionEnv = (): Record<string, string> => ({
  DATABASE_URL: url,
  NODE_ENV: 'production',
  JWT_SECRET: fresh(),
  ALTCHA_HMAC_KEY: fresh(),
  MINDBODY_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
  PUBLIC_ORIGIN: 'https://grove.example.com',
  MINDBODY_API_KEY: randomBytes(16).toString('hex'),
  SMTP_URL: 'smtps://grove:mail-password@smtp.example.com:465',
  STRIPE_SECRET_KEY: 'sk_live_grove0config0test',
  STRIPE_WEBHOOK_SECRET: 'whsec_grove0config0test',
  STRIPE_PRICES: 'usd:price_grove0plan,aud:price_grove0plan0aud',
});

describe('loadAppConfig', () => {
  it('applies the defaults', () => {
    const config = loadAppConfig({ DATABASE_URL: url }, '/srv/grove');
    expect(config.port).toBe(3000);
    expect(config.accessTokenTtlSeconds).toBe(900);
    expect(config.refreshTokenTtlSeconds).toBe(2_592_000);
    expect(config.sessionIdleTimeoutSeconds).toBe(604_800);
    expect(config.refreshReuseGraceSeconds).toBe(30);
    expect(config.allowedOrigins).toEqual([]);
    expect(config.cookieSecure).toBe(false);
    expect(config.throttleLoginLimit).toBe(5);
    expect(config.throttleReferralLimit).toBe(10);
    expect(config.throttleDisabled).toBe(false);
    expect(config.publicOrigin).toBe('http://localhost:3000');
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
    expect(loadAppConfig({ DATABASE_URL: url }).databaseTimeouts).toEqual({
      connectMs: 5000,
      statementMs: 10_000,
    });
    expect(
      loadAppConfig({
        DATABASE_URL: url,
        DATABASE_CONNECT_TIMEOUT_MS: '1500',
        DATABASE_STATEMENT_TIMEOUT_MS: '30000',
      }).databaseTimeouts,
    ).toEqual({ connectMs: 1500, statementMs: 30_000 });
    expect(() => loadAppConfig({ DATABASE_URL: url, DATABASE_CONNECT_TIMEOUT_MS: '5s' })).toThrow(
      /DATABASE_CONNECT_TIMEOUT_MS/,
    );
    expect(() => loadAppConfig({ DATABASE_URL: url, DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toThrow(
      /DATABASE_STATEMENT_TIMEOUT_MS/,
    );
  });

  it('refuses a REMOTE_<NAME>_URL that is neither an http(s) URL nor a path; REMOTES_DIR is resolved from the working directory', () => {
    for (const bad of [
      'cdn.example.com/mf-manifest.json',
      'ftp://cdn.example.com/m.json',
      '//cdn.example.com/m.json',
    ]) {
      expect(() => loadAppConfig({ DATABASE_URL: url, REMOTE_MARKETING_URL: bad })).toThrow(
        /REMOTE_MARKETING_URL: must be an http\(s\) URL/,
      );
    }
    const config = loadAppConfig(
      { DATABASE_URL: url, REMOTES_DIR: 'releases/remotes' },
      '/srv/grove',
    );
    expect(config.remotesDir).toBe(path.resolve('/srv/grove', 'releases/remotes'));
    expect(loadAppConfig({ DATABASE_URL: url }, '/srv/grove').remotesDir).toBe(
      path.resolve('/srv/grove', 'dist/remotes'),
    );
  });

  it('reads the session lifetimes and refuses ones out of range', () => {
    const config = loadAppConfig({
      DATABASE_URL: url,
      SESSION_IDLE_TIMEOUT_SECONDS: '3600',
      REFRESH_REUSE_GRACE_SECONDS: '0',
    });
    expect(config.sessionIdleTimeoutSeconds).toBe(3600);
    expect(config.refreshReuseGraceSeconds).toBe(0);
    expect(() => loadAppConfig({ DATABASE_URL: url, SESSION_IDLE_TIMEOUT_SECONDS: '59' })).toThrow(
      /SESSION_IDLE_TIMEOUT_SECONDS/,
    );
    expect(() => loadAppConfig({ DATABASE_URL: url, REFRESH_REUSE_GRACE_SECONDS: '301' })).toThrow(
      /REFRESH_REUSE_GRACE_SECONDS/,
    );
    expect(() => loadAppConfig({ DATABASE_URL: url, REFRESH_REUSE_GRACE_SECONDS: '-1' })).toThrow(
      /REFRESH_REUSE_GRACE_SECONDS/,
    );
  });

  it('requires DATABASE_URL', () => {
    expect(() => loadAppConfig({})).toThrow(/DATABASE_URL/);
  });

  it('requires JWT_SECRET in production, where cookies are Secure by default', () => {
    expect(() => loadAppConfig({ DATABASE_URL: url, NODE_ENV: 'production' })).toThrow(
      /JWT_SECRET/,
    );
    const config = loadAppConfig(productionEnv());
    expect(config.cookieSecure).toBe(true);
  });

  it('requires a 32-byte MINDBODY_CREDENTIALS_KEY in production; development gets a random one', () => {
    const production = { ...productionEnv(), MINDBODY_CREDENTIALS_KEY: '' };
    expect(() => loadAppConfig(production)).toThrow(/MINDBODY_CREDENTIALS_KEY is required/);
    expect(() =>
      loadAppConfig({
        ...production,
        MINDBODY_CREDENTIALS_KEY: Buffer.alloc(16).toString('base64'),
      }),
    ).toThrow(/MINDBODY_CREDENTIALS_KEY must be 32 bytes/);
    const key = randomBytes(32);
    expect(
      loadAppConfig({ ...production, MINDBODY_CREDENTIALS_KEY: key.toString('base64') }).mindbody
        .credentialsKey,
    ).toEqual(key);
    const a = loadAppConfig({ DATABASE_URL: url }).mindbody.credentialsKey;
    const b = loadAppConfig({ DATABASE_URL: url }).mindbody.credentialsKey;
    expect(a).toHaveLength(32);
    expect(a.equals(b)).toBe(false);
  });

  it('points the Public API at the local sandbox unless told otherwise, and the webhooks API at the official Webhooks host on its own (never derived from the API URL)', () => {
    expect(loadAppConfig({ DATABASE_URL: url }).mindbody).toMatchObject({
      apiUrl: 'http://127.0.0.1:4010/public/v6',
      webhooksUrl: 'https://push-api.mindbodyonline.com/api/v1',
      apiKey: 'grove-sandbox-key',
    });
    // Another API URL does not move the webhooks host.
    expect(
      loadAppConfig({
        DATABASE_URL: url,
        MINDBODY_API_URL: 'https://api.mindbodyonline.com/public/v6',
      }).mindbody.webhooksUrl,
    ).toBe('https://push-api.mindbodyonline.com/api/v1');
    const real = loadAppConfig({
      DATABASE_URL: url,
      MINDBODY_API_URL: 'https://api.mindbodyonline.com/public/v6/',
      MINDBODY_WEBHOOKS_URL: 'http://127.0.0.1:4010/api/v1/',
      MINDBODY_API_KEY: 'live-key',
    }).mindbody;
    expect(real).toMatchObject({
      apiUrl: 'https://api.mindbodyonline.com/public/v6',
      webhooksUrl: 'http://127.0.0.1:4010/api/v1',
      apiKey: 'live-key',
    });
    expect(() => loadAppConfig({ DATABASE_URL: url, MINDBODY_API_URL: 'not a url' })).toThrow(
      /MINDBODY_API_URL/,
    );
  });

  it('refuses malformed values', () => {
    expect(() => loadAppConfig({ DATABASE_URL: url, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadAppConfig({ DATABASE_URL: url, LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadAppConfig({ DATABASE_URL: url, PUBLIC_ORIGIN: 'grove.example.com' })).toThrow(
      /PUBLIC_ORIGIN/,
    );
  });
});

describe('loadAppConfig: shared throttle storage and the Mindbody credential throttle (issues 11, 12)', () => {
  it('keeps the counters in PostgreSQL and allows 5 credential checks per 15 minutes by default', () => {
    const config = loadAppConfig({ DATABASE_URL: url });
    expect(config.redisUrl).toBeNull();
    expect(config.throttleMindbodyCredentials).toEqual({ limit: 5, windowSeconds: 900 });
  });

  it('reads REDIS_URL and the credential throttle settings', () => {
    const config = loadAppConfig({
      DATABASE_URL: url,
      REDIS_URL: 'redis://:secret@redis.internal:6379/2',
      THROTTLE_MINDBODY_CREDENTIALS_LIMIT: '3',
      THROTTLE_MINDBODY_CREDENTIALS_WINDOW_SECONDS: '3600',
    });
    expect(config.redisUrl).toBe('redis://:secret@redis.internal:6379/2');
    expect(config.throttleMindbodyCredentials).toEqual({ limit: 3, windowSeconds: 3600 });
    expect(
      loadAppConfig({ DATABASE_URL: url, REDIS_URL: 'rediss://redis.example.com:6380' }).redisUrl,
    ).toBe('rediss://redis.example.com:6380');
  });

  it('refuses a REDIS_URL that is not redis:// or rediss://, and credential limits below 1', () => {
    expect(() => loadAppConfig({ DATABASE_URL: url, REDIS_URL: 'http://redis:6379' })).toThrow(
      /REDIS_URL/,
    );
    expect(() => loadAppConfig({ DATABASE_URL: url, REDIS_URL: 'redis-host:6379' })).toThrow(
      /REDIS_URL/,
    );
    expect(() =>
      loadAppConfig({ DATABASE_URL: url, THROTTLE_MINDBODY_CREDENTIALS_LIMIT: '0' }),
    ).toThrow(/THROTTLE_MINDBODY_CREDENTIALS_LIMIT/);
    expect(() =>
      loadAppConfig({ DATABASE_URL: url, THROTTLE_MINDBODY_CREDENTIALS_WINDOW_SECONDS: 'an hour' }),
    ).toThrow(/THROTTLE_MINDBODY_CREDENTIALS_WINDOW_SECONDS/);
  });
});

describe('loadAppConfig: captcha, mail and Jira (issue 5)', () => {
  it('uses altcha by default, with outbox email, no Jira and the contact/support throttles at 5', () => {
    const config = loadAppConfig({ DATABASE_URL: url });
    expect(config.captcha).toMatchObject({
      provider: 'altcha',
      altchaCost: 5000,
      altchaExpiresSeconds: 300,
      siteKey: null,
    });
    expect(config.captcha.altchaHmacKey.length).toBeGreaterThanOrEqual(32);
    expect(config.mail).toEqual({
      smtpUrl: null,
      from: 'Grove <no-reply@grove.local>',
      contactRecipient: 'hello@grove.local',
    });
    expect(config.jira).toBeNull();
    expect(config.throttleContactLimit).toBe(5);
    expect(config.throttleSupportLimit).toBe(5);
  });

  it('switches to reCAPTCHA or Turnstile only when both of their keys are set', () => {
    const recaptcha = loadAppConfig({
      DATABASE_URL: url,
      RECAPTCHA_SITE_KEY: 'site',
      RECAPTCHA_SECRET_KEY: 'secret',
    });
    expect(recaptcha.captcha).toMatchObject({
      provider: 'recaptcha',
      siteKey: 'site',
      secretKey: 'secret',
      verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
    });
    const turnstile = loadAppConfig({
      DATABASE_URL: url,
      TURNSTILE_SITE_KEY: 'site',
      TURNSTILE_SECRET_KEY: 'secret',
    });
    expect(turnstile.captcha).toMatchObject({
      provider: 'turnstile',
      verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    });
    expect(loadAppConfig({ DATABASE_URL: url, RECAPTCHA_SITE_KEY: 'site' }).captcha.provider).toBe(
      'altcha',
    );
  });

  it('requires ALTCHA_HMAC_KEY in production unless another captcha is configured', () => {
    const production = { ...productionEnv(), ALTCHA_HMAC_KEY: '' };
    expect(() => loadAppConfig(production)).toThrow(/ALTCHA_HMAC_KEY/);
    expect(
      loadAppConfig({ ...production, TURNSTILE_SITE_KEY: 's', TURNSTILE_SECRET_KEY: 't' }).captcha
        .provider,
    ).toBe('turnstile');
    expect(() => loadAppConfig({ DATABASE_URL: url, ALTCHA_HMAC_KEY: 'short' })).toThrow(
      /ALTCHA_HMAC_KEY/,
    );
  });

  it('configures Jira only when base URL, email, token and project key are all set', () => {
    const jira = {
      JIRA_BASE_URL: 'https://grove.atlassian.net/',
      JIRA_EMAIL: 'bot@grove.io',
      JIRA_API_TOKEN: 't',
      JIRA_PROJECT_KEY: 'GRV',
    };
    expect(loadAppConfig({ DATABASE_URL: url, ...jira }).jira).toEqual({
      baseUrl: 'https://grove.atlassian.net',
      email: 'bot@grove.io',
      apiToken: 't',
      projectKey: 'GRV',
      issueType: 'Bug',
    });
    expect(loadAppConfig({ DATABASE_URL: url, ...jira, JIRA_API_TOKEN: '' }).jira).toBeNull();
    expect(
      loadAppConfig({ DATABASE_URL: url, JIRA_RETRY_LIMIT: '2', JIRA_RETRY_DELAY_SECONDS: '1' })
        .jiraRetry,
    ).toEqual({
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
    const config = new AppConfig({
      ...required,
      throttleSupportLimit: 7,
      publicOrigin: 'https://grove.example.com',
    });
    expect(config.throttleSupportLimit).toBe(7);
    expect(config.publicOrigin).toBe('https://grove.example.com');
    expect(config.throttleContactLimit).toBe(DEFAULT_APP_SETTINGS.throttleContactLimit);
  });
});

describe('TRUST_PROXY', () => {
  const trustProxy = (value: string) =>
    loadAppConfig({ DATABASE_URL: url, TRUST_PROXY: value }).trustProxy;

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
    expect(trustProxy('::1,fd00::/8,2001:db8::/128,172.16.0.0/12')).toEqual([
      '::1',
      'fd00::/8',
      '2001:db8::/128',
      '172.16.0.0/12',
    ]);
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

describe('loadAppConfig: production secrets (issue 11.5, ASVS V2.10.4 / V6.4.1 / V14.1)', () => {
  it('starts with freshly generated secrets, and with reCAPTCHA or Turnstile instead of an altcha key', () => {
    expect(() => loadAppConfig(productionEnv())).not.toThrow();
    const turnstile = {
      ...productionEnv(),
      ALTCHA_HMAC_KEY: '',
      TURNSTILE_SITE_KEY: 's',
      TURNSTILE_SECRET_KEY: 't',
    };
    expect(loadAppConfig(turnstile).captcha.provider).toBe('turnstile');
  });

  it("refuses to start without a real MINDBODY_API_KEY: unset (the sandbox's default) or the sandbox's key", () => {
    const env = productionEnv();
    delete env.MINDBODY_API_KEY;
    expect(() => loadAppConfig(env)).toThrow(
      /MINDBODY_API_KEY is required when NODE_ENV=production .*not the sandbox's/,
    );
    expect(() =>
      loadAppConfig({ ...productionEnv(), MINDBODY_API_KEY: 'grove-sandbox-key' }),
    ).toThrow(/MINDBODY_API_KEY is required/);
    expect(() => loadAppConfig({ ...productionEnv(), MINDBODY_API_KEY: 'changeme' })).toThrow(
      /MINDBODY_API_KEY looks like a placeholder/,
    );
    // Mindbody issues the key: its length is not Grove's to decide.
    expect(() =>
      loadAppConfig({ ...productionEnv(), MINDBODY_API_KEY: randomBytes(8).toString('hex') }),
    ).not.toThrow();
  });

  it.each(['JWT_SECRET', 'ALTCHA_HMAC_KEY', 'MINDBODY_CREDENTIALS_KEY'])(
    'refuses to start without %s, saying which and how to make one',
    (name) => {
      expect(() => loadAppConfig({ ...productionEnv(), [name]: '' })).toThrow(
        new RegExp(`${name} is required when NODE_ENV=production .*openssl rand -base64 32`),
      );
    },
  );

  it.each(['JWT_SECRET', 'ALTCHA_HMAC_KEY'])('refuses a %s shorter than 32 characters', (name) => {
    expect(() => loadAppConfig({ ...productionEnv(), [name]: fresh().slice(0, 31) })).toThrow(
      new RegExp(`${name} must be at least 32 characters in production`),
    );
    expect(() => loadAppConfig({ ...productionEnv(), [name]: fresh().slice(0, 32) })).not.toThrow();
  });

  it.each([
    ['JWT_SECRET', 'change-me-to-a-long-random-secret', /published in the Grove repository/],
    [
      'ALTCHA_HMAC_KEY',
      'change-me-to-another-long-random-secret',
      /published in the Grove repository/,
    ],
    ['JWT_SECRET', 'CHANGE_ME_please_0a8f7e6d5c4b3a2918f7', /placeholder \(contains 'changeme'\)/],
    ['JWT_SECRET', 'my-super-secret-jwt-signing-key-2024', /placeholder \(contains 'secret'\)/],
    ['ALTCHA_HMAC_KEY', 'Placeholder.Value.For.The.Altcha.Key!', /placeholder/],
    ['JWT_SECRET', 'x'.repeat(48), /repeats a few characters/],
    ['ALTCHA_HMAC_KEY', 'ab12'.repeat(10), /repeats a few characters/],
    ['JWT_SECRET', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ', /run of consecutive characters/],
    [
      'MINDBODY_CREDENTIALS_KEY',
      Buffer.alloc(32, 7).toString('base64'),
      /repeats a few characters/,
    ],
    [
      'MINDBODY_CREDENTIALS_KEY',
      Buffer.from('abcdefghijklmnopqrstuvwxyzABCDEF').toString('base64'),
      /consecutive/,
    ],
    ['MINDBODY_CREDENTIALS_KEY', randomBytes(16).toString('base64'), /must be 32 bytes/],
  ])('refuses the well-known or placeholder %s %p', (name, value, reason) => {
    expect(() => loadAppConfig({ ...productionEnv(), [name]: value })).toThrow(
      new RegExp(`${name} .*${reason.source}`),
    );
  });

  it('lists every bad secret at once, and refuses one secret used for two purposes', () => {
    let message = '';
    try {
      loadAppConfig({
        DATABASE_URL: url,
        NODE_ENV: 'production',
        JWT_SECRET: 'sixteen chars ok',
        ALTCHA_HMAC_KEY: 'another 16 chars',
        GROVE_BILLING: 'off',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'Invalid configuration:',
      expect.stringMatching(/^ {2}JWT_SECRET must be at least 32/),
      expect.stringMatching(/^ {2}ALTCHA_HMAC_KEY must be at least 32/),
      expect.stringMatching(/^ {2}MINDBODY_CREDENTIALS_KEY is required/),
      expect.stringMatching(/^ {2}MINDBODY_API_KEY is required/),
      expect.stringMatching(/^ {2}PUBLIC_ORIGIN is required when NODE_ENV=production/),
      expect.stringMatching(/^ {2}SMTP_URL is required when NODE_ENV=production/),
    ]);
    const shared = fresh();
    expect(() =>
      loadAppConfig({ ...productionEnv(), JWT_SECRET: shared, ALTCHA_HMAC_KEY: shared }),
    ).toThrow(/JWT_SECRET and ALTCHA_HMAC_KEY must be different/);
  });

  it('requires SMTP_URL in production unless MAIL_OUTBOX_ONLY=true (issue 31: reset links never sit in the outbox by accident)', () => {
    const { SMTP_URL: _unset, ...withoutSmtp } = productionEnv();
    expect(() => loadAppConfig(withoutSmtp)).toThrow(
      /Invalid configuration:\n {2}SMTP_URL is required when NODE_ENV=production .*MAIL_OUTBOX_ONLY=true/,
    );
    expect(() => loadAppConfig({ ...withoutSmtp, SMTP_URL: '' })).toThrow(/SMTP_URL is required/);
    expect(loadAppConfig({ ...withoutSmtp, MAIL_OUTBOX_ONLY: 'true' }).mail.smtpUrl).toBeNull();
    expect(() => loadAppConfig({ ...withoutSmtp, MAIL_OUTBOX_ONLY: 'false' })).toThrow(
      /SMTP_URL is required/,
    );
    expect(loadAppConfig(productionEnv()).mail.smtpUrl).toMatch(/^smtps:/);
    // Outside production the outbox stays the default.
    expect(loadAppConfig({ DATABASE_URL: url }).mail.smtpUrl).toBeNull();
  });

  it("requires Grove's Stripe key, webhook secret and prices in production unless GROVE_BILLING=off (issue 30)", () => {
    const { STRIPE_SECRET_KEY: _key, STRIPE_PRICES: _prices, ...unbilled } = productionEnv();
    expect(() => loadAppConfig(unbilled)).toThrow(
      /STRIPE_SECRET_KEY is required when NODE_ENV=production and GROVE_BILLING=on[^\n]*GROVE_BILLING=off[^\n]*\n {2}STRIPE_PRICES is required/,
    );
    expect(loadAppConfig({ ...unbilled, GROVE_BILLING: 'off' }).billing).toMatchObject({
      enabled: false,
      stripe: null,
    });
    const billing = loadAppConfig(productionEnv()).billing;
    expect(billing.enabled).toBe(true);
    expect(billing.graceSeconds).toBe(14 * 86_400);
    expect([...(billing.stripe?.prices ?? [])]).toEqual([
      ['usd', 'price_grove0plan'],
      ['aud', 'price_grove0plan0aud'],
    ]);
    expect(billing.stripe?.api).toBeNull();
    expect(() => loadAppConfig({ ...productionEnv(), STRIPE_PRICES: 'price_only' })).toThrow(
      /STRIPE_PRICES must be currency:price_id pairs/,
    );
    // Development and tests: billing on, no Stripe until configured (the stand-in's URL parsed for the SDK).
    const development = loadAppConfig({
      DATABASE_URL: url,
      STRIPE_SECRET_KEY: 'sk_test_grove_sandbox',
      STRIPE_WEBHOOK_SECRET: 'whsec_dev',
      STRIPE_PRICES: 'usd:price_dev',
      STRIPE_API_URL: 'http://127.0.0.1:4020',
    }).billing.stripe?.api;
    expect(development).toEqual({ host: '127.0.0.1', port: 4020, protocol: 'http' });
  });

  it('requires PUBLIC_ORIGIN in production (issue 24: links in emails never come from a request); elsewhere http://localhost:$PORT', () => {
    const { PUBLIC_ORIGIN: _unset, ...withoutOrigin } = productionEnv();
    expect(() => loadAppConfig(withoutOrigin)).toThrow(
      /Invalid configuration:\n {2}PUBLIC_ORIGIN is required when NODE_ENV=production .*never from a request's Host/,
    );
    expect(
      loadAppConfig({ ...productionEnv(), PUBLIC_ORIGIN: 'https://grove.example.com/' })
        .publicOrigin,
    ).toBe('https://grove.example.com');
    expect(loadAppConfig({ DATABASE_URL: url, PORT: '8080' }).publicOrigin).toBe(
      'http://localhost:8080',
    );
    expect(loadAppConfig({ DATABASE_URL: url, NODE_ENV: 'test' }).publicOrigin).toBe(
      'http://localhost:3000',
    );
    expect(() => loadAppConfig({ DATABASE_URL: url, PUBLIC_ORIGIN: 'grove.example.com' })).toThrow(
      /PUBLIC_ORIGIN/,
    );
  });

  it('checks secrets in production only: development and tests accept any 16+ characters', () => {
    expect(() =>
      loadAppConfig({ DATABASE_URL: url, JWT_SECRET: 'change-me-to-a-long-random-secret' }),
    ).not.toThrow();
  });

  it('refuses in production every secret value written anywhere in the repository (docs, compose, examples, tests)', () => {
    const root = path.resolve(__dirname, '../../../..');
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((file) =>
        /\.(md|ya?ml|env|example|ts|tsx|mjs|cjs|js|json|cfg|conf|sh)$|(^|\/)Dockerfile|\.env\./.test(
          file,
        ),
      );
    // `NAME: 'value'`, `NAME=value`, `"NAME": "value"` and compose's `${NAME:-value}` defaults.
    const pattern =
      /(JWT_SECRET|ALTCHA_HMAC_KEY|MINDBODY_CREDENTIALS_KEY)(?:['"]?[ \t]*[:=][ \t]*|:-)['"]?([A-Za-z0-9+/=_.!-]{8,})/g;
    const found: { name: string; value: string; file: string }[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(path.join(root, file), 'utf8');
      } catch {
        continue; // listed but absent from this checkout
      }
      for (const [, name, value] of text.matchAll(pattern)) found.push({ name, value, file });
    }
    expect(found.map(({ value }) => value)).toEqual(
      expect.arrayContaining(['integration-test-secret-0123456789']),
    );
    const accepted = found.filter(({ name, value }) => {
      try {
        loadAppConfig({ ...productionEnv(), [name]: value });
        return true;
      } catch {
        return false;
      }
    });
    expect(accepted).toEqual([]);
  });
});

describe('loadAppConfig: API docs (issue 11.5, ASVS V14.3)', () => {
  it('serves /api/docs in development and tests, not in production unless API_DOCS_ENABLED says so', () => {
    expect(loadAppConfig({ DATABASE_URL: url }).apiDocsEnabled).toBe(true);
    expect(loadAppConfig({ DATABASE_URL: url, NODE_ENV: 'test' }).apiDocsEnabled).toBe(true);
    expect(loadAppConfig(productionEnv()).apiDocsEnabled).toBe(false);
    expect(loadAppConfig({ ...productionEnv(), API_DOCS_ENABLED: 'true' }).apiDocsEnabled).toBe(
      true,
    );
    expect(loadAppConfig({ DATABASE_URL: url, API_DOCS_ENABLED: 'false' }).apiDocsEnabled).toBe(
      false,
    );
    expect(() => loadAppConfig({ DATABASE_URL: url, API_DOCS_ENABLED: 'maybe' })).toThrow(
      /API_DOCS_ENABLED/,
    );
  });
});
