import { createSecretKey } from 'node:crypto';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import type { Request } from 'express';
import jwt from 'jsonwebtoken';
import { AppConfig, DEFAULT_APP_SETTINGS } from '../../app-config';
import type { AuthUser } from '../common/auth-user';
import { IS_PUBLIC_KEY } from '../common/public.decorator';
import { AuthCookies } from './auth-cookies';
import { NotSignedInException } from './auth.exceptions';
import { JwtAuthGuard } from './jwt-auth.guard';
import type { SessionsService } from './sessions.service';

const SECRET = 'unit-test-secret-unit-test-secret';
const key = createSecretKey(Buffer.from(SECRET, 'utf8'));
const USER = '11111111-1111-4111-8111-111111111111';
const BUSINESS = '22222222-2222-4222-8222-222222222222';
const SESSION = '33333333-3333-4333-8333-333333333333';
const claims = { sub: USER, bid: BUSINESS, sid: SESSION };
const signedInUser = { userId: USER, businessId: BUSINESS, sessionId: SESSION };
const signer = new JwtService({ secret: key, signOptions: { algorithm: 'HS256', expiresIn: 900 } });

type GuardRequest = Request & { user?: AuthUser };

/** The auth cookies of a config with COOKIE_SECURE on or off. */
const cookiesOf = (cookieSecure: boolean) =>
  new AuthCookies(
    new AppConfig({
      ...DEFAULT_APP_SETTINGS,
      nodeEnv: 'test',
      databaseUrl: 'postgres://unused',
      port: 0,
      jwtSecret: SECRET,
      accessTokenTtlSeconds: 900,
      refreshTokenTtlSeconds: 3600,
      allowedOrigins: [],
      cookieSecure,
      throttleLoginLimit: 5,
      webDistDir: '/nonexistent',
      remoteUrls: { marketing: '', dashboard: '', integrations: '', referral: '' },
      logLevel: 'silent',
      seedDemo: false,
    }),
  );

function setup(options: { active?: boolean; isPublic?: boolean; cookieSecure?: boolean } = {}) {
  // The session's user's role now (issue 34): the guard puts it on request.user.
  const isActive = jest.fn(async (_user: Required<AuthUser>) =>
    (options.active ?? true) ? { role: 'front_desk', secondFactorMissing: false } : null,
  );
  const reflector = new Reflector();
  jest
    .spyOn(reflector, 'getAllAndOverride')
    .mockImplementation((metadataKey: unknown) =>
      metadataKey === IS_PUBLIC_KEY ? (options.isPublic ?? false) : undefined,
    );
  const guard = new JwtAuthGuard(
    reflector,
    signer,
    { isActive } as unknown as SessionsService,
    cookiesOf(options.cookieSecure ?? false),
  );
  const run = (request: Partial<GuardRequest>) => {
    const req = { headers: {}, cookies: {}, ...request } as GuardRequest;
    const context = {
      getHandler: () => run,
      getClass: () => JwtAuthGuard,
      switchToHttp: () => ({ getRequest: () => req }),
    } as unknown as ExecutionContext;
    return { result: Promise.resolve(guard.canActivate(context)), req };
  };
  return { run, isActive, guard };
}

describe('JwtAuthGuard', () => {
  it('lets a public route through without a token or a session check', async () => {
    const { run, isActive } = setup({ isPublic: true });
    await expect(run({}).result).resolves.toBe(true);
    expect(isActive).not.toHaveBeenCalled();
  });

  it('accepts the access cookie, checks its session and sets request.user', async () => {
    const { run, isActive } = setup();
    const { result, req } = run({ cookies: { grove_access: signer.sign(claims) } });
    await expect(result).resolves.toBe(true);
    expect(isActive).toHaveBeenCalledWith(signedInUser);
    expect(req.user).toEqual({ ...signedInUser, role: 'front_desk' });
  });

  it('accepts an Authorization: Bearer header (any case of the scheme)', async () => {
    const { run } = setup();
    await expect(
      run({ headers: { authorization: `bearer ${signer.sign(claims)}` } }).result,
    ).resolves.toBe(true);
  });

  it.each([
    ['no token', {}],
    ['a malformed token', { cookies: { grove_access: 'not-a-jwt' } }],
    [
      'another secret',
      {
        cookies: {
          grove_access: jwt.sign(claims, 'another-secret-another-secret', { algorithm: 'HS256' }),
        },
      },
    ],
    [
      'an expired token',
      {
        cookies: {
          grove_access: jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, SECRET),
        },
      },
    ],
    ['alg none', { cookies: { grove_access: jwt.sign(claims, '', { algorithm: 'none' }) } }],
    [
      'another HMAC algorithm',
      { cookies: { grove_access: jwt.sign(claims, SECRET, { algorithm: 'HS512' }) } },
    ],
    [
      'a missing session claim',
      { cookies: { grove_access: signer.sign({ sub: USER, bid: BUSINESS }) } },
    ],
    [
      'a claim that is not a UUID',
      { cookies: { grove_access: signer.sign({ ...claims, bid: 'business-1' }) } },
    ],
    [
      'the plain cookie name when cookies are Secure (__Host- expected)',
      { cookies: { grove_access: signer.sign(claims) } },
      true,
    ],
    [
      'a non-Bearer Authorization header',
      { headers: { authorization: `Basic ${signer.sign(claims)}` } },
    ],
  ])(
    'refuses %s with 401 and sets no user',
    async (_name, request: Partial<GuardRequest>, cookieSecure = false) => {
      const { run, isActive } = setup({ cookieSecure });
      const { result, req } = run(request);
      await expect(result).rejects.toBeInstanceOf(NotSignedInException);
      expect(isActive).not.toHaveBeenCalled();
      expect(req.user).toBeUndefined();
    },
  );

  it('verifies a token once, then trusts the same token until it expires and not a moment after', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-21T10:00:00Z') });
    const verify = jest.spyOn(signer, 'verify');
    try {
      const { run, isActive } = setup();
      const token = signer.sign(claims, { expiresIn: 60 });
      for (let i = 0; i < 3; i++) {
        const { result, req } = run({ cookies: { grove_access: token } });
        await expect(result).resolves.toBe(true);
        expect(req.user).toEqual({ ...signedInUser, role: 'front_desk' });
      }
      expect(verify).toHaveBeenCalledTimes(1);
      expect(isActive).toHaveBeenCalledTimes(3);
      jest.setSystemTime(new Date('2026-11-21T10:00:59.999Z'));
      await expect(run({ cookies: { grove_access: token } }).result).resolves.toBe(true);
      expect(verify).toHaveBeenCalledTimes(1);
      jest.setSystemTime(new Date('2026-11-21T10:01:00Z'));
      await expect(run({ cookies: { grove_access: token } }).result).rejects.toBeInstanceOf(
        NotSignedInException,
      );
    } finally {
      verify.mockRestore();
      jest.useRealTimers();
    }
  });

  it('does not remember a token that failed, nor let a tampered copy of a good one through', async () => {
    const { run } = setup();
    const token = signer.sign(claims);
    await expect(run({ cookies: { grove_access: token } }).result).resolves.toBe(true);
    const [header, payload, signature] = token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...claims, bid: '44444444-4444-4444-8444-444444444444' }),
    ).toString('base64url');
    for (const forged of [
      `${header}.${forgedPayload}.${signature}`,
      `${header}.${payload}.${signature.slice(0, -2)}xx`,
    ]) {
      await expect(run({ cookies: { grove_access: forged } }).result).rejects.toBeInstanceOf(
        NotSignedInException,
      );
      await expect(run({ cookies: { grove_access: forged } }).result).rejects.toBeInstanceOf(
        NotSignedInException,
      );
    }
  });

  it('refuses a valid token whose session has ended (logout, expiry) with 401', async () => {
    const { run } = setup({ active: false });
    const { result, req } = run({ cookies: { grove_access: signer.sign(claims) } });
    await expect(result).rejects.toBeInstanceOf(NotSignedInException);
    expect(req.user).toBeUndefined();
  });

  it('reads the __Host- prefixed access cookie when cookies are Secure', async () => {
    const { run } = setup({ cookieSecure: true });
    const { result, req } = run({ cookies: { '__Host-grove_access': signer.sign(claims) } });
    await expect(result).resolves.toBe(true);
    expect(req.user).toEqual({ ...signedInUser, role: 'front_desk' });
  });

  describe('sessionIdOf (logout)', () => {
    const requestWith = (request: Partial<Request>) =>
      ({ headers: {}, cookies: {}, ...request }) as Request;
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, SECRET, {
      algorithm: 'HS256',
    });

    it('names the session of a Bearer token or an access cookie, expired or not', () => {
      const { guard } = setup();
      expect(
        guard.sessionIdOf(
          requestWith({ headers: { authorization: `Bearer ${signer.sign(claims)}` } }),
        ),
      ).toBe(SESSION);
      expect(
        guard.sessionIdOf(requestWith({ headers: { authorization: `Bearer ${expired}` } })),
      ).toBe(SESSION);
      expect(guard.sessionIdOf(requestWith({ cookies: { grove_access: expired } }))).toBe(SESSION);
    });

    it('names nothing for a missing, forged or malformed token', () => {
      const { guard } = setup();
      const forged = jwt.sign(claims, 'another-secret-another-secret', { algorithm: 'HS256' });
      expect(guard.sessionIdOf(requestWith({}))).toBeNull();
      expect(
        guard.sessionIdOf(requestWith({ headers: { authorization: `Bearer ${forged}` } })),
      ).toBeNull();
      expect(
        guard.sessionIdOf(requestWith({ headers: { authorization: 'Bearer not-a-jwt' } })),
      ).toBeNull();
      expect(
        guard.sessionIdOf(
          requestWith({
            headers: { authorization: `Bearer ${signer.sign({ ...claims, sid: 'x' })}` },
          }),
        ),
      ).toBeNull();
    });
  });
});
