import { QueryFailedError } from 'typeorm';
import { redactUrl, safeError, safeErrorText } from './log-safety';

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
});
