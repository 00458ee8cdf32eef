import { QueryFailedError } from 'typeorm';
import { redactParams, redactUrl, safeError, safeErrorText } from './log-safety';

describe('safeError', () => {
  it("keeps a failed statement's SQLSTATE and names, never its parameters or the failing row", () => {
    const driverError = Object.assign(
      new Error('duplicate key value violates unique constraint "users_email_key"'),
      {
        code: '23505',
        constraint: 'users_email_key',
        table: 'users',
        detail: 'Key (lower(email))=(ann@example.com) already exists.',
      },
    );
    const error = new QueryFailedError(
      'INSERT INTO users (email, password_hash) VALUES ($1, $2)',
      ['ann@example.com', '$argon2id$v=19$x'],
      driverError,
    );
    const safe = safeError(error);
    expect(safe).toMatchObject({
      type: 'QueryFailedError',
      message: 'duplicate key value violates unique constraint "users_email_key"',
      code: '23505',
      constraint: 'users_email_key',
      table: 'users',
    });
    const text = JSON.stringify(safe);
    expect(text).not.toContain('ann@example.com');
    expect(text).not.toContain('argon2id');
    expect(text).not.toContain('INSERT INTO');
  });

  it('hides the input PostgreSQL quotes in a data exception (class 22), also in the stack', () => {
    const error = Object.assign(
      new Error('invalid input syntax for type uuid: "ann@example.com"'),
      { code: '22P02' },
    );
    const safe = safeError(error);
    expect(safe.message).toBe('invalid input syntax for type uuid: "…"');
    expect(safe.stack).toMatch(/^Error: invalid input syntax for type uuid: "…"\n {4}at /);
    expect(JSON.stringify(safe)).not.toContain('ann@example.com');
  });

  it("drops a body-parser error's raw body and follows causes", () => {
    const parse = Object.assign(new SyntaxError('Unexpected token'), {
      body: '{"password":"hunter2hunter2"',
      status: 400,
    });
    const safe = safeError(new Error('wrapped', { cause: parse }));
    expect(safe.cause).toMatchObject({
      type: 'SyntaxError',
      message: 'Unexpected token',
      status: 400,
    });
    expect(JSON.stringify(safe)).not.toContain('hunter2');
    expect(safeErrorText(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(
      'refused [ECONNREFUSED]',
    );
  });
});

describe('redactUrl', () => {
  it('hides search terms and keeps the rest', () => {
    expect(redactUrl('/api/members?search=ann%40example.com&page=2')).toBe(
      '/api/members?search=[redacted]&page=2',
    );
    expect(redactUrl('/api/members?page=2')).toBe('/api/members?page=2');
    expect(redactUrl('/api/health')).toBe('/api/health');
  });

  it('hides the token segment of tokened paths and token query parameters (issue 24 part 5)', () => {
    const token = 'q8Xv2bT0kLm9Zr4sPaYwEe1uNcJdHfGiOoRtSu7Vx3Y';
    expect(redactUrl(`/api/member-emails/unsubscribe/${token}`)).toBe(
      '/api/member-emails/unsubscribe/[redacted]',
    );
    expect(redactUrl(`/api/member-emails/unsubscribe/${token}/status?x=1`)).toBe(
      '/api/member-emails/unsubscribe/[redacted]/status?x=1',
    );
    expect(redactUrl(`/member/unsubscribe/${token}`)).toBe('/member/unsubscribe/[redacted]');
    expect(redactUrl('/referral/AbCdEfGh12345678')).toBe('/referral/[redacted]');
    expect(redactUrl('/api/referrals/AbCdEfGh12345678/join')).toBe(
      '/api/referrals/[redacted]/join',
    );
    expect(redactUrl(`/member?token=${token}&a=b`)).toBe('/member?token=[redacted]&a=b');
    expect(redactUrl('/api/referral-links?page=2')).toBe('/api/referral-links?page=2');
    expect(redactUrl('/api/members/5f0c/referral-link')).toBe('/api/members/5f0c/referral-link');
  });
});

describe('redactParams', () => {
  it("hides :token and :code, and the token inside the request logger's splat", () => {
    expect(redactParams({ token: 'secret', id: '42' })).toEqual({ token: '[redacted]', id: '42' });
    expect(redactParams({ code: 'AbCdEfGh12345678' })).toEqual({ code: '[redacted]' });
    expect(
      redactParams({ splat: ['api', 'member-emails', 'unsubscribe', 'secret', 'status'] }),
    ).toEqual({ splat: ['api', 'member-emails', 'unsubscribe', '[redacted]', 'status'] });
    expect(redactParams({ splat: 'referral/AbCdEfGh12345678' })).toEqual({
      splat: 'referral/[redacted]',
    });
    expect(redactParams({ splat: ['member-emails', 'unsubscribe', 'secret'] })).toEqual({
      splat: ['member-emails', 'unsubscribe', '[redacted]'],
    });
    expect(redactParams({ splat: ['referrals', 'AbCdEfGh12345678', 'join'] })).toEqual({
      splat: ['referrals', '[redacted]', 'join'],
    });
    expect(redactParams({ splat: ['api', 'members'] })).toEqual({ splat: ['api', 'members'] });
  });
});
