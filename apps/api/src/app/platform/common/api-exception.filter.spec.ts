import { HttpStatus, Logger, type ArgumentsHost } from '@nestjs/common';
import {
  EmailTakenException,
  InvalidCredentialsException,
  RefreshRefusedException,
} from '../auth/auth.exceptions';
import {
  DuplicateMemberException,
  ManagedMemberLockedException,
  MemberNotFoundException,
  NotABranchException,
} from '../../membership/members/members.exceptions';
import {
  JoinFlagNotFoundException,
  ProspectManagedException,
  ProspectNotFoundException,
} from '../../referral/prospects/prospects.exceptions';
import { ReferralLinkNotFoundException } from '../../referral/referrals/referrals.exceptions';
import { QueryFailedError } from 'typeorm';
import { ApiExceptionFilter, statusOf } from './api-exception.filter';
import { GroveException } from './grove.exception';

describe('statusOf', () => {
  it.each([
    [new MemberNotFoundException(), HttpStatus.NOT_FOUND],
    [new NotABranchException(), HttpStatus.NOT_FOUND],
    [new DuplicateMemberException(), HttpStatus.CONFLICT],
    [new ManagedMemberLockedException(), HttpStatus.CONFLICT],
    [new EmailTakenException(), HttpStatus.CONFLICT],
    [new InvalidCredentialsException(), HttpStatus.UNAUTHORIZED],
    [new RefreshRefusedException(), HttpStatus.UNAUTHORIZED],
    [new ReferralLinkNotFoundException(), HttpStatus.NOT_FOUND],
    [new ProspectNotFoundException(), HttpStatus.NOT_FOUND],
    [new ProspectManagedException(), HttpStatus.CONFLICT],
    [new JoinFlagNotFoundException(), HttpStatus.NOT_FOUND],
  ])('maps %p to %p', (exception, status) => {
    expect(statusOf(exception)).toBe(status);
  });

  it('treats an unmapped module exception as a server error', () => {
    class Unmapped extends GroveException {}
    expect(statusOf(new Unmapped('x'))).toBe(HttpStatus.INTERNAL_SERVER_ERROR);
  });
});

describe('ApiExceptionFilter', () => {
  const answer = (exception: unknown, headers: Record<string, string> = {}) => {
    const response = {
      headersSent: false,
      status: jest.fn(),
      json: jest.fn(),
      setHeader: jest.fn(),
    };
    response.status.mockReturnValue(response);
    const request = { method: 'GET', originalUrl: '/api/members?page=2', headers };
    const host = {
      switchToHttp: () => ({ getResponse: () => response, getRequest: () => request }),
    } as unknown as ArgumentsHost;
    new ApiExceptionFilter().catch(exception, host);
    return response;
  };
  let logged: jest.SpyInstance;
  beforeEach(() => {
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  it('answers an unexpected error 500 without details and logs it with the request it met', () => {
    const failure = new Error('connection refused');
    const response = answer(failure, { 'x-request-id': 'req-42-0001' });
    expect(response.status).toHaveBeenCalledWith(500);
    expect(response.json).toHaveBeenCalledWith({
      statusCode: 500,
      message: 'Something went wrong',
    });
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0][0]).toEqual({
      err: failure,
      request: { method: 'GET', url: '/api/members?page=2', id: 'req-42-0001' },
    });
  });

  it('does not log what the caller got wrong (404)', () => {
    const response = answer(new MemberNotFoundException());
    expect(response.status).toHaveBeenCalledWith(404);
    expect(logged).not.toHaveBeenCalled();
  });

  it('answers a database that cannot be reached 503 with Retry-After, logged as a warning without the statement', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), {
      code: 'ECONNREFUSED',
    });
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const response = answer(
        new QueryFailedError('SELECT 1 WHERE $1', ['ann@example.com'], refused),
      );
      expect(response.status).toHaveBeenCalledWith(503);
      expect(response.setHeader).toHaveBeenCalledWith('Retry-After', '5');
      expect(response.json).toHaveBeenCalledWith({
        statusCode: 503,
        message: 'Grove cannot reach its database right now. Please try again in a moment.',
      });
      expect(warned).toHaveBeenCalledTimes(1);
      expect(logged).not.toHaveBeenCalled();
    } finally {
      warned.mockRestore();
    }
  });

  it.each(['40P01', '40001'])(
    "answers a transaction conflict (%s) 409 'Please try again' without Retry-After",
    (code) => {
      const conflict = Object.assign(new Error('deadlock detected'), { code });
      const response = answer(
        new QueryFailedError('UPDATE members SET name = $1', ['Ann'], conflict),
      );
      expect(response.status).toHaveBeenCalledWith(409);
      expect(response.json).toHaveBeenCalledWith({ statusCode: 409, message: 'Please try again' });
      expect(response.setHeader).not.toHaveBeenCalled();
      expect(logged).not.toHaveBeenCalled();
    },
  );
});
