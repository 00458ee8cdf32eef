import { QueryFailedError } from 'typeorm';
import { badInputReply } from './bad-input-errors';

/** A pg error as the driver raises it (`DatabaseError` with a SQLSTATE `code`). */
const pgError = (code: string): Error => Object.assign(new Error('pg says no'), { code });

describe('badInputReply', () => {
  it('answers a PostgreSQL data exception (class 22), direct or wrapped by TypeORM, with 400', () => {
    for (const code of ['22021', '22003', '22001', '22P02']) {
      expect(badInputReply(pgError(code))).toEqual({
        statusCode: 400,
        message: 'The request holds a value that cannot be stored',
      });
      expect(badInputReply(new QueryFailedError('SELECT 1', [], pgError(code)))?.statusCode).toBe(
        400,
      );
    }
  });

  it('leaves other database errors and plain errors to the filter (500)', () => {
    for (const code of ['23505', '40P01', '57P01', '08006', '2200']) {
      expect(badInputReply(new QueryFailedError('SELECT 1', [], pgError(code)))).toBeUndefined();
    }
    expect(badInputReply(new Error('boom'))).toBeUndefined();
    expect(badInputReply(null)).toBeUndefined();
    expect(badInputReply('text')).toBeUndefined();
  });

  it('maps body-parser errors by type, naming the limit and the charset', () => {
    expect(
      badInputReply({ type: 'entity.too.large', status: 413, expose: true, limit: 102_400 }),
    ).toEqual({
      statusCode: 413,
      message: 'The request body is larger than the limit of 100 KB',
    });
    expect(
      badInputReply({ type: 'entity.too.large', status: 413, expose: true, limit: 1000 })?.message,
    ).toBe('The request body is larger than the limit of 1000 bytes');
    expect(
      badInputReply({ type: 'charset.unsupported', status: 415, expose: true, charset: 'latin1' }),
    ).toEqual({
      statusCode: 415,
      message: 'Unsupported charset "LATIN1": send the body as UTF-8',
    });
    // a gzip body that does not inflate: http-errors' BadRequestError without a type
    expect(
      badInputReply(
        Object.assign(new Error('Bad Request'), { status: 400, expose: true, code: 'Z_BUF_ERROR' }),
      ),
    ).toEqual({
      statusCode: 400,
      message: 'The request body could not be read',
    });
    // a server-side stream problem body-parser reports as 500 stays a 500, as does an unexposed error
    expect(
      badInputReply({ type: 'stream.not.readable', status: 500, expose: false }),
    ).toBeUndefined();
    expect(badInputReply({ type: 'entity.too.large', status: 413 })).toBeUndefined();
  });
});
