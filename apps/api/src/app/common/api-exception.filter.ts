import {
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ApiErrorBody } from '@grove/contracts';
import {
  AccountInvalidException,
  CurrentPasswordWrongException,
} from '../account/account.exceptions';
import { AuthCookies } from '../auth/auth-cookies';
import {
  EmailTakenException,
  InvalidCredentialsException,
  LoginEmailInvalidException,
  LoginFieldsEmptyException,
  NotSignedInException,
  RefreshRefusedException,
  SignupInvalidException,
} from '../auth/auth.exceptions';
import {
  DuplicateMemberException,
  ManagedMemberLockedException,
  MemberNotFoundException,
  NotABranchException,
} from '../members/members.exceptions';
import {
  MindbodyFailedException,
  MindbodyInvalidCredentialsException,
  MindbodyInvalidDiscountsException,
  MindbodyWebhookInvalidException,
  MindbodyWebhookSignatureException,
  MindbodyWrongStageException,
} from '../mindbody/mindbody.exceptions';
import { CaptchaFailedException } from '../captcha/captcha.exceptions';
import { ContactInvalidException } from '../contact/contact.exceptions';
import { LeadInvalidException } from '../leads/leads.exceptions';
import {
  JoinFlagNotFoundException,
  ProspectManagedException,
  ProspectNotFoundException,
} from '../prospects/prospects.exceptions';
import {
  ReferralLinkMissingException,
  ReferralLinkNotFoundException,
} from '../referrals/referrals.exceptions';
import { SupportIssueInvalidException } from '../support/support.exceptions';
import { databaseFaultReply } from '../database/database-faults';
import { badInputReply } from './bad-input-errors';
import { GroveException } from './grove.exception';
import { redactUrl } from './log-safety';

type ExceptionType = abstract new (...args: never[]) => GroveException;

/** Each module's exception types and their HTTP status: the one place where this is decided. */
export const EXCEPTION_STATUS: ReadonlyArray<readonly [ExceptionType, HttpStatus]> = [
  // auth
  [SignupInvalidException, HttpStatus.BAD_REQUEST],
  [LoginFieldsEmptyException, HttpStatus.BAD_REQUEST],
  [LoginEmailInvalidException, HttpStatus.BAD_REQUEST],
  [InvalidCredentialsException, HttpStatus.UNAUTHORIZED],
  [NotSignedInException, HttpStatus.UNAUTHORIZED],
  [RefreshRefusedException, HttpStatus.UNAUTHORIZED],
  [EmailTakenException, HttpStatus.CONFLICT],
  // members
  [MemberNotFoundException, HttpStatus.NOT_FOUND],
  [NotABranchException, HttpStatus.NOT_FOUND],
  [DuplicateMemberException, HttpStatus.CONFLICT],
  [ManagedMemberLockedException, HttpStatus.CONFLICT],
  // referrals
  [ReferralLinkNotFoundException, HttpStatus.NOT_FOUND],
  [ReferralLinkMissingException, HttpStatus.NOT_FOUND],
  // prospects
  [ProspectNotFoundException, HttpStatus.NOT_FOUND],
  [ProspectManagedException, HttpStatus.CONFLICT],
  [JoinFlagNotFoundException, HttpStatus.NOT_FOUND],
  // mindbody
  [MindbodyInvalidCredentialsException, HttpStatus.BAD_REQUEST],
  [MindbodyInvalidDiscountsException, HttpStatus.BAD_REQUEST],
  [MindbodyWrongStageException, HttpStatus.CONFLICT],
  [MindbodyFailedException, HttpStatus.BAD_GATEWAY],
  [MindbodyWebhookSignatureException, HttpStatus.UNAUTHORIZED],
  [MindbodyWebhookInvalidException, HttpStatus.BAD_REQUEST],
  // contact, leads, support, account (issue 5)
  [ContactInvalidException, HttpStatus.BAD_REQUEST],
  [CaptchaFailedException, HttpStatus.BAD_REQUEST],
  [LeadInvalidException, HttpStatus.BAD_REQUEST],
  [SupportIssueInvalidException, HttpStatus.BAD_REQUEST],
  [AccountInvalidException, HttpStatus.BAD_REQUEST],
  [CurrentPasswordWrongException, HttpStatus.BAD_REQUEST],
];

/** The HTTP status of a module exception (500 for one missing from `EXCEPTION_STATUS`). */
export function statusOf(exception: GroveException): HttpStatus {
  return (
    EXCEPTION_STATUS.find(([type]) => exception instanceof type)?.[1] ??
    HttpStatus.INTERNAL_SERVER_ERROR
  );
}

/**
 * Global filter: every error reply has the `ApiErrorBody` shape `{ statusCode, message,
 * fieldErrors? }`. Module exceptions are mapped by `EXCEPTION_STATUS`; Nest's HttpExceptions keep
 * their status; database faults by `databaseFaultReply` (unreachable or unanswering database:
 * 503 with `Retry-After`, logged as a warning; deadlock / serialization failure: 409 'Please try
 * again'); a body the parser refused or a PostgreSQL data exception is a 4xx (`badInputReply`);
 * anything else is logged and answered 500 without details.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  constructor(private readonly cookies: AuthCookies) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const fault = databaseFaultReply(exception);
    const body: ApiErrorBody = fault
      ? { statusCode: fault.statusCode, message: fault.message }
      : this.toBody(exception);
    if (body.statusCode === HttpStatus.INTERNAL_SERVER_ERROR)
      this.logFailure(exception, http.getRequest<Request>(), 'error');
    if (fault?.retryAfterSeconds) this.logFailure(exception, http.getRequest<Request>(), 'warn');
    if (exception instanceof RefreshRefusedException) this.cookies.clear(response);
    if (response.headersSent) return;
    if (fault?.retryAfterSeconds)
      response.setHeader('Retry-After', String(fault.retryAfterSeconds));
    response.status(body.statusCode).json(body);
  }

  private toBody(exception: unknown): ApiErrorBody {
    if (exception instanceof GroveException) {
      const statusCode = statusOf(exception);
      const { fieldErrors } = exception;
      return fieldErrors
        ? { statusCode, message: exception.message, fieldErrors: { ...fieldErrors } }
        : { statusCode, message: exception.message };
    }
    if (exception instanceof HttpException) {
      const statusCode = exception.getStatus();
      const reply = exception.getResponse();
      if (typeof reply === 'string') return { statusCode, message: reply };
      const { message, fieldErrors } = reply as {
        message?: unknown;
        fieldErrors?: Record<string, string>;
      };
      const text = Array.isArray(message)
        ? String(message[0])
        : typeof message === 'string'
          ? message
          : exception.message;
      return fieldErrors
        ? { statusCode, message: text, fieldErrors }
        : { statusCode, message: text };
    }
    return (
      badInputReply(exception) ?? {
        statusCode: HttpStatus.INTERNAL_SERVER_ERROR,
        message: 'Something went wrong',
      }
    );
  }

  /**
   * Logs a 500 (or a 503 database fault, as a warning) with the request that met it (method, path
   * without search terms, X-Request-Id when sent): at LOG_LEVEL 'warn' and above no request
   * logger is bound (see `logsRequests`), so the line says it itself. The error goes through the
   * `safeError` serializer: never a statement's parameters.
   */
  private logFailure(exception: unknown, request: Request, level: 'error' | 'warn'): void {
    const header = request.headers['x-request-id'];
    this.logger[level]({
      err: exception instanceof Error ? exception : new Error(String(exception)),
      request: {
        method: request.method,
        url: redactUrl(request.originalUrl),
        ...(typeof header === 'string' ? { id: header } : {}),
      },
    });
  }
}
