import { QueryFailedError } from 'typeorm';
import {
  databaseFaultReply,
  errorCode,
  isDatabaseUnavailable,
  isTransactionConflict,
} from './database-faults';

/** A pg DatabaseError-like error with a SQLSTATE. */
const pgError = (code: string, message = 'failed') => Object.assign(new Error(message), { code });
/** As TypeORM throws it from a query runner. */
const wrapped = (driverError: Error) =>
  new QueryFailedError('SELECT $1', ['ann@example.com'], driverError);

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'server refusing connections',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' }),
    ],
    [
      'server shutting down (57P01)',
      wrapped(pgError('57P01', 'terminating connection due to administrator command')),
    ],
    ['server starting up (57P03)', pgError('57P03', 'the database system is starting up')],
    [
      'statement_timeout (57014)',
      wrapped(pgError('57014', 'canceling statement due to statement timeout')),
    ],
    ['too many connections (53300)', pgError('53300')],
    ['connection exception class 08', pgError('08006')],
    ['a lost connection', wrapped(new Error('Connection terminated unexpectedly'))],
    [
      'a connect timeout',
      new Error('Connection terminated due to connection timeout', {
        cause: new Error('timeout expired'),
      }),
    ],
    ['an unanswered statement', wrapped(new Error('Query read timeout'))],
    ['no free pooled connection in time', new Error('timeout exceeded when trying to connect')],
    [
      'a broken client',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    [
      "a transaction whose connection PostgreSQL terminated (TypeORM's released query runner)",
      new Error('Query runner already released. Cannot run queries anymore.'),
    ],
    [
      'every address refused',
      new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })], ''),
    ],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    [
      'a unique violation',
      wrapped(pgError('23505', 'duplicate key value violates unique constraint "users_email_key"')),
    ],
    ['bad input', pgError('22P02', 'invalid input syntax for type uuid: "x"')],
    ['a deadlock', pgError('40P01')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['something that is not an error', 'connection refused'],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('isTransactionConflict', () => {
  it('is true for a deadlock or serialization failure, wrapped or not', () => {
    expect(isTransactionConflict(wrapped(pgError('40P01', 'deadlock detected')))).toBe(true);
    expect(isTransactionConflict(pgError('40001', 'could not serialize access'))).toBe(true);
    expect(isTransactionConflict(wrapped(pgError('23505')))).toBe(false);
    expect(isTransactionConflict(new Error('no code'))).toBe(false);
  });
});

describe('errorCode', () => {
  it('reads the SQLSTATE TypeORM wraps', () => {
    expect(errorCode(wrapped(pgError('23505')))).toBe('23505');
    expect(errorCode(new Error('none'))).toBeUndefined();
  });
});

describe('databaseFaultReply', () => {
  it('is 503 with Retry-After for an unreachable database, 409 for a conflict, null otherwise', () => {
    expect(databaseFaultReply(pgError('57P01'))).toEqual({
      statusCode: 503,
      message: 'Grove cannot reach its database right now. Please try again in a moment.',
      retryAfterSeconds: 5,
    });
    expect(databaseFaultReply(pgError('40001'))).toEqual({
      statusCode: 409,
      message: 'Please try again',
    });
    expect(databaseFaultReply(pgError('23505'))).toBeNull();
  });
});
